"""Kill the server mid-game, start it again on the same database, finish the game."""

from __future__ import annotations

import time

from rummikub.server.manager import HEARTBEAT_SECONDS

from .helpers import (
    Client,
    ServerProcess,
    create_vs_bots,
    draw_and_wait,
    draw_until_round_over,
    game,
)


def test_restart_resumes_the_game_and_its_clock(db_url: str, clients: list[Client]) -> None:
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
        time.sleep(2.5)  # let some of the turn's time pass, and a heartbeat be stored
        g0 = game(before)
        c.close()
        t_kill = time.monotonic()
        srv.kill()
        time.sleep(2.0)  # the server is down: this must not count against the player
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
        # before the kill), and the time the server was down is not charged: the time used
        # between the two states lies between what ran before the kill less a heartbeat, and
        # everything the test saw pass less the downtime (bounds from the test's own clock, so
        # a slow machine moves both; 0.3 s for the messages in flight)
        assert g0["time_left"] is not None and g1["time_left"] is not None
        used = g0["time_left"] - g1["time_left"]
        lowest = (t_kill - t_before) - HEARTBEAT_SECONDS - 0.3
        highest = (t_after - t_before) - (t_restart - t_kill) + 0.3
        assert lowest <= used <= highest, (lowest, used, highest)
        final = draw_until_round_over(c2)
        assert game(final)["results"] and final["room"]["status"] == "finished"
        status, record = srv.get(f"/api/rooms/{code}/record")
        assert status == 200
        from rummikub.core import load_record, verify

        verify(load_record(record))
        draws = [t for t in record["rounds"][0]["turns"] if t["player"] == 0]
        assert len(draws) >= 4
    finally:
        srv.stop()
