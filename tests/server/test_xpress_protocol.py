"""Xpress rooms over the WebSocket protocol, against a real server (SQLite and PostgreSQL)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from rummikub.core import parse_tile
from rummikub.xpress import (
    EndTurn,
    Place,
    Throw,
    XpressMatch,
    best_placement,
    load_xpress,
    verify_xpress,
)
from rummikub.xpress.dice import DieFace

from .inproc import Client, Server, game, running


async def create_xpress(c: Client, *, bot: str = "greedy", **kw: Any) -> dict[str, Any]:
    settings = {"bot_delay": 0, **kw.pop("settings", {})}
    reply = await c.request(
        type="create",
        name="Ann",
        game="xpress",
        seats=[{"kind": "human"}, {"kind": "bot", "level": bot}],
        settings=settings,
        **kw,
    )
    assert reply["type"] == "joined", reply
    return reply


async def my_move(c: Client, timeout: float = 30) -> dict[str, Any]:
    """Wait until it is this client's move or the round is over; the state."""
    return await c.wait_state(
        lambda s: (
            s["game"] is not None and (s["game"]["round_over"] or s["game"]["current"] == s["you"])
        ),
        timeout,
    )


def hand(g: dict[str, Any], seat: int) -> list[DieFace]:
    return [DieFace(d["die"], parse_tile(d["face"])) for d in g["hands"][seat]]


async def play_one(c: Client) -> dict[str, Any]:
    """One action of the human seat: throw everything, place the most, or end the turn."""
    state = await my_move(c)
    g = game(state)
    if g["round_over"]:
        return state
    mine = hand(g, state["you"])
    if g["phase"] == "throw":
        reply = await c.request(type="throw", dice=[d.die for d in mine])
    elif g["placed"] == 0 and g["can_place"]:
        from rummikub.core import Table

        best = best_placement(Table.from_json(g["table"]), [d.face for d in mine])
        from rummikub.xpress.bots import dice_for

        reply = await c.request(
            type="place", dice=list(dice_for(mine, best.faces)), table=best.table.to_json()
        )
    else:
        reply = await c.request(type="end_turn")
    assert reply["type"] == "ok", reply  # the state it led to came before the reply
    return state


