"""Protocol tests against a real server (HTTP and WebSocket), on SQLite and PostgreSQL."""

from __future__ import annotations

from rummikub.core import Rules, pack_melds, parse_tiles, read_meld

from .helpers import (
    Client,
    ServerProcess,
    create_vs_bots,
    draw_and_wait,
    draw_until_round_over,
    game,
)


def test_play_against_bots_to_the_end_of_a_round(
    server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(server.ws_url)
    clients.append(c)
    joined = create_vs_bots(c, bots=2)
    assert joined["seat"] == 0 and len(joined["token"]) >= 16
    state = c.wait_state(lambda s: s["game"] is not None)
    g = game(state)
    assert len(g["rack"]) == 14 and g["rack_sizes"] == [14, 14, 14]
    assert state["room"]["status"] == "playing"
    final = draw_until_round_over(c)
    g = game(final)
    result = g["results"][-1]
    assert result["winner"] is not None and sum(result["scores"]) == 0
    assert final["room"]["status"] == "finished" and g["match_over"]
    # The finished game's record is public and replays.
    status, record = server.get(f"/api/rooms/{joined['room']}/record")
    assert status == 200 and record["format"] == "rummikub-game/1"
    assert next(p["name"] for p in record["players"]) == "Ann"
    from rummikub.core import load_record, verify

    assert verify(load_record(record)) == len(record["rounds"][0]["turns"])
    status, lobby = server.get("/api/rooms")
    assert status == 200 and joined["room"] in [r["code"] for r in lobby["finished"]]


def test_join_by_code_and_play_each_other(server: ServerProcess, clients: list[Client]) -> None:
    a, b, w = Client(server.ws_url), Client(server.ws_url), Client(server.ws_url)
    clients += [a, b, w]
    made = a.request(
        type="create",
        name="Ann",
        seats=[{"kind": "human"}, {"kind": "human"}],
        settings={"bot_delay": 0},
    )
    code = made["room"]
    waiting = a.wait_state(lambda s: s["room"]["status"] == "waiting")
    assert waiting["game"] is None
    _status, info = server.get("/api/rooms")
    assert code in [r["code"] for r in info["waiting"]]
    joined = b.request(type="join", room=code.lower(), name="Bo")
    assert joined["type"] == "joined" and joined["seat"] == 1
    third = w.request(type="join", room=code, name="Cy")
    assert third["type"] == "error" and third["code"] in ("full", "started")
    sa = a.wait_state(lambda s: s["game"] is not None)
    sb = b.wait_state(lambda s: s["game"] is not None)
    assert sa["game"]["rack"] != sb["game"]["rack"] or sa["game"]["rack"] == []
    first = game(sa)["current"]
    mover, other = (a, b) if first == 0 else (b, a)
    assert mover.request(type="draw")["type"] == "ok"
    after = other.wait_state(lambda s: game(s)["turn"] == 1)
    assert game(after)["rack_sizes"][first] == 15 and game(after)["current"] != first
    # chat reaches everyone in the room
    assert other.request(type="chat", text="hej!")["type"] == "ok"
    msg = mover.wait(lambda m: m["type"] == "chat")
    assert msg["text"] == "hej!"


def test_invalid_play_is_refused_with_reason_and_changes_nothing(
    server: ServerProcess, clients: list[Client]
) -> None:
    c = Client(server.ws_url)
    clients.append(c)
    create_vs_bots(c, rules={"preset": "casual"})
    state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    g = game(state)
    rack = g["rack"]
    seq = state["seq"]
    table = g["table"]  # a bot may have opened before our first turn
    # one tile alone is not a meld
    reply = c.request(type="play", table=[*table, [rack[0]]])
    assert reply["type"] == "error" and reply["code"] == "illegal"
    assert reply["reason"] == "invalid-meld" and "at least 3" in reply["message"]
    # ... with the parameters a client words it with (the English message is for logs)
    assert reply["params"] == {
        "meld": rack[0],
        "why": "meld-too-short",
        "count": 1,
        "number": len(table) + 1,
    }
    # a tile that is not on the rack
    missing = next(f"{c}{n}" for c in "KRBO" for n in range(1, 14) if f"{c}{n}" not in rack)
    reply = c.request(type="play", table=[*table, [missing, missing, missing]])
    assert reply["type"] == "error" and reply["code"] == "illegal"
    assert reply["reason"] == "not-on-rack"
    assert reply["params"] == {"tiles": f"{missing} {missing} {missing}"}
    # check: per-meld verdicts and the verdict of the play
    checked = c.request(type="check", table=[*table, [rack[0]], ["R1", "R2", "R3"]])
    assert checked["type"] == "checked"
    n = len(table)
    assert checked["melds"][n]["ok"] is False and checked["melds"][n + 1]["ok"] is True
    assert checked["melds"][n]["code"] == "invalid-meld"
    assert checked["melds"][n]["params"]["why"] == "meld-too-short"
    assert checked["play"]["ok"] is False
    assert checked["play"]["code"] == checked["play"]["reason"]  # the code, under both names
    # nothing changed: same rack, same turn
    again = c.request(type="ping")
    assert again["type"] == "pong"
    c.send(type="hint", id="h")
    hint = c.wait(lambda m: m.get("id") == "h")
    assert hint["type"] == "hint"
    if hint["tiles"]:
        rules = Rules.from_dict(state["room"]["rules"])
        assert all(read_meld(_meld(m), rules) for m in hint["table"])
    assert c.state is not None and c.state["seq"] >= seq
    assert game(c.state)["rack"] == rack and game(c.state)["turn"] == g["turn"]


def _meld(tokens: list[str]):  # type: ignore[no-untyped-def]
    from rummikub.core import Meld

    return Meld.parse(" ".join(tokens))


def test_a_valid_opening_is_accepted(seeded_server: ServerProcess, clients: list[Client]) -> None:
    """Draw until the rack holds an opening, then play it as a complete new table (the deal
    is seeded: it holds an opening before the bot goes out)."""
    c = Client(seeded_server.ws_url)
    clients.append(c)
    create_vs_bots(c, rules={"preset": "casual"})
    rules = Rules.from_dict({"preset": "casual"})
    for _ in range(60):
        state = c.wait_state(
            lambda s: (
                s["game"] is not None
                and (s["game"]["round_over"] or s["game"]["current"] == s["you"])
            )
        )
        g = game(state)
        assert not g["round_over"], "the bot went out before the rack held an opening"
        melds = pack_melds(parse_tiles(" ".join(g["rack"])), rules, objective="value")
        value = sum(read_meld(m, rules).value for m in melds)
        if value >= rules.opening_value:
            table = g["table"] + [[str(t) for t in m.tiles] for m in melds]
            reply = c.request(type="play", table=table)
            assert reply["type"] == "ok", reply
            after = c.wait_state(lambda s: game(s)["opened"][s["you"]])
            placed = sum(len(m.tiles) for m in melds)
            assert len(game(after)["rack"]) == len(g["rack"]) - placed
            assert any(e["action"] == "play" and e["seat"] == 0 for e in game(after)["log"])
            return
        draw_and_wait(c, g)
    raise AssertionError("no opening in 60 turns")


def test_timeout_is_run_by_the_server(server: ServerProcess, clients: list[Client]) -> None:
    c = Client(server.ws_url)
    clients.append(c)
    create_vs_bots(c, rules={"preset": "standard", "turn_seconds": 1})
    state = c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    turn = game(state)["turn"]
    assert game(state)["time_left"] is not None and game(state)["time_left"] <= 1
    after = c.wait_state(lambda s: game(s)["turn"] > turn, timeout=10)
    timeouts = [e for e in game(after)["log"] if e["action"] == "timeout" and e["seat"] == 0]
    assert timeouts and timeouts[0]["penalty"] == 1
    assert len(game(after)["rack"]) == 15


def test_http_api(server: ServerProcess) -> None:
    status, info = server.get("/api/info")
    assert status == 200 and "beginner" in info["bots"] and "standard" in info["presets"]
    status, body = server.get("/api/rooms/NOPE99")
    assert status == 404 and "NOPE99" in body["error"]
    import urllib.request

    with urllib.request.urlopen(server.base + "/") as r:
        page = r.read().decode()
    assert '<main id="app"' in page
    with urllib.request.urlopen(server.base + "/r/ABCDEF") as r:
        assert r.status == 200
    # the message catalogue is the package's, the one the terminal games use
    from rummikub.i18n import catalogue_bytes

    with urllib.request.urlopen(server.base + "/i18n/sv.json") as r:
        assert r.status == 200 and r.headers["content-type"] == "application/json"
        assert r.read() == catalogue_bytes("sv")
    status, body = server.get("/i18n/xx.json")
    assert status == 404
