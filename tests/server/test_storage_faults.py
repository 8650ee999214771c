"""Real storage faults mid-game: a SQLite file made unwritable for a few seconds, a PostgreSQL
server stopped and started again. An action takes effect only once it is stored; while storage
is down the rooms wait and the players are told; afterwards the game goes on, survives a server
restart, and its record holds every move any client saw."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rummikub.core import load_record, verify
from rummikub.core.record import replay
from rummikub.server.protocol.messages import DrawMsg
from rummikub.server.runtime.persistence import StorageDown
from rummikub.server.runtime.room_runtime import RoomRuntime

from . import inproc
from .conftest import IN_CI
from .helpers import Client, ServerProcess, free_port, game

SEED = {"RUMMIKUB_TEST_SEED": "41"}


def _need_root(what: str) -> None:
    if os.geteuid() == 0:
        return
    if IN_CI:
        pytest.fail(f"{what} needs root (CI runs as root)")
    pytest.skip(f"{what} needs root")


@pytest.fixture
def db_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory whose files the test can make unwritable: ``chattr +i`` (the immutable
    flag) makes every write fail, even through a file the server already has open, and even
    for root (for whom a ``chmod`` changes nothing)."""
    _need_root("the immutable file flag")
    where = tmp_path / "db"
    where.mkdir()
    probe = where / "probe"
    probe.write_text("x")
    done = subprocess.run(["chattr", "+i", str(probe)], capture_output=True, text=True)
    if done.returncode != 0:
        if IN_CI:
            pytest.fail(f"chattr +i does not work here: {done.stderr.strip()}")
        pytest.skip(f"chattr +i does not work here: {done.stderr.strip()}")
    subprocess.run(["chattr", "-i", str(probe)], check=True)
    probe.unlink()
    try:
        yield where
    finally:
        _immutable(where, False)


def _immutable(where: Path, on: bool) -> None:
    # not the WAL index (``-shm``): SQLite writes it through shared memory, which would get
    # the server killed by SIGBUS rather than told by an error
    paths = [str(p) for p in where.iterdir() if not p.name.endswith("-shm")] + [str(where)]
    subprocess.run(["chattr", "+i" if on else "-i", *paths], check=False)


class PrivatePostgres:
    """A PostgreSQL server of the test's own (initdb in a temporary directory), which the test
    may stop and start without disturbing any other test."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not found:
            if IN_CI:
                pytest.fail("PostgreSQL server binaries are required in CI (.ci/run installs them)")
            pytest.skip("PostgreSQL server binaries not installed")
        _need_root("running a private PostgreSQL as the postgres user")
        self.bin = found[-1].parent
        self.dir = Path(tempfile.mkdtemp(prefix="rummikub-pg-fault-"))
        shutil.chown(self.dir, "postgres")
        self.port = free_port()
        self._as_pg([str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-A", "trust"])
        self.start()

    def _as_pg(self, argv: list[str]) -> None:
        cmd = " ".join(f"'{a}'" for a in argv)
        subprocess.run(
            ["su", "postgres", "-s", "/bin/sh", "-c", cmd + " >/dev/null 2>&1"], check=True
        )

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        opts = f"-p {self.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off"
        self._as_pg(
            [
                *(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-w", "-o", opts),
                *("-l", str(self.dir / "log"), "start"),
            ]
        )

    def stop(self) -> None:
        self._as_pg([str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "fast", "stop"])

    def remove(self) -> None:
        subprocess.run(
            [str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop"],
            user="postgres",
            check=False,
            capture_output=True,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


class Seen:
    """Every state one player saw: the moves any client saw must survive."""

    def __init__(self) -> None:
        self.states: list[dict[str, Any]] = []

    def add(self, c: Client) -> None:
        self.states.extend(m for m in c.seen if m["type"] == "state" and m.get("game"))
        c.seen.clear()


def _my_turn(s: dict[str, Any]) -> bool:
    g = s["game"]
    return g is not None and (g["round_over"] or g["current"] == s["you"])


def _draw(c: Client) -> dict[str, Any]:
    """Draw (or pass on an empty pool) on the player's turn; the reply."""
    g = game(c.wait_state(_my_turn))
    return c.request(type="draw" if g["pool_size"] else "pass")


def _past(turn: int) -> Callable[[dict[str, Any]], bool]:
    return lambda s: bool((s["game"]["round"], s["game"]["turn"]) > (0, turn))


