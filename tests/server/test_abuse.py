"""Cheap attacks on the server: floods that must still answer every request, messages built
to crash it, names it cannot store, room creation without end, and a game log that cannot be
replayed at start."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .helpers import Client, ServerProcess, create_vs_bots, draw_and_wait, game


def test_every_request_over_the_rate_limit_is_answered_with_its_id(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    ids = [f"p{i}" for i in range(150)]
    for rid in ids:
        c.send(type="ping", id=rid)
    answers: dict[str, str] = {}
    while len(answers) < len(ids):
        msg = c.recv(20)
        if msg.get("id") in ids:
            answers[msg["id"]] = msg["type"] if msg["type"] == "pong" else msg["code"]
    assert set(answers.values()) == {"pong", "rate-limited"}
    limited = [m for m in c.seen if m.get("code") == "rate-limited"]
    assert all(m["retry_after"] >= 0 for m in limited)


def test_deeply_nested_json_is_refused_and_the_socket_stays(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
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


def test_names_and_chat_that_cannot_be_stored_or_say_nothing(
    server: ServerProcess, clients: list[Client]
) -> None:
    """On SQLite and PostgreSQL (which cannot store a NUL): refused with the field named, and
    no ghost seat left behind."""
    c = Client(server.ws_url)
    clients.append(c)
    for name in ("A\u0000B", "   ", "tab\there"):
        reply = c.request(type="create", name=name, seats=[{"kind": "human"}] * 2)
        assert reply["type"] == "error" and "name" in reply["message"], reply
    joined = c.request(type="create", name="Ann", seats=[{"kind": "human"}] * 2)
    code = joined["room"]
    other = Client(server.ws_url)
    clients.append(other)
    bad = other.request(type="join", room=code, name="\u0000")
    assert bad["type"] == "error" and "name" in bad["message"]
    state = c.wait_state(lambda s: True)
    assert [s["taken"] for s in state["room"]["seats"]] == [True, False]
    for text in ("    ", "\u0000", "a\u0000b"):
        reply = c.request(type="chat", text=text)
        assert reply["type"] == "error" and "text" in reply["message"], reply
    assert c.request(type="chat", text="  hello  ")["type"] == "ok"
    said = [m for m in c.seen if m["type"] == "chat"]  # it came before the "ok"
    assert [m["text"] for m in said] == ["hello"]
    assert other.request(type="join", room=code, name="Bob")["type"] == "joined"


def test_room_creation_is_limited_per_address(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    made = 0
    for _ in range(40):
        reply = c.request(type="create", name="Spam", seats=[{"kind": "human"}] * 2)
        if reply["type"] == "error":
            assert reply["code"] == "too-many-rooms" and reply["retry_after"] > 0, reply
            break
        made += 1
    assert 20 <= made <= 25  # the burst, and at most what refilled meanwhile
    # a new connection from the same address is limited too; another address is not
    again = Client(sqlite_server.ws_url)
    elsewhere = Client(sqlite_server.ws_url, source="127.0.0.2")
    clients.extend([again, elsewhere])
    refused = again.request(type="create", name="Spam", seats=[{"kind": "human"}] * 2)
    assert refused["type"] == "error" and refused["code"] == "too-many-rooms"
    ok = elsewhere.request(type="create", name="Else", seats=[{"kind": "human"}] * 2)
    assert ok["type"] == "joined"


def test_the_lobby_list_comes_in_pages(sqlite_server: ServerProcess, clients: list[Client]) -> None:
    codes = []
    for i in range(5):
        c = Client(sqlite_server.ws_url)
        clients.append(c)
        codes.append(c.request(type="create", name=f"P{i}", seats=[{"kind": "human"}] * 2)["room"])
    status, first = sqlite_server.get("/api/rooms?limit=2")
    assert status == 200 and first["total"]["waiting"] == 5
    status, rest = sqlite_server.get("/api/rooms?limit=2&offset=2")
    status, last = sqlite_server.get("/api/rooms?limit=2&offset=4")
    pages = [r["code"] for page in (first, rest, last) for r in page["waiting"]]
    assert pages == list(reversed(codes))  # newest first, each room once
    assert sqlite_server.get("/api/rooms?limit=100000")[0] == 422


def test_a_game_whose_log_cannot_be_replayed_is_kept_and_reported(
    tmp_path: Path, clients: list[Client]
) -> None:
    db = tmp_path / "rummikub.db"
    srv = ServerProcess(f"sqlite:///{db}").start()
    try:
        c = Client(srv.ws_url)
        clients.append(c)
        joined = create_vs_bots(c, bots=1)
        code = joined["room"]
        for _ in range(4):
            mine = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == 0)
            draw_and_wait(c, game(mine))
        c.close()
        srv.stop(keep_log=True)
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
        srv.start()
        status, health = srv.get("/api/health")
        assert status == 200 and health["ok"] is False
        [damaged] = health["damaged"]
        assert damaged["code"] == code and damaged["seq"] == seqs[3] and damaged["replayed"] == 4
        assert f"room {code} cannot be restored" in srv.output()
        status, info = srv.get(f"/api/rooms/{code}")
        assert status == 200 and info["status"] == "damaged"
        status, record = srv.get(f"/api/rooms/{code}/record")
        assert status == 200 and len(record["rounds"][0]["turns"]) == 3
        again = Client(srv.ws_url)
        clients.append(again)
        reply = again.request(type="resume", room=code, token=joined["token"])
        assert reply["type"] == "error" and reply["code"] == "damaged"
        assert "/record" in reply["message"]
        # the room is kept: still there after another restart
        srv.stop(keep_log=True)
        srv.start()
        assert srv.get("/api/health")[1]["damaged"][0]["code"] == code
    finally:
        srv.stop()
