"""Security and bad input: other seats, other racks, unfinished replays, malformed, oversized
and flooding clients."""

from __future__ import annotations

import json
import statistics
import threading
import time

from .helpers import Client, ServerProcess, create_vs_bots, game


def _two_player_room(server: ServerProcess, clients: list[Client]) -> tuple[Client, Client, str]:
    a, b = Client(server.ws_url), Client(server.ws_url)
    clients += [a, b]
    code = a.request(
        type="create", name="Ann", rules="casual", seats=[{"kind": "human"}, {"kind": "human"}]
    )["room"]
    assert b.request(type="join", room=code, name="Bo")["type"] == "joined"
    a.wait_state(lambda s: s["game"] is not None)
    b.wait_state(lambda s: s["game"] is not None)
    return a, b, code


def test_nobody_acts_for_another_seat(sqlite_server: ServerProcess, clients: list[Client]) -> None:
    a, b, code = _two_player_room(sqlite_server, clients)
    first = game(a.state)["current"]
    waiting = b if first == 0 else a
    for kind in ("draw", "pass", "hint"):
        reply = waiting.request(type=kind)
        assert reply["type"] == "error" and reply["code"] == "not-your-turn"
    reply = waiting.request(type="play", table=[["R1", "R2", "R3"]])
    assert reply["code"] == "not-your-turn"
    # a stranger cannot take a seat with a made-up token, nor act without a seat
    s = Client(sqlite_server.ws_url)
    clients.append(s)
    assert s.request(type="resume", room=code, token="x" * 32)["code"] == "bad-token"
    assert s.request(type="draw")["code"] == "no-room"
    assert s.request(type="watch", room=code)["type"] == "watching"
    assert s.request(type="draw")["code"] == "spectator"
    assert s.request(type="chat", text="hi")["code"] == "spectator"
    assert game(a.state)["turn"] == 0


def test_no_client_sees_another_rack(sqlite_server: ServerProcess, clients: list[Client]) -> None:
    a, b, code = _two_player_room(sqlite_server, clients)
    w = Client(sqlite_server.ws_url)
    clients.append(w)
    w.request(type="watch", room=code)
    w.wait_state(lambda s: s["game"] is not None)
    rack_a, rack_b = game(a.state)["rack"], game(b.state)["rack"]
    assert a.state is not None and b.state is not None
    assert a.state["you"] == 0 and b.state["you"] == 1
    # Everything each client received: only its own rack, and a spectator none.
    for client, own in ((a, rack_a), (b, rack_b), (w, None)):
        for msg in client.seen:
            if msg["type"] == "state" and msg["game"] is not None:
                assert msg["game"].get("rack") == own
        for text in client.raw:
            other = rack_b if own is rack_a else rack_a
            assert json.dumps(other) not in text or own == other
    status, body = sqlite_server.get(f"/api/rooms/{code}/record")
    assert status == 403 and body["code"] == "not-finished"
    status, info = sqlite_server.get(f"/api/rooms/{code}")
    assert status == 200 and "rack" not in json.dumps(info)


def test_malformed_and_oversized_messages_get_errors_and_change_nothing(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(sqlite_server.ws_url)
    clients.append(c)
    create_vs_bots(c, rules="casual")
    # on the person's turn (no clock) nothing changes until he acts
    state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    seq = state["seq"]
    bad: list[str | bytes] = [
        "not json",
        "[1, 2]",
        "{}",
        json.dumps({"type": "fly"}),
        json.dumps({"type": "draw", "extra": 1}),
        json.dumps({"type": "play", "table": "R1 R2 R3"}),
        json.dumps({"type": "play", "table": [["R1"] * 40]}),
        json.dumps({"type": "play", "table": [["XYZ99", "R1", "R2"]]}),
        json.dumps({"type": "chat", "text": "x" * 301}),
        json.dumps({"type": "create", "name": "", "seats": []}),
        json.dumps({"type": "join", "room": "../../etc", "name": "x"}),
        json.dumps(
            {
                "type": "create",
                "name": "A",
                "rules": {"jokers": -1},
                "seats": [{"kind": "human"}, {"kind": "bot"}],
            }
        ),
        json.dumps(
            {
                "type": "create",
                "name": "A",
                "rules": "standard",
                "seats": [{"kind": "bot"}, {"kind": "human"}],
            }
        ),
        json.dumps(
            {
                "type": "create",
                "name": "A",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}],
            }
        ),
        json.dumps({"type": "chat", "text": "y" * 20000}),
        b"\x00\xff\xfe",
    ]
    for text in bad:
        c.send_raw(text)
        reply = c.wait(lambda m: m["type"] == "error")
        assert reply["message"], text
    codes = {m.get("code") for m in c.seen if m["type"] == "error"}
    assert {"bad-json", "bad-message", "too-large", "bad-rules", "bad-seats"} <= codes
    assert c.request(type="ping")["type"] == "pong"  # still connected
    assert c.state is not None and c.state["seq"] == seq  # nothing changed


def test_a_flood_from_one_client_does_not_stall_other_rooms(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    flooder, player = Client(sqlite_server.ws_url), Client(sqlite_server.ws_url)
    clients += [flooder, player]
    create_vs_bots(flooder, rules="casual")
    create_vs_bots(player, rules="casual")
    player.wait_state(lambda s: s["game"] is not None)
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        junk = json.dumps({"type": "check", "table": [["R1", "R2", "R3"]] * 50})
        while not stop.is_set():
            try:
                flooder.send_raw(junk)
            except Exception:
                return
            sent[0] += 1

    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    try:
        time.sleep(0.5)
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            assert player.request(type="ping", timeout=10)["type"] == "pong"
            times.append(time.perf_counter() - t0)
    finally:
        stop.set()
        thread.join(5)
    assert sent[0] > 500
    # the median is the property (the other room is served at once); the bound on the slowest
    # answer only has to catch a stall that lasts as long as the flood's backlog, and leaves
    # room for a loaded machine (the flooding thread competes for the same cores)
    assert statistics.median(times) < 0.25 and max(times) < 5.0, times