async def play_round(c: Client, limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        state = await play_one(c)
        if game(state)["round_over"]:
            return state
    raise AssertionError("the round did not end")


def _after_round(done: int, s: dict[str, Any]) -> bool:
    return bool(s["room"]["status"] == "finished" or game(s)["round"] > done)


async def play_match(c: Client, server: Server) -> dict[str, Any]:
    """Play the human seat's moves until the match is over, the pauses between rounds passing
    on ``server``'s clock; the final state."""
    while True:
        state = await play_round(c)
        if state["room"]["status"] == "finished":
            return state
        await server.advance(state["room"]["settings"]["round_pause"])
        await c.wait_state(partial(_after_round, game(state)["round"]))


def check_throws_follow_the_seed(record: dict[str, Any]) -> None:
    """Replaying the recorded choices on a fresh match with the record's seed throws exactly
    the recorded faces: the server's dice come from the seeded generator only."""
    rec = load_xpress(record)
    match = XpressMatch(list(rec.players), rec.seed or 0, rules=rec.rules)
    for ri, rd in enumerate(rec.rounds):
        if ri:
            match.next_round()
        assert match.rounds[-1].hands == rd.hands
        for turn in rd.turns:
            if turn.throw is not None:
                match.act(Throw(turn.throw.dice))
                assert match.rounds[-1].turns[-1].throw == turn.throw
            for place in turn.places:
                match.act(Place(place.dice, place.table))
            if turn.ended:
                match.act(EndTurn())


@pytest.mark.asyncio
async def test_xpress_against_a_bot_to_the_end(app_server: Server) -> None:
    c = await app_server.connect()
    joined = await create_xpress(c, rules={"rounds": 1})
    state = await c.wait_state(lambda s: s["game"] is not None)
    g = game(state)
    assert state["room"]["game"] == "xpress" and g["kind"] == "xpress"
    # dice are thrown in the open: both hands are visible, 9 dice each, all different
    assert [len(h) for h in g["hands"]] == [9, 9]
    assert len({d["die"] for h in g["hands"] for d in h}) == 18
    assert g["rounds"] == 1 and g["block_throws"] == 3 and g["time_left"] is None
    final = await play_round(c)
    g = game(final)
    result = g["results"][-1]
    assert result["reason"] in ("out", "blocked")
    assert g["totals"] == result["scores"] and final["room"]["status"] == "finished"
    # every throw in the log shows a face per die thrown (a round can end before anyone throws
    # again: the setup roll is not a throw of the log)
    throws = [e for e in g["log"] if e["action"] == "throw"]
    assert all(len(e["faces"]) == len(e["dice"]) > 0 for e in throws), throws
    # the record of the finished game replays under the Xpress rules
    status, record = await app_server.get(f"/api/rooms/{joined['room']}/record")
    assert status == 200 and record["format"] == "rummikub-xpress/1"
    assert record["players"][0]["name"] == "Ann"
    assert verify_xpress(load_xpress(record)) > 0
    check_throws_follow_the_seed(record)
    status, lobby = await app_server.get("/api/rooms")
    finished = {r["code"]: r for r in lobby["finished"]}
    assert finished[joined["room"]]["game"] == "xpress"


def _in_round_after(done: int, s: dict[str, Any]) -> bool:
    return s["game"] is not None and s["game"]["round"] > done and not s["game"]["round_over"]


@pytest.mark.asyncio
async def test_illegal_xpress_actions_are_refused_and_change_nothing(sqlite_app: Server) -> None:
    # a fixed deal in which, after the throw below, the table holds sets and the player can place
    c = await sqlite_app.connect()
    await create_xpress(c)
    # play until it is our turn in the throw phase (after our first, setup-roll turn)
    for _ in range(200):
        state = await my_move(c)
        g = game(state)
        if g["round_over"]:
            # the bot went out before our second turn: go on in the next round
            await sqlite_app.advance(state["room"]["settings"]["round_pause"])
            await c.wait_state(partial(_in_round_after, g["round"]))
            continue
        # (with a single die left there is no second die for the already-thrown check: play on)
        if g["phase"] == "throw" and len(hand(g, state["you"])) >= 2:
            break
        await play_one(c)
    else:
        raise AssertionError("never reached a throw")
    g, seq = game(state), state["seq"]
    mine = hand(g, state["you"])
    other = hand(g, 1 - state["you"])

    async def refused(code: str, reason: str | None = None, **msg: Any) -> None:
        reply = await c.request(**msg)
        assert reply["type"] == "error" and reply["code"] == code, reply
        if reason is not None:
            assert reply["reason"] == reason, reply

    await refused("illegal", "must-throw", type="end_turn")
    await refused(
        "illegal", "must-throw", type="place", dice=[mine[0].die], table=[[str(mine[0].face)]]
    )
    await refused("illegal", "not-in-hand", type="throw", dice=[other[0].die])
    await refused("illegal", "no-dice", type="throw", dice=[mine[0].die, mine[0].die])
    await refused("bad-message", type="throw", dice=[])
    await refused("bad-message", type="throw", dice=[1], faces=["R5"])  # nobody chooses faces
    await refused("wrong-game", type="draw")
    await refused("wrong-game", type="play", table=[])
    assert (await c.request(type="throw", dice=[mine[0].die]))["type"] == "ok"
    after = await c.wait_state(lambda s: s["seq"] == seq + 1)
    g2 = game(after)
    assert g2["phase"] == "place" and g2["rolled"] == [mine[0].die]
    # only the thrown die may change its face
    kept = [d for d in hand(g2, after["you"]) if d.die != mine[0].die]
    assert kept == [d for d in mine if d.die != mine[0].die]
    await refused("illegal", "already-thrown", type="throw", dice=[mine[1].die])
    one = hand(g2, after["you"])[0]
    broken = [*g2["table"], [str(one.face)]]
    await refused("illegal", "invalid-meld", type="place", dice=[one.die], table=broken)
    assert g2["table"]  # dropping the table's sets is refused
    await refused(
        "illegal", "table-tile-missing", type="place", dice=[one.die], table=[[str(one.face)]]
    )
    faces = {str(d.face) for d in hand(g2, after["you"])}
    number = next(n for n in range(1, 14) if not {f"K{n}", f"R{n}", f"B{n}"} & faces)
    group = [f"K{number}", f"R{number}", f"B{number}"]
    await refused("illegal", "tile-from-nowhere", type="place", table=[*g2["table"], group])
    assert g2["can_place"]
    await refused("illegal", "must-place", type="end_turn")
    assert (await c.request(type="ping"))["type"] == "pong"
    assert c.state is not None and c.state["seq"] == seq + 1  # nothing else happened
    # a spectator cannot act, and Xpress messages are refused in a tile-game room
    w = await sqlite_app.connect()
    code = after["room"]["code"]
    assert (await w.request(type="watch", room=code))["type"] == "watching"
    reply = await w.request(type="end_turn")
    assert reply["type"] == "error" and reply["code"] == "spectator"
    t = await sqlite_app.connect()
    await t.request(
        type="create",
        name="Bo",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        settings={"bot_delay": 0},
    )
    reply = await t.request(type="throw", dice=[0])
    assert reply["type"] == "error" and reply["code"] == "wrong-game"
    bad = await t.request(
        type="create",
        name="Bo",
        game="xpress",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "expert"}, {"kind": "human"}],
    )
    assert bad["type"] == "error" and bad["code"] == "bad-seats"
    bad = await t.request(
        type="create",
        name="Bo",
        game="xpress",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "strategic"}],
    )
    assert bad["type"] == "error" and bad["code"] == "bad-seats" and "strategic" in bad["message"]
    bad = await t.request(
        type="create", name="Bo", game="xpress", rules={"rounds": 0}, seats=[{"kind": "human"}] * 2
    )
    assert bad["type"] == "error" and bad["code"] == "bad-rules"