def _play_turns(c: Client, seen: Seen, turns: int) -> None:
    for _ in range(turns):
        turn: int = game(c.wait_state(_my_turn))["turn"]
        reply = _draw(c)
        assert reply["type"] == "ok", reply
        c.wait_state(_past(turn))
        seen.add(c)


def _bots_room(c: Client) -> str:
    """A room of bots only: its creator leaves once it runs and a stand-in plays for him."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    reply = c.request(
        type="create",
        name="Bo",
        rules="standard",
        seats=seats,
        settings={"bot_delay": 0.3},
    )
    assert reply["type"] == "joined", reply
    c.wait_state(lambda s: s["game"] is not None)
    assert c.request(type="leave")["type"] == "left"
    return str(reply["room"])


def _latest(c: Client) -> dict[str, Any]:
    """The latest state the client has, after a ping has flushed what was in flight."""
    assert c.request(type="ping")["type"] == "pong"
    assert c.state is not None
    return c.state


def _seq_of(srv: ServerProcess, code: str) -> int:
    watcher = Client(srv.ws_url)
    try:
        watcher.request(type="watch", room=code)
        return int(watcher.wait_state(lambda s: True)["seq"])
    finally:
        watcher.close()


def _outage(
    srv: ServerProcess, c: Client, seen: Seen, bots_room: str, break_it: Any, mend_it: Any
) -> None:
    """Break storage mid-game, check that nothing moves and everybody is told, mend it."""
    c.wait_state(_my_turn)
    before = _latest(c)  # nothing the server sent before it is still on its way
    assert _my_turn(before)
    break_it()
    reply = _draw(c)
    assert reply["type"] == "error" and reply["code"] == "storage-unavailable", reply
    told = c.wait_state(lambda s: s.get("saving") is True)
    # the room stays exactly as it was
    for key in ("rack", "table", "pool_size", "turn", "current", "rack_sizes", "log"):
        assert game(told)[key] == game(before)[key], key
    assert told["seq"] == before["seq"]
    status, health = srv.get("/api/health")
    assert status == 200 and health["ok"] is False and health["storage"]["ok"] is False
    # another try while still down: refused again, nothing changes
    assert _draw(c)["code"] == "storage-unavailable"
    waiting = _seq_of(srv, bots_room)  # the bots' room waits too
    time.sleep(1.0)
    assert _seq_of(srv, bots_room) == waiting
    time.sleep(1.0)  # more time passes while storage is down ...
    frozen = _latest(c)
    assert frozen.get("saving") is True
    mend_it()
    mended = time.monotonic()
    back = c.wait_state(lambda s: s.get("saving") is False, timeout=30)
    since_mended = time.monotonic() - mended
    assert back["seq"] == before["seq"]
    assert game(back)["rack"] == game(before)["rack"]
    # ... and none of it is charged to the player to move: his clock stood still through the
    # two seconds above; it may only have run once storage was back (the retry that found it,
    # the message on its way: however long that took on a busy machine; 0.25 s for the
    # database accepting connections a poll before `mend_it` returned)
    charged = game(frozen)["time_left"] - game(back)["time_left"]
    assert charged <= since_mended + 0.25, (charged, since_mended)
    seen.add(c)
    # the game goes on: the draw that was refused can be made now
    _play_turns(c, seen, 2)
    end = time.monotonic() + 30
    while _seq_of(srv, bots_room) <= waiting:  # the bots' room goes on by itself
        assert time.monotonic() < end, "the bots' room did not go on after the outage"
        time.sleep(0.2)
    assert srv.get("/api/health")[1]["storage"]["ok"] is True


def _finish_after_restart(srv: ServerProcess, code: str, token: str, seen: Seen) -> None:
    """Restart the server, resume, check the game is as last seen, play it to the end, and
    check the record holds every state any client saw."""
    last = seen.states[-1]
    srv.stop(keep_log=True)
    srv.start()
    c = Client(srv.ws_url)
    try:
        assert c.request(type="resume", room=code, token=token)["type"] == "joined"
        now = c.wait_state(lambda s: s["game"] is not None)
        for key in ("rack", "table", "pool_size", "turn", "rack_sizes"):
            assert game(now)[key] == game(last)[key], key
        end = time.monotonic() + 120
        while not game(c.wait_state(_my_turn))["round_over"]:
            assert time.monotonic() < end, "the game did not end"
            assert _draw(c)["type"] == "ok"
        seen.add(c)
    finally:
        c.close()
    status, record = srv.get(f"/api/rooms/{code}/record")
    assert status == 200, record
    rec = load_record(record)
    verify(rec)
    steps = {(st.round, st.turn): st.before for st in replay(rec)}
    for state in seen.states:
        g = game(state)
        if g["round_over"]:
            continue
        before = steps[(g["round"], g["turn"])]
        assert sorted(g["rack"]) == sorted(str(t) for t in before.racks[state["you"]].tiles)
        assert g["pool_size"] == len(before.pool)
        shown = Counter(t.split("=")[0] for m in g["table"] for t in m)
        assert shown == Counter(str(t) for m in before.table.melds for t in m.tiles)


def _start_game(srv: ServerProcess) -> tuple[Client, str, str]:
    c = Client(srv.ws_url)
    reply = c.request(
        type="create",
        name="Ann",
        rules={"preset": "standard", "turn_seconds": 300},
        seats=[{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        settings={"bot_delay": 0},
    )
    assert reply["type"] == "joined", reply
    return c, str(reply["room"]), str(reply["token"])


def test_sqlite_file_unwritable_for_a_few_seconds(db_dir: Path) -> None:
    srv = ServerProcess(f"sqlite:///{db_dir / 'rummikub.db'}", env=SEED).start()
    seen = Seen()
    try:
        c, code, token = _start_game(srv)
        bots = _bots_room(Client(srv.ws_url, browser_id=None))
        _play_turns(c, seen, 3)

        _outage(
            srv, c, seen, bots, lambda: _immutable(db_dir, True), lambda: _immutable(db_dir, False)
        )
        c.wait_state(_my_turn)  # the bot has moved: nothing moves until this player does
        seen.add(c)
        c.close()
        _finish_after_restart(srv, code, token, seen)
        assert "storage failed" in srv.output()
    except BaseException:
        print(srv.output())
        raise
    finally:
        srv.stop()


def test_postgresql_restarted_mid_game() -> None:
    pg = PrivatePostgres()
    srv = ServerProcess(pg.url, env=SEED)
    try:
        srv.start()
        seen = Seen()
        c, code, token = _start_game(srv)
        bots = _bots_room(Client(srv.ws_url, browser_id=None))
        _play_turns(c, seen, 3)
        _outage(srv, c, seen, bots, pg.stop, pg.start)
        c.wait_state(_my_turn)  # the bot has moved: nothing moves until this player does
        seen.add(c)
        c.close()
        _finish_after_restart(srv, code, token, seen)
    finally:
        srv.stop()
        pg.remove()


@pytest.mark.asyncio
async def test_a_move_whose_write_is_in_flight_is_never_shown(db_dir: Path) -> None:
    """Two rooms draw at once and their group commit fails. The first room told of the failure
    puts the server into storage-down mode, which shows every room to its clients; the other
    room then holds a drawn tile not stored. It is shown only once its own write has failed
    and it is put back: no client ever sees the tile (in process, so both draws are
    deterministically in one group commit)."""
    async with inproc.running(db_dir.parent, db_url=f"sqlite:///{db_dir / 'rummikub.db'}") as srv:
        players = [await srv.connect() for _ in range(2)]
        codes = [str((await inproc.create_vs_bots(c))["room"]) for c in players]
        before = []
        for c in players:
            # the human seat moves first or after the bot (seeded deals): play on to his turn
            before.append(await c.wait_state(lambda s: inproc.game(s)["current"] == s["you"]))
            assert (await c.request(type="ping"))["type"] == "pong"  # nothing still in flight
            c.seen.clear()
        m = srv.manager
        rooms = [m.rooms[code] for code in codes]

        async def draw(rt: RoomRuntime) -> None:
            async with rt.lock:
                await m.turns.commit(rt, rt.room.action_for(DrawMsg(type="draw")))

        _immutable(db_dir, True)
        try:
            done = await asyncio.gather(*(draw(rt) for rt in rooms), return_exceptions=True)
            assert all(isinstance(e, StorageDown) for e in done), done
            for c, was in zip(players, before, strict=True):
                told = await c.wait_state(lambda s: s.get("saving") is True)
                assert (await c.request(type="ping"))["type"] == "pong"
                shown = [m for m in c.seen if m["type"] == "state"]
                assert shown and shown[-1] is told
                for state in shown:  # every state shown while down is the stored one
                    assert state["seq"] == was["seq"]
                    assert inproc.game(state)["rack"] == inproc.game(was)["rack"]
                    assert inproc.game(state)["pool_size"] == inproc.game(was)["pool_size"]
        finally:
            _immutable(db_dir, False)
