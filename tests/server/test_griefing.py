"""Griefing: taking every seat of a room, holding a seat and never coming, and the creator
leaving a room that waits for players."""

from __future__ import annotations

from .helpers import Client, ServerProcess


def _room(c: Client, seats: int, **settings: object) -> str:
    reply = c.request(
        type="create",
        name="Host",
        rules="standard",
        seats=[{"kind": "human"}] * seats,
        settings={"bot_delay": 0, **settings},
    )
    assert reply["type"] == "joined", reply
    return str(reply["room"])


def test_one_connection_takes_one_seat(sqlite_server: ServerProcess, clients: list[Client]) -> None:
    host = Client(sqlite_server.ws_url)
    grabber = Client(sqlite_server.ws_url)
    friend = Client(sqlite_server.ws_url)
    clients.extend([host, grabber, friend])
    code = _room(host, 4)
    first = grabber.request(type="join", room=code, name="Grab")
    assert first["type"] == "joined" and first["seat"] == 1
    for _ in range(2):  # the attack: join again and again on the same connection
        again = grabber.request(type="join", room=code, name="Grab")
        assert again["type"] == "error" and again["code"] == "already-seated", again
    state = host.wait_state(lambda s: sum(x["taken"] for x in s["room"]["seats"]) == 2)
    assert [s["taken"] for s in state["room"]["seats"]] == [True, True, False, False]
    # the invited friend still gets a seat
    assert friend.request(type="join", room=code, name="Friend")["seat"] == 2


def test_one_seat_per_person(sqlite_server: ServerProcess, clients: list[Client]) -> None:
    """A second connection of the same browser, or of the same address when the client says
    nothing of itself, gets no second seat."""
    host = Client(sqlite_server.ws_url)
    clients.append(host)
    code = _room(host, 4)
    tab1 = Client(sqlite_server.ws_url, browser_id="b4f1c1f0e2a94b7c")
    tab2 = Client(sqlite_server.ws_url, browser_id="b4f1c1f0e2a94b7c")
    script1 = Client(sqlite_server.ws_url, browser_id=None)
    script2 = Client(sqlite_server.ws_url, browser_id=None)
    clients.extend([tab1, tab2, script1, script2])
    assert tab1.request(type="join", room=code, name="Tab")["type"] == "joined"
    refused = tab2.request(type="join", room=code, name="Tab")
    assert refused["type"] == "error" and refused["code"] == "already-seated"
    assert script1.request(type="join", room=code, name="Bot")["type"] == "joined"
    refused = script2.request(type="join", room=code, name="Bot2")
    assert refused["type"] == "error" and refused["code"] == "already-seated"
    # watching is always allowed
    assert tab2.request(type="watch", room=code)["type"] == "watching"


def test_a_seat_held_by_nobody_follows_the_grace_rule_from_the_start(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    host = Client(sqlite_server.ws_url)
    ghost = Client(sqlite_server.ws_url)
    clients.extend([host, ghost])
    code = _room(host, 3, grace_seconds=1)
    assert ghost.request(type="join", room=code, name="Ghost")["seat"] == 1
    ghost.close()  # gone before the start, without leaving: the seat stays his
    host.wait_state(lambda s: not s["room"]["seats"][1]["connected"])
    assert host.request(type="start")["type"] == "ok"
    state = host.wait_state(
        lambda s: s["game"] is not None and s["room"]["seats"][1]["standin"], timeout=20
    )
    # a stand-in bot now plays the empty seat: the game goes past its turns
    seats = state["room"]["seats"]
    assert seats[1]["taken"] and not seats[1]["connected"] and seats[1]["standin"]
    assert seats[2]["kind"] == "bot"  # the free seat was given to a bot at the start


def test_the_host_passes_on_when_the_creator_leaves(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    host = Client(sqlite_server.ws_url)
    second = Client(sqlite_server.ws_url)
    newcomer = Client(sqlite_server.ws_url)
    clients.extend([host, second, newcomer])
    code = _room(host, 3)
    assert second.request(type="join", room=code, name="Second")["seat"] == 1
    assert host.request(type="leave")["type"] == "left"
    state = second.wait_state(lambda s: s["room"]["settings"]["host"] == 1)
    assert not state["room"]["seats"][0]["taken"]
    # somebody new takes the creator's old seat, but does not become the host
    assert newcomer.request(type="join", room=code, name="New")["seat"] == 0
    refused = newcomer.request(type="start")
    assert refused["type"] == "error" and refused["code"] == "not-host"
    assert second.request(type="start")["type"] == "ok"
    second.wait_state(lambda s: s["game"] is not None)


def test_the_room_closes_when_its_last_person_leaves(
    sqlite_server: ServerProcess, clients: list[Client]
) -> None:
    host = Client(sqlite_server.ws_url)
    clients.append(host)
    code = _room(host, 2)
    assert host.request(type="leave")["type"] == "left"
    other = Client(sqlite_server.ws_url)
    clients.append(other)
    refused = other.request(type="join", room=code, name="Late")
    assert refused["type"] == "error" and refused["code"] == "closed", refused
