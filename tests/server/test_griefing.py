"""Griefing: taking every seat of a room, holding a seat and never coming, and the creator
leaving a room that waits for players, or closing his tab and never coming back."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummikub.server.runtime.clock import FakeClock

from .inproc import Client, Server, running


async def _room(c: Client, seats: int, **settings: object) -> str:
    reply = await c.request(
        type="create",
        name="Host",
        rules="standard",
        seats=[{"kind": "human"}] * seats,
        settings={"bot_delay": 0, **settings},
    )
    assert reply["type"] == "joined", reply
    return str(reply["room"])


@pytest.mark.asyncio
async def test_one_connection_takes_one_seat(sqlite_app: Server) -> None:
    host = await sqlite_app.connect()
    grabber = await sqlite_app.connect()
    friend = await sqlite_app.connect()
    code = await _room(host, 4)
    first = await grabber.request(type="join", room=code, name="Grab")
    assert first["type"] == "joined" and first["seat"] == 1
    for _ in range(2):  # the attack: join again and again on the same connection
        again = await grabber.request(type="join", room=code, name="Grab")
        assert again["type"] == "error" and again["code"] == "already-seated", again
    state = await host.wait_state(lambda s: sum(x["taken"] for x in s["room"]["seats"]) == 2)
    assert [s["taken"] for s in state["room"]["seats"]] == [True, True, False, False]
    # the invited friend still gets a seat
    assert (await friend.request(type="join", room=code, name="Friend"))["seat"] == 2


@pytest.mark.asyncio
async def test_one_seat_per_person(sqlite_app: Server) -> None:
    """A second connection of the same browser, or of the same address when the client says
    nothing of itself, gets no second seat."""
    host = await sqlite_app.connect()
    code = await _room(host, 4)
    tab1 = await sqlite_app.connect(browser_id="b4f1c1f0e2a94b7c")
    tab2 = await sqlite_app.connect(browser_id="b4f1c1f0e2a94b7c")
    script1 = await sqlite_app.connect(browser_id=None)
    script2 = await sqlite_app.connect(browser_id=None)
    assert (await tab1.request(type="join", room=code, name="Tab"))["type"] == "joined"
    refused = await tab2.request(type="join", room=code, name="Tab")
    assert refused["type"] == "error" and refused["code"] == "already-seated"
    assert (await script1.request(type="join", room=code, name="Bot"))["type"] == "joined"
    refused = await script2.request(type="join", room=code, name="Bot2")
    assert refused["type"] == "error" and refused["code"] == "already-seated"
    # watching is always allowed
    assert (await tab2.request(type="watch", room=code))["type"] == "watching"


@pytest.mark.asyncio
async def test_a_seat_held_by_nobody_follows_the_grace_rule_from_the_start(
    sqlite_app: Server,
) -> None:
    host = await sqlite_app.connect()
    ghost = await sqlite_app.connect()
    code = await _room(host, 3, grace_seconds=1)
    assert (await ghost.request(type="join", room=code, name="Ghost"))["seat"] == 1
    await ghost.close()  # gone before the start, without leaving: the seat stays his
    await host.wait_state(lambda s: not s["room"]["seats"][1]["connected"])
    assert (await host.request(type="start"))["type"] == "ok"
    started = await host.wait_state(lambda s: s["game"] is not None)
    assert not started["room"]["seats"][1]["standin"]  # his grace period runs...
    await sqlite_app.advance(1)  # ...for its second
    state = await host.wait_state(lambda s: s["room"]["seats"][1]["standin"])
    # a stand-in bot now plays the empty seat: the game goes past its turns
    seats = state["room"]["seats"]
    assert seats[1]["taken"] and not seats[1]["connected"] and seats[1]["standin"]
    assert seats[2]["kind"] == "bot"  # the free seat was given to a bot at the start


@pytest.mark.asyncio
async def test_the_host_passes_on_when_the_creator_leaves(sqlite_app: Server) -> None:
    host = await sqlite_app.connect()
    second = await sqlite_app.connect()
    newcomer = await sqlite_app.connect()
    code = await _room(host, 3)
    assert (await second.request(type="join", room=code, name="Second"))["seat"] == 1
    assert (await host.request(type="leave"))["type"] == "left"
    state = await second.wait_state(lambda s: s["room"]["settings"]["host"] == 1)
    assert not state["room"]["seats"][0]["taken"]
    # somebody new takes the creator's old seat, but does not become the host
    assert (await newcomer.request(type="join", room=code, name="New"))["seat"] == 0
    refused = await newcomer.request(type="start")
    assert refused["type"] == "error" and refused["code"] == "not-host"
    assert (await second.request(type="start"))["type"] == "ok"
    await second.wait_state(lambda s: s["game"] is not None)


@pytest.mark.asyncio
async def test_the_room_closes_when_its_last_person_leaves(sqlite_app: Server) -> None:
    host = await sqlite_app.connect()
    code = await _room(host, 2)
    assert (await host.request(type="leave"))["type"] == "left"
    other = await sqlite_app.connect()
    refused = await other.request(type="join", room=code, name="Late")
    assert refused["type"] == "error" and refused["code"] == "closed", refused


async def _listed(server: Server) -> list[str]:
    status, lobby = await server.get("/api/rooms")
    assert status == 200
    return [r["code"] for r in lobby["waiting"]]


@pytest.mark.asyncio
async def test_a_host_who_closed_his_tab_passes_the_host_role_to_who_is_there(
    sqlite_app: Server,
) -> None:
    """The creator of a room for four closes his tab (no ``leave``); a friend who joined waits
    only the room's grace period, then he is the host and may start the game."""
    host = await sqlite_app.connect()
    friend = await sqlite_app.connect()
    code = await _room(host, 4, grace_seconds=30)
    assert (await friend.request(type="join", room=code, name="Friend"))["seat"] == 1
    await host.close()
    state = await friend.wait_state(lambda s: not s["room"]["seats"][0]["connected"])
    assert state["room"]["settings"]["host"] == 0  # a reload is not leaving...
    assert code in await _listed(sqlite_app)
    await sqlite_app.advance(29)
    assert (await friend.request(type="start"))["code"] == "not-host"
    await sqlite_app.advance(1)  # ...but the grace period is over: he is gone
    state = await friend.wait_state(lambda s: s["room"]["settings"]["host"] == 1)
    assert state["room"]["seats"][0]["taken"]  # his seat stays his, should he come back
    assert code in await _listed(sqlite_app)  # the room has a host again
    assert (await friend.request(type="start"))["type"] == "ok"
    await friend.wait_state(lambda s: s["game"] is not None)


