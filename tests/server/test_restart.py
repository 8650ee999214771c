"""A server stopped mid-game and started again on the same database: the game goes on where it
was, its turn clock with the time its player had.

In process (:mod:`.inproc`, a fake clock): the clock's arithmetic, exactly. End to end (a
server process killed with SIGKILL): no accepted move is lost and the clock goes on."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from rummikub.core import load_record, verify
from rummikub.server.manager import HEARTBEAT_SECONDS
from rummikub.server.runtime.clock import FakeClock
from rummikub.server.storage.store import Store

from . import inproc
from .helpers import (
    Client,
    ServerProcess,
    create_vs_bots,
    draw_and_wait,
    draw_until_round_over,
    game,
)


async def _beat_stored(server: inproc.Server) -> None:
    """Wait until the heartbeat of the application's time now is stored."""
    m = server.manager
    deadline = time.monotonic() + inproc.WAIT
    while await m.db(m.store.last_beat) != server.clock.time():
        assert time.monotonic() < deadline, "no heartbeat stored"
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_a_restart_gives_the_player_the_time_he_had(db_url: str, tmp_path: Path) -> None:
    """The clock stands still from the last heartbeat to the start again: on a fake clock the
    time used is exact. The server is stopped 2.5 s into the turn (its last heartbeat is
    stored as it stops) and stays down 100 s; the player has 60 - 2.5 s left after it."""
    clock = FakeClock()
    async with inproc.running(tmp_path, db_url=db_url, clock=clock) as srv:
        c = await srv.connect()
        joined = await inproc.create_vs_bots(
            c, bots=2, rules={"preset": "standard", "turn_seconds": 60}
        )
        code, token = joined["room"], joined["token"]
        for _ in range(3):  # a few turns, so there is a log to replay
            mine = await c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
            await inproc.draw_and_wait(c, inproc.game(mine))
        before = await c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
        g0 = inproc.game(before)
        assert g0["time_left"] == 60
        for _ in range(2):  # two heartbeats...
            await srv.advance(HEARTBEAT_SECONDS)
            await _beat_stored(srv)
        await srv.advance(0.5)  # ...and half a second more before the server stops
    await clock.advance(100)  # the server is down: this must not count against the player
    async with inproc.running(tmp_path, db_url=db_url, clock=clock) as srv:
        c2 = await srv.connect()
        assert (await c2.request(type="resume", room=code, token=token))["type"] == "joined"
        after = await c2.wait_state(lambda s: s["game"] is not None)
        g1 = inproc.game(after)
        for key in ("rack", "table", "rack_sizes", "pool_size", "turn", "current", "log"):
            assert g1[key] == g0[key], key
        assert after["seq"] == before["seq"]
        assert g1["time_left"] == 60 - 2.5
        # ...and the clock runs out at its time after the restart, not before
        await srv.advance(57.4)
        assert inproc.game(await c2.wait_state(lambda s: True))["turn"] == g0["turn"]
        await srv.advance(0.1)
        timed_out = await c2.wait_state(lambda s: inproc.game(s)["turn"] > g0["turn"])
        assert any(e["action"] == "timeout" for e in inproc.game(timed_out)["log"])


def _wait_for_beat_after(db_url: str, after: float, timeout: float = 30) -> float:
    """Wait until the server has stored a heartbeat later than ``after`` (its wall clock);
    that heartbeat's time."""
    store = Store(db_url)
    try:
        end = time.monotonic() + timeout
        while True:
            beat = store.last_beat()
            if beat is not None and beat > after:
                return beat
            assert time.monotonic() < end, "no heartbeat stored"
            time.sleep(0.05)
    finally:
        store.close()


def test_restart_resumes_the_game_and_its_clock(db_url: str, clients: list[Client]) -> None:
    """SIGKILL, no shutdown code runs: every accepted move is still there, and the clock goes
    on from the last heartbeat the server stored."""
    srv = ServerProcess(db_url).start()
    try:
        c = Client(srv.ws_url)
        joined = create_vs_bots(c, bots=2, rules={"preset": "standard", "turn_seconds": 60})
        code, token = joined["room"], joined["token"]
        for _ in range(3):  # a few turns, so there is a log to replay
            mine = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
            draw_and_wait(c, game(mine))
        before = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
        t_before = time.monotonic()
        g0 = game(before)
        # some of the turn's time passes: until a heartbeat a second into the turn is stored
        _wait_for_beat_after(db_url, time.time() + 1.0)
        c.close()
        t_kill = time.monotonic()
        srv.kill()
        t_restart = time.monotonic()
        srv.start()
        c2 = Client(srv.ws_url)
        clients.append(c2)
        assert c2.request(type="resume", room=code, token=token)["type"] == "joined"
        after = c2.wait_state(lambda s: s["game"] is not None)
        t_after = time.monotonic()
        g1 = game(after)
        for key in ("rack", "table", "rack_sizes", "pool_size", "turn", "current", "log"):
            assert g1[key] == g0[key], key
        assert after["seq"] == before["seq"]
        # The clock resumes where it stood at the last heartbeat (at most HEARTBEAT_SECONDS
        # before the kill), and the time the server was down (its start included) is not
        # charged: the time used lies between what ran before the kill less a heartbeat, and
        # everything the test saw pass less the downtime (bounds from the test's own clock, so
        # a slow machine moves both; 0.3 s for the messages in flight)
        assert g0["time_left"] is not None and g1["time_left"] is not None
        used = g0["time_left"] - g1["time_left"]
        lowest = (t_kill - t_before) - HEARTBEAT_SECONDS - 0.3
        highest = (t_after - t_before) - (t_restart - t_kill) + 0.3
        assert used >= 1.0 - 0.3  # the second the test waited for was charged
        assert lowest <= used <= highest, (lowest, used, highest)
        final = draw_until_round_over(c2)
        assert game(final)["results"] and final["room"]["status"] == "finished"
        status, record = srv.get(f"/api/rooms/{code}/record")
        assert status == 200
        verify(load_record(record))
        draws = [t for t in record["rounds"][0]["turns"] if t["player"] == 0]
        assert len(draws) >= 4
    finally:
        srv.stop()
