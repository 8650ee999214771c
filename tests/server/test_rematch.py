"""The rematch (handlers/rematch.py), in process on a fake clock: at the end of a match every
person still in the room accepts, and a new room with the same people, bots and rules is made
(each told his seat's token); a person who left is not waited for, his seat free in the new
room (the host may start it, a bot taking the seat); refusals before the end and after it was
made. Seeded deals, on the small rules (a round of draws ends soon)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .inproc import Client, Server, game

pytestmark = pytest.mark.asyncio

SMALL = {"preset": "standard", "numbers": 7, "copies": 1, "rack_size": 6, "opening_value": 0}


def _after(acted: tuple[int, int]) -> Callable[[dict[str, Any]], bool]:
    """Whether a state shows a later turn than ``acted`` (round, turn)."""

    def later(s: dict[str, Any]) -> bool:
        return s["game"] is not None and (s["game"]["round"], s["game"]["turn"]) > acted

    return later


def _rematch(state: dict[str, Any]) -> dict[str, Any]:
    """The room's rematch field (none before the match is over)."""
    out: dict[str, Any] = state["room"].get("rematch") or {"accepted": [], "room": None}
    return out


async def _room_of_two(server: Server) -> tuple[Client, Client, dict[str, Any], dict[str, Any]]:
    """Ann and Bo and a beginner bot, the game started."""
    ann, bo = await server.connect(), await server.connect()
    a = await ann.request(
        type="create",
        name="Ann",
        rules=SMALL,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "beginner"}],
        settings={"bot_delay": 0, "hints": False},
    )
    assert a["type"] == "joined", a
    b = await bo.request(type="join", room=a["room"], name="Bo")
    assert b["type"] == "joined" and b["seat"] == 1, b
    await ann.wait_state(lambda s: s["game"] is not None)
    return ann, bo, a, b


async def _play_out(ann: Client, bo: Client) -> dict[str, Any]:
    """Ann and Bo draw (or pass) on their turns until the match is over; the last state."""
    people = {0: ann, 1: bo}
    for _ in range(400):
        state = await ann.wait_state(
            lambda s: (
                s["game"] is not None
                and (s["game"]["round_over"] or s["game"]["current"] in people)
            )
        )
        g = game(state)
        if g["round_over"]:
            assert g["match_over"], "one round is the whole match"
            return state
        acted = (g["round"], g["turn"])
        reply = await people[g["current"]].request(type="draw" if g["pool_size"] else "pass")
        assert reply["type"] == "ok", reply
        await ann.wait_state(_after(acted))
    raise AssertionError("the match did not end")


async def test_everyone_accepts_and_the_rematch_starts_with_the_same_seats(
    sqlite_app: Server,
) -> None:
    ann, bo, a, _ = await _room_of_two(sqlite_app)
    early = await ann.request(type="rematch")
    assert early["type"] == "error" and early["code"] == "match-not-over", early
    final = await _play_out(ann, bo)
    assert final["room"]["rematch"] == {"accepted": [], "room": None}
    # Ann accepts: the room shows it, and waits for Bo
    assert (await ann.request(type="rematch"))["type"] == "ok"
    shown = await bo.wait_state(lambda s: _rematch(s)["accepted"] == [0])
    assert _rematch(shown)["room"] is None
    # a spectator has no say
    eve = await sqlite_app.connect()
    assert (await eve.request(type="watch", room=a["room"]))["type"] == "watching"
    refused = await eve.request(type="rematch")
    assert refused["type"] == "error" and refused["code"] == "spectator", refused
    # Bo accepts: both are told the new room and their own seat's token
    assert (await bo.request(type="rematch"))["type"] == "ok"
    told = [await c.wait(lambda m: m["type"] == "rematch") for c in (ann, bo)]
    assert [m["seat"] for m in told] == [0, 1]
    assert told[0]["room"] == told[1]["room"] != a["room"]
    assert told[0]["token"] != told[1]["token"]
    code = told[0]["room"]
    old = await eve.wait_state(lambda s: _rematch(s)["room"] is not None)
    assert old["room"]["rematch"] == {"accepted": [0, 1], "room": code}
    # the new room: the same rules, people and bot; every seat is taken, so it plays
    resumed = await ann.request(type="resume", room=code, token=told[0]["token"])
    assert resumed["type"] == "joined" and resumed["seat"] == 0, resumed
    assert (await bo.request(type="resume", room=code, token=told[1]["token"]))["seat"] == 1
    new = await ann.wait_state(lambda s: s["room"]["code"] == code and s["game"] is not None)
    assert new["room"]["status"] == "playing"
    assert new["room"]["rules"] == final["room"]["rules"]
    assert [(s["kind"], s["name"], s["bot"]) for s in new["room"]["seats"]] == [
        ("human", "Ann", None),
        ("human", "Bo", None),
        ("bot", None, "beginner"),
    ]
    assert new["room"]["settings"]["hints"] is False
    # the old room's rematch is made once
    again = await eve.request(type="watch", room=a["room"])
    assert again["type"] == "watching"
    made = await ann.request(type="resume", room=a["room"], token=a["token"])
    assert made["type"] == "joined"
    twice = await ann.request(type="rematch")
    assert twice["type"] == "error" and twice["code"] == "rematch-made", twice
    assert twice["params"] == {"room": code}