@pytest.mark.asyncio
async def test_the_host_role_passes_on_when_the_wall_clock_was_set_back(
    sqlite_app: Server,
) -> None:
    """The grace period is counted on the wall clock (it outlives a restart), its timer on the
    monotonic one: a wall clock set back while the host is away makes the timer come early,
    and the room waits the rest of the grace period instead of forever."""
    host = await sqlite_app.connect()
    friend = await sqlite_app.connect()
    code = await _room(host, 4, grace_seconds=30)
    assert (await friend.request(type="join", room=code, name="Friend"))["seat"] == 1
    await host.close()
    await friend.wait_state(lambda s: not s["room"]["seats"][0]["connected"])
    sqlite_app.clock.set_wall_back(5)
    await sqlite_app.advance(30)  # the timer is due; by the wall clock 25 s have passed
    assert (await friend.request(type="start"))["code"] == "not-host"
    await sqlite_app.advance(5)
    await friend.wait_state(lambda s: s["room"]["settings"]["host"] == 1)
    assert code in await _listed(sqlite_app)
    assert (await friend.request(type="start"))["type"] == "ok"


@pytest.mark.asyncio
async def test_a_room_whose_host_is_gone_leaves_the_lobby_until_somebody_takes_over(
    sqlite_app: Server,
) -> None:
    host = await sqlite_app.connect()
    code = await _room(host, 4, grace_seconds=30)
    assert code in await _listed(sqlite_app)
    await host.close()
    await sqlite_app.advance(30)
    assert code not in await _listed(sqlite_app)  # nobody is offered a room without a host
    # who comes by the invite link is the host at once: he never waits for a start
    late = await sqlite_app.connect()
    joined = await late.request(type="join", room=code, name="Late")
    assert joined["seat"] == 1
    await late.wait_state(lambda s: s["room"]["settings"]["host"] == 1)
    assert code in await _listed(sqlite_app)
    assert (await late.request(type="start"))["type"] == "ok"
    await late.wait_state(lambda s: s["game"] is not None)


@pytest.mark.asyncio
async def test_a_host_back_within_his_grace_period_stays_host(sqlite_app: Server) -> None:
    host = await sqlite_app.connect()
    friend = await sqlite_app.connect()
    joined = await host.request(
        type="create",
        name="Host",
        rules="standard",
        seats=[{"kind": "human"}] * 3,
        settings={"bot_delay": 0, "grace_seconds": 30},
    )
    code = joined["room"]
    assert (await friend.request(type="join", room=code, name="Friend"))["seat"] == 1
    await host.close()
    await friend.wait_state(lambda s: not s["room"]["seats"][0]["connected"])
    await sqlite_app.advance(20)
    back = await sqlite_app.connect()
    resumed = await back.request(type="resume", room=code, token=joined["token"])
    assert resumed["type"] == "joined" and resumed["seat"] == 0
    await sqlite_app.advance(60)
    state = await friend.wait_state(lambda s: s["room"]["seats"][0]["connected"])
    assert state["room"]["settings"]["host"] == 0
    assert code in await _listed(sqlite_app)
    assert (await back.request(type="start"))["type"] == "ok"


@pytest.mark.asyncio
async def test_after_a_restart_a_host_who_does_not_come_back_passes_the_role_on(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with running(tmp_path, clock=clock) as srv:
        host = await srv.connect()
        friend = await srv.connect()
        code = await _room(host, 3, grace_seconds=30)
        joined = await friend.request(type="join", room=code, name="Friend")
        assert joined["seat"] == 1
    async with running(tmp_path, clock=clock) as srv:  # the server started again
        friend = await srv.connect()
        resumed = await friend.request(type="resume", room=code, token=joined["token"])
        assert resumed["type"] == "joined"
        await srv.advance(30)
        await friend.wait_state(lambda s: s["room"]["settings"]["host"] == 1)
        assert (await friend.request(type="start"))["type"] == "ok"
