"""Protocol tests of the application in process (HTTP and WebSocket; :mod:`.inproc`, a fake
clock, seeded deals), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from rummikub.bots.registry import bot_levels
from rummikub.core import Rules, pack_melds, parse_tiles, read_meld

from .inproc import (
    Server,
    create_vs_bots,
    draw_and_wait,
    draw_until_round_over,
    game,
)

pytestmark = pytest.mark.asyncio


async def test_play_against_bots_to_the_end_of_a_round(app_server: Server) -> None:
    c = await app_server.connect()
    joined = await create_vs_bots(c, bots=2)
    assert joined["seat"] == 0 and len(joined["token"]) >= 16
    state = await c.wait_state(lambda s: s["game"] is not None)
    g = game(state)
    assert len(g["rack"]) == 14 and g["rack_sizes"] == [14, 14, 14]
    assert state["room"]["status"] == "playing"
    final = await draw_until_round_over(c)
    g = game(final)
    result = g["results"][-1]
    assert result["winner"] is not None and sum(result["scores"]) == 0
    assert final["room"]["status"] == "finished" and g["match_over"]
    # The finished game's record is public and replays.
    status, record = await app_server.get(f"/api/rooms/{joined['room']}/record")
    assert status == 200 and record["format"] == "rummikub-game/1"
    assert next(p["name"] for p in record["players"]) == "Ann"
    from rummikub.core import load_record, verify

    assert verify(load_record(record)) == len(record["rounds"][0]["turns"])
    status, lobby = await app_server.get("/api/rooms")
    assert status == 200 and joined["room"] in [r["code"] for r in lobby["finished"]]


async def test_join_by_code_and_play_each_other(app_server: Server) -> None:
    a, b, w = await app_server.connect(), await app_server.connect(), await app_server.connect()
    made = await a.request(
        type="create",
        name="Ann",
        seats=[{"kind": "human"}, {"kind": "human"}],
        settings={"bot_delay": 0},
    )
    code = made["room"]
    waiting = await a.wait_state(lambda s: s["room"]["status"] == "waiting")
    assert waiting["game"] is None
    _status, info = await app_server.get("/api/rooms")
    assert code in [r["code"] for r in info["waiting"]]
    joined = await b.request(type="join", room=code.lower(), name="Bo")
    assert joined["type"] == "joined" and joined["seat"] == 1
    third = await w.request(type="join", room=code, name="Cy")
    assert third["type"] == "error" and third["code"] in ("full", "started")
    sa = await a.wait_state(lambda s: s["game"] is not None)
    sb = await b.wait_state(lambda s: s["game"] is not None)
    assert sa["game"]["rack"] != sb["game"]["rack"] or sa["game"]["rack"] == []
    first = game(sa)["current"]
    mover, other = (a, b) if first == 0 else (b, a)
    assert (await mover.request(type="draw"))["type"] == "ok"
    after = await other.wait_state(lambda s: game(s)["turn"] == 1)
    assert game(after)["rack_sizes"][first] == 15 and game(after)["current"] != first
    # chat reaches everyone in the room
    assert (await other.request(type="chat", text="hej!"))["type"] == "ok"
    msg = await mover.wait(lambda m: m["type"] == "chat")
    assert msg["text"] == "hej!"


async def test_invalid_play_is_refused_with_reason_and_changes_nothing(app_server: Server) -> None:
    c = await app_server.connect()
    await create_vs_bots(c, rules={"preset": "casual"})
    state = await c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    g = game(state)
    rack = g["rack"]
    seq = state["seq"]
    table = g["table"]  # a bot may have opened before our first turn
    # one tile alone is not a meld
    reply = await c.request(type="play", table=[*table, [rack[0]]])
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
    reply = await c.request(type="play", table=[*table, [missing, missing, missing]])
    assert reply["type"] == "error" and reply["code"] == "illegal"
    assert reply["reason"] == "not-on-rack"
    assert reply["params"] == {"tiles": f"{missing} {missing} {missing}"}
    # check: per-meld verdicts and the verdict of the play
    checked = await c.request(type="check", table=[*table, [rack[0]], ["R1", "R2", "R3"]])
    assert checked["type"] == "checked"
    n = len(table)
    assert checked["melds"][n]["ok"] is False and checked["melds"][n + 1]["ok"] is True
    assert checked["melds"][n]["code"] == "invalid-meld"
    assert checked["melds"][n]["params"]["why"] == "meld-too-short"
    assert checked["play"]["ok"] is False
    assert checked["play"]["code"] == checked["play"]["reason"]  # the code, under both names
    # nothing changed: same rack, same turn
    again = await c.request(type="ping")
    assert again["type"] == "pong"
    await c.send(type="hint", id="h")
    hint = await c.wait(lambda m: m.get("id") == "h")
    assert hint["type"] == "hint", hint
    # the best move by the evaluation: to draw, or a play whose every meld is valid
    rules = Rules.from_dict(state["room"]["rules"])
    drawn = hint["tiles"] == [] and hint["table"] is None
    assert drawn or all(read_meld(_meld(m), rules) for m in hint["table"]), hint
    assert c.state is not None and c.state["seq"] >= seq
    assert game(c.state)["rack"] == rack and game(c.state)["turn"] == g["turn"]


def _meld(tokens: list[str]):  # type: ignore[no-untyped-def]
    from rummikub.core import Meld

    return Meld.parse(" ".join(tokens))


async def test_a_valid_opening_is_accepted(app_server: Server) -> None:
    """Draw until the rack holds an opening, then play it as a complete new table (the deal
    is seeded: it holds an opening before the bot goes out)."""
    c = await app_server.connect()
    await create_vs_bots(c, rules={"preset": "casual"})
    rules = Rules.from_dict({"preset": "casual"})
    for _ in range(60):
        state = await c.wait_state(
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
            reply = await c.request(type="play", table=table)
            assert reply["type"] == "ok", reply
            after = await c.wait_state(lambda s: game(s)["opened"][s["you"]])
            placed = sum(len(m.tiles) for m in melds)
            assert len(game(after)["rack"]) == len(g["rack"]) - placed
            assert any(e["action"] == "play" and e["seat"] == 0 for e in game(after)["log"])
            return
        await draw_and_wait(c, g)
    raise AssertionError("no opening in 60 turns")


async def test_timeout_is_run_by_the_server(app_server: Server) -> None:
    c = await app_server.connect()
    await create_vs_bots(c, rules={"preset": "standard", "turn_seconds": 1})
    state = await c.wait_state(lambda s: s["game"] is not None and s["game"]["current"] == s["you"])
    turn = game(state)["turn"]
    assert game(state)["time_left"] is not None and game(state)["time_left"] <= 1
    await c.quiet()
    assert game(c.state)["turn"] == turn  # the turn waits for its clock...
    await app_server.advance(1)  # ...and times out when its second has passed
    after = await c.wait_state(lambda s: game(s)["turn"] > turn)
    timeouts = [e for e in game(after)["log"] if e["action"] == "timeout" and e["seat"] == 0]
    assert timeouts and timeouts[0]["penalty"] == 1
    assert len(game(after)["rack"]) == 15


async def test_http_api(app_server: Server) -> None:
    status, info = await app_server.get("/api/info")
    assert status == 200 and "standard" in info["presets"]
    # the games are read from the table of game parts, each with its levels and whether rated
    assert info["games"] == {
        "tiles": {"bots": list(bot_levels("tiles")), "rated": True},
        "xpress": {"bots": list(bot_levels("xpress")), "rated": False},
    }
    c = await app_server.connect()
    bad = await c.request(type="create", name="Ann", game="chess", seats=[{"kind": "human"}] * 2)
    assert bad["code"] == "bad-message" and bad["params"]["field"] == "game"
    assert "tiles, xpress" in bad["message"] and "'chess'" in bad["message"]
    status, body = await app_server.get("/api/rooms/NOPE99")
    assert status == 404 and "NOPE99" in body["error"]
    r = await app_server.request("GET", "/")
    assert r.status_code == 200 and '<main id="app"' in r.text
    r = await app_server.request("GET", "/r/ABCDEF")
    assert r.status_code == 200
    # the message catalogue is the package's, the one the terminal games use
    from rummikub.i18n import catalogue_bytes

    r = await app_server.request("GET", "/i18n/sv.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.content == catalogue_bytes("sv")
    status, body = await app_server.get("/i18n/xx.json")
    assert status == 404