async def test_a_player_who_leaves_is_not_waited_for_and_his_seat_is_free(
    sqlite_app: Server,
) -> None:
    ann, bo, _, _ = await _room_of_two(sqlite_app)
    await _play_out(ann, bo)
    assert (await ann.request(type="rematch"))["type"] == "ok"
    # Bo withdraws... then leaves: the rematch was waiting for him only
    assert (await bo.request(type="rematch", accept=False))["type"] == "ok"
    assert (await bo.request(type="leave"))["type"] == "left"
    told = await ann.wait(lambda m: m["type"] == "rematch")
    assert told["seat"] == 0
    joined = await ann.request(type="resume", room=told["room"], token=told["token"])
    assert joined["type"] == "joined"
    waiting = await ann.wait_state(lambda s: s["room"]["code"] == told["room"])
    room = waiting["room"]
    assert room["status"] == "waiting" and room["settings"]["host"] == 0
    assert [(s["kind"], s["taken"]) for s in room["seats"]] == [
        ("human", True),
        ("human", False),
        ("bot", True),
    ]
    # Bo may take his seat again by the room's link
    back = await bo.request(type="join", room=told["room"], name="Bo")
    assert back["type"] == "joined" and back["seat"] == 1, back
    playing = await ann.wait_state(
        lambda s: s["room"]["code"] == told["room"] and s["room"]["status"] == "playing"
    )
    assert [s["name"] for s in playing["room"]["seats"]][:2] == ["Ann", "Bo"]


async def test_the_host_starts_the_rematch_without_who_closed_his_page(
    sqlite_app: Server,
) -> None:
    ann, bo, _, _ = await _room_of_two(sqlite_app)
    await _play_out(ann, bo)
    await bo.close()
    await ann.wait_state(lambda s: not s["room"]["seats"][1]["connected"])
    assert (await ann.request(type="rematch"))["type"] == "ok"
    told = await ann.wait(lambda m: m["type"] == "rematch")
    assert (await ann.request(type="resume", room=told["room"], token=told["token"]))[
        "type"
    ] == "joined"
    assert (await ann.request(type="start"))["type"] == "ok"
    playing = await ann.wait_state(
        lambda s: s["room"]["code"] == told["room"] and s["room"]["status"] == "playing"
    )
    assert [s["kind"] for s in playing["room"]["seats"]] == ["human", "bot", "bot"]


async def test_spectators_chat_where_the_room_lets_them(sqlite_app: Server) -> None:
    """A casual room lets spectators chat by default, a rated one not (``spectator_chat``);
    the creator may say otherwise. A spectator's line has no seat and cannot be muted by one."""
    ann = await sqlite_app.connect()
    quiet = await ann.request(
        type="create",
        name="Ann",
        seats=[{"kind": "human"}, {"kind": "human"}],
        settings={"spectator_chat": False},
    )
    assert quiet["type"] == "joined", quiet
    state = await ann.wait_state(lambda s: s["room"]["code"] == quiet["room"])
    assert state["room"]["settings"]["spectator_chat"] is False
    eve = await sqlite_app.connect()
    assert (await eve.request(type="watch", room=quiet["room"]))["type"] == "watching"
    refused = await eve.request(type="chat", text="hello")
    assert refused["type"] == "error" and refused["code"] == "no-spectator-chat", refused
    # the default of a casual room: they may; the players hear them, and so does a newcomer
    bo = await sqlite_app.connect()
    open_room = await bo.request(
        type="create", name="Bo", seats=[{"kind": "human"}, {"kind": "human"}]
    )
    shown = await bo.wait_state(lambda s: s["room"]["code"] == open_room["room"])
    assert shown["room"]["settings"]["spectator_chat"] is True
    assert (await eve.request(type="watch", room=open_room["room"]))["type"] == "watching"
    assert (await eve.request(type="chat", text="good luck"))["type"] == "ok"
    line = await bo.wait(lambda m: m["type"] == "chat")
    assert (line["seat"], line["name"], line["spectator"], line["text"]) == (
        None,
        None,
        True,
        "good luck",
    )
    cy = await sqlite_app.connect()
    joined = await cy.request(type="join", room=open_room["room"], name="Cy")
    assert [m["text"] for m in joined["chat"]] == ["good luck"]
