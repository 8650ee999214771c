"""Cheap attacks on the server: floods that must still answer every request, messages built
to crash it, names it cannot store, room creation without end, and a game log that cannot be
replayed at start."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from . import helpers
from .helpers import ServerProcess
from .inproc import Server, create_vs_bots, draw_and_wait, game, running


@pytest.mark.asyncio
async def test_every_request_over_the_rate_limit_is_answered_with_its_id(
    sqlite_app: Server,
) -> None:
    c = await sqlite_app.connect()
    ids = [f"p{i}" for i in range(150)]
    for rid in ids:
        await c.send(type="ping", id=rid)
    answers: dict[str, str] = {}
    while len(answers) < len(ids):
        msg = await c.recv(20)
        if msg.get("id") in ids:
            answers[msg["id"]] = msg["type"] if msg["type"] == "pong" else msg["code"]
    assert set(answers.values()) == {"pong", "rate-limited"}
    limited = [m for m in c.seen if m.get("code") == "rate-limited"]
    assert all(m["retry_after"] >= 0 for m in limited)


# End to end: the server refuses a message nested too deep by catching the RecursionError of its
# JSON parser, and CPython 3.11 parses Python source wrongly in a process that caught one ("AST
# constructor recursion depth mismatch": pytest then fails to show a later failure's
# traceback); a server process keeps it away from the test's.
def test_deeply_nested_json_is_refused_and_the_socket_stays(
    sqlite_server: ServerProcess, clients: list[helpers.Client]
) -> None:
    c = helpers.Client(sqlite_server.ws_url)
    clients.append(c)
    c.send_raw("[" * 8000 + "]" * 8000)
    reply = c.recv()
    assert reply["type"] == "error" and reply["code"] == "too-deep", reply
    deep = {"type": "create", "id": "d1", "name": "A", "seats": [], "rules": {}}
    nested: object = 1
    for _ in range(40):
        nested = [nested]
    deep["rules"] = {"x": nested}
    c.send_raw(json.dumps(deep))
    reply = c.recv()
    assert reply["id"] == "d1" and reply["code"] == "too-deep", reply
    assert c.request(type="ping")["type"] == "pong"
    assert "Traceback" not in sqlite_server.output()


@pytest.mark.asyncio
async def test_names_and_chat_that_cannot_be_stored_or_say_nothing(app_server: Server) -> None:
    """On SQLite and PostgreSQL (which cannot store a NUL): refused with the field named, and
    no ghost seat left behind."""
    c = await app_server.connect()
    for name in ("A\u0000B", "   ", "tab\there"):
        reply = await c.request(type="create", name=name, seats=[{"kind": "human"}] * 2)
        assert reply["type"] == "error" and "name" in reply["message"], reply
    joined = await c.request(type="create", name="Ann", seats=[{"kind": "human"}] * 2)
    code = joined["room"]
    other = await app_server.connect()
    bad = await other.request(type="join", room=code, name="\u0000")
    assert bad["type"] == "error" and "name" in bad["message"]
    state = await c.wait_state(lambda s: True)
    assert [s["taken"] for s in state["room"]["seats"]] == [True, False]
    for text in ("    ", "\u0000", "a\u0000b"):
        reply = await c.request(type="chat", text=text)
        assert reply["type"] == "error" and "text" in reply["message"], reply
    assert (await c.request(type="chat", text="  hello  "))["type"] == "ok"
    said = [m for m in c.seen if m["type"] == "chat"]  # it came before the "ok"
    assert [m["text"] for m in said] == ["hello"]
    assert (await other.request(type="join", room=code, name="Bob"))["type"] == "joined"


@pytest.mark.asyncio
async def test_room_creation_is_limited_per_address(sqlite_app: Server) -> None:
    c = await sqlite_app.connect()
    made = 0
    for _ in range(40):
        reply = await c.request(type="create", name="Spam", seats=[{"kind": "human"}] * 2)
        if reply["type"] == "error":
            assert reply["code"] == "too-many-rooms" and reply["retry_after"] > 0, reply
            break
        made += 1
    assert made == 20  # the burst (the fake clock stood still: nothing refilled)
    # a new connection from the same address is limited too; another address is not
    again = await sqlite_app.connect()
    elsewhere = await sqlite_app.connect(source="127.0.0.2")
    refused = await again.request(type="create", name="Spam", seats=[{"kind": "human"}] * 2)
    assert refused["type"] == "error" and refused["code"] == "too-many-rooms"
    ok = await elsewhere.request(type="create", name="Else", seats=[{"kind": "human"}] * 2)
    assert ok["type"] == "joined"
    # one room every 10 seconds after the burst
    await sqlite_app.advance(9.5)
    refused = await again.request(type="create", name="Spam", seats=[{"kind": "human"}] * 2)
    assert refused["type"] == "error" and refused["code"] == "too-many-rooms"
    await sqlite_app.advance(0.5)
    ok = await again.request(type="create", name="Spam", seats=[{"kind": "human"}] * 2)
    assert ok["type"] == "joined"


@pytest.mark.asyncio
async def test_the_lobby_list_comes_in_pages(sqlite_app: Server) -> None:
    codes = []
    for i in range(5):
        c = await sqlite_app.connect()
        codes.append(
            (await c.request(type="create", name=f"P{i}", seats=[{"kind": "human"}] * 2))["room"]
        )
        await sqlite_app.advance(1)  # each a second newer than the one before
    status, first = await sqlite_app.get("/api/rooms?limit=2")
    assert status == 200 and first["total"]["waiting"] == 5
    status, rest = await sqlite_app.get("/api/rooms?limit=2&offset=2")
    status, last = await sqlite_app.get("/api/rooms?limit=2&offset=4")
    pages = [r["code"] for page in (first, rest, last) for r in page["waiting"]]
    assert pages == list(reversed(codes))  # newest first, each room once
    assert (await sqlite_app.get("/api/rooms?limit=100000"))[0] == 422


@pytest.mark.asyncio
async def test_a_game_whose_log_cannot_be_replayed_is_kept_and_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The server started again (in process, on the same database) after a turn of the log
    was made one nobody could have played."""
    db = tmp_path / "rummikub.db"
    async with running(tmp_path) as srv:
        c = await srv.connect()
        joined = await create_vs_bots(c, bots=1)
        code = joined["room"]
        for _ in range(4):
            mine = await c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
            await draw_and_wait(c, game(mine))
    with sqlite3.connect(db) as conn:  # a turn nobody could have played
        seqs = [
            r[0]
            for r in conn.execute(
                "SELECT seq FROM events WHERE room_code=? AND kind='turn' ORDER BY seq", (code,)
            )
        ]
        bad = {"action": {"action": "play", "tiles": ["R1"], "table": [["R1", "R2", "R3"]]}}
        conn.execute(
            "UPDATE events SET data=? WHERE room_code=? AND seq=?",
            (json.dumps(bad), code, seqs[3]),
        )
    async with running(tmp_path) as srv:
        status, health = await srv.get("/api/health")
        assert status == 200 and health["ok"] is False
        [damaged] = health["damaged"]
        assert damaged["code"] == code and damaged["seq"] == seqs[3] and damaged["replayed"] == 4
        assert f"room {code} cannot be restored" in caplog.text
        status, info = await srv.get(f"/api/rooms/{code}")
        assert status == 200 and info["status"] == "damaged"
        status, record = await srv.get(f"/api/rooms/{code}/record")
        assert status == 200 and len(record["rounds"][0]["turns"]) == 3
        again = await srv.connect()
        reply = await again.request(type="resume", room=code, token=joined["token"])
        assert reply["type"] == "error" and reply["code"] == "damaged"
        assert "/record" in reply["message"]
    # the room is kept: still there after another restart
    async with running(tmp_path) as srv:
        assert (await srv.get("/api/health"))[1]["damaged"][0]["code"] == code