@pytest.mark.asyncio
async def test_two_people_and_a_hint(sqlite_app: Server) -> None:
    # a fixed deal in which the first player can place after the setup roll, and does not go out
    a, b = await sqlite_app.connect(), await sqlite_app.connect()
    made = await a.request(
        type="create", name="Ann", game="xpress", seats=[{"kind": "human"}, {"kind": "human"}]
    )
    status, info = await sqlite_app.get(f"/api/rooms/{made['room']}")
    assert status == 200 and info["game"] == "xpress" and info["status"] == "waiting"
    assert (await b.request(type="join", room=made["room"], name="Bo"))["seat"] == 1
    sa = await a.wait_state(lambda s: s["game"] is not None)
    sb = await b.wait_state(lambda s: s["game"] is not None)
    assert game(sa)["hands"] == game(sb)["hands"]  # public dice
    mover = a if game(sa)["current"] == 0 else b
    g = game(mover.state)
    assert mover.state is not None
    mover_seq = mover.state["seq"]
    hint = await mover.request(type="hint")
    assert hint["type"] == "hint"
    assert g["can_place"]
    assert hint["dice"] and hint["table"]
    reply = await mover.request(type="place", dice=hint["dice"], table=hint["table"])
    assert reply["type"] == "ok", reply
    assert not game(await mover.wait_state(lambda s: s["seq"] > mover_seq))["round_over"]
    assert (await mover.request(type="end_turn"))["type"] == "ok"
    other, you = (b, 1) if mover is a else (a, 0)
    s = await other.wait_state(lambda s: game(s)["current"] == you)
    assert game(s)["first_turn"] and game(s)["phase"] == "place"


@pytest.mark.asyncio
async def test_restart_resumes_an_xpress_game_exactly(db_url: str, tmp_path: Path) -> None:
    """The application stopped and started again on the same database (in process): the
    resumed game throws exactly what it would have thrown."""
    async with running(tmp_path, db_url=db_url) as srv:
        c = await srv.connect()
        # Two rounds: a bot may end the first round within the five actions below, and the
        # room must still be open when the server stops.
        joined = await create_xpress(c, rules={"rounds": 2}, settings={"round_pause": 0.5})
        code, token = joined["room"], joined["token"]
        for _ in range(5):  # a few actions, so there is a log (throws among them) to replay
            await play_one(c)
        before = await my_move(c)
        if game(before)["round_over"]:  # compare a state inside a round, not one in the pause
            await srv.advance(0.5)
            await c.wait_state(lambda s: game(s)["round"] == 1)
            before = await my_move(c)
        assert not game(before)["round_over"]
    async with running(tmp_path, db_url=db_url) as srv:
        c2 = await srv.connect()
        resumed = await c2.request(type="resume", room=code, token=token)
        assert resumed["type"] == "joined", resumed
        after = await c2.wait_state(lambda s: s["game"] is not None)
        g0, g1 = game(before), game(after)
        for key in ("round", "hands", "table", "phase", "current", "turn", "placed", "idle", "log"):
            assert g1[key] == g0[key], key
        assert after["seq"] == before["seq"]
        final = await play_match(c2, srv)
        assert final["room"]["status"] == "finished"
        status, record = await srv.get(f"/api/rooms/{code}/record")
        assert status == 200
        verify_xpress(load_xpress(record))
        check_throws_follow_the_seed(record)  # the throws after the restart too
