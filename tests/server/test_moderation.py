"""Moderation: the host removes a person from his waiting room (who cannot join it again, also
after a restart), a player reports another (stored for the operator, listed and marked handled
by ``rummikub accounts reports``), and a client mutes the chat of a seat."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from rummikub.cli.main import app as cli
from rummikub.server.storage.models import ReportRow
from rummikub.server.storage.store import Store

from . import helpers
from .cluster_helpers import node, runner
from .inproc import Client, Server, running


def _create(seats: list[str], name: str) -> dict[str, Any]:
    """The create message of a room with ``seats`` (``human`` or a bot kind: beginner bots)."""
    return {
        "type": "create",
        "name": name,
        "rules": "standard",
        "seats": [{"kind": k} if k == "human" else {"kind": k, "level": "beginner"} for k in seats],
        "settings": {"bot_delay": 0},
    }


async def _room(c: Client, seats: list[str], name: str = "Ann") -> str:
    reply = await c.request(**_create(seats, name))
    assert reply["type"] == "joined", reply
    return str(reply["room"])


def _refused(reply: dict[str, Any], code: str) -> None:
    assert reply["type"] == "error" and reply["code"] == code, reply


def _chat_texts(c: Client) -> list[str]:
    return [m["text"] for m in c.seen if m["type"] == "chat"]


# -- remove ----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_host_removes_a_person_who_cannot_join_again(db_url: str, tmp_path: Path) -> None:
    async with running(tmp_path, db_url=db_url) as srv:
        bob_id = uuid.uuid4().hex
        host = await srv.connect()
        bob = await srv.connect(browser_id=bob_id)
        bob_tab = await srv.connect(browser_id=bob_id)
        watcher = await srv.connect()
        code = await _room(host, ["human", "human", "human", "bot"])
        joined = await bob.request(type="join", room=code, name="Bob")
        assert joined["seat"] == 1
        assert (await bob_tab.request(type="resume", room=code, token=joined["token"]))[
            "type"
        ] == "joined"
        assert (await watcher.request(type="watch", room=code))["type"] == "watching"

        # every refusal, and nothing changes
        _refused(await bob.request(type="remove", seat=0), "not-host")
        _refused(await watcher.request(type="remove", seat=1), "spectator")
        _refused(await host.request(type="remove", seat=0), "self")
        _refused(await host.request(type="remove", seat=4), "no-such-seat")
        _refused(await host.request(type="remove", seat=2), "no-person")  # free
        _refused(await host.request(type="remove", seat=3), "no-person")  # a bot
        _refused(await host.request(type="remove", seat=6), "bad-message")  # past the schema
        state = await host.wait_state(lambda s: s["room"]["seats"][1]["taken"])
        assert state["room"]["seats"][1]["name"] == "Bob"

        assert (await host.request(type="remove", seat=1))["type"] == "ok"
        for c in (bob, bob_tab):
            gone = await c.wait(lambda m: m["type"] == "removed")
            assert gone == {"type": "removed", "room": code}
        state = await host.wait_state(lambda s: not s["room"]["seats"][1]["taken"])
        assert state["room"]["seats"][1]["name"] is None
        assert "removed" not in state["room"]["settings"]  # who was removed is not shown
        await watcher.wait_state(lambda s: not s["room"]["seats"][1]["taken"])
        # the removed connections are out of the room: not even spectators
        _refused(await bob.request(type="chat", text="still here?"), "no-room")
        _refused(
            await bob_tab.request(type="resume", room=code, token=joined["token"]), "bad-token"
        )
        again = await bob.request(type="join", room=code, name="Bob")
        _refused(again, "removed")
        assert again["params"] == {"room": code}
        # another person takes the seat
        carl = await srv.connect()
        assert (await carl.request(type="join", room=code, name="Carl", seat=1))["seat"] == 1

    # a restart on the same database remembers who was removed
    async with running(tmp_path, db_url=db_url) as srv:
        bob_back = await srv.connect(browser_id=bob_id)
        _refused(await bob_back.request(type="join", room=code, name="Bob"), "removed")
        dana = await srv.connect()
        assert (await dana.request(type="join", room=code, name="Dana"))["seat"] == 2


@pytest.mark.asyncio
async def test_nobody_is_removed_once_the_game_has_started(sqlite_app: Server) -> None:
    host = await sqlite_app.connect()
    bob = await sqlite_app.connect()
    code = await _room(host, ["human", "human"])
    assert (await bob.request(type="join", room=code, name="Bob"))["type"] == "joined"
    await host.wait_state(lambda s: s["room"]["status"] == "playing")
    _refused(await host.request(type="remove", seat=1), "started")
    assert (await bob.request(type="chat", text="still seated"))["type"] == "ok"


# -- report ----------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_report_is_stored_once_and_the_operator_lists_and_handles_it(
    db_url: str, tmp_path: Path
) -> None:
    async with running(tmp_path, db_url=db_url) as srv:
        host = await srv.connect()
        bob = await srv.connect()
        watcher = await srv.connect()
        code = await _room(host, ["human", "human", "bot"])
        assert (await bob.request(type="join", room=code, name="Bob"))["type"] == "joined"
        await bob.wait_state(lambda s: s["room"]["status"] == "playing")
        assert (await watcher.request(type="watch", room=code))["type"] == "watching"

        done = await bob.request(type="report", seat=0, reason="  rude in the chat  ")
        assert done["type"] == "ok" and isinstance(done["report"], int), done
        _refused(await bob.request(type="report", seat=0, reason="again"), "already-reported")
        _refused(await bob.request(type="report", seat=1, reason="me"), "self")
        _refused(await bob.request(type="report", seat=2, reason="a bot"), "no-person")
        _refused(await bob.request(type="report", seat=3, reason="nobody"), "no-such-seat")
        _refused(await watcher.request(type="report", seat=0, reason="watching"), "spectator")
        _refused(await bob.request(type="report", seat=0, reason="   "), "bad-message")
        _refused(await bob.request(type="report", seat=0, reason="x" * 501), "bad-message")
        _refused(await bob.request(type="report", seat=0, reason="a\nb"), "bad-message")
        # the other player may report too (one report per reporter and reported seat)
        assert (await host.request(type="report", seat=1, reason="x" * 500))["type"] == "ok"

    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(ReportRow).order_by(ReportRow.id)).all()
    finally:
        store.close()
    assert [(r.room_code, r.seat, r.reported_seat, r.reason, r.handled) for r in rows] == [
        (code, 2, 1, "rude in the chat", 0),
        (code, 1, 2, "x" * 500, 0),
    ]
    first = rows[0].id

    runner = CliRunner()
    listed = runner.invoke(cli, ["accounts", "reports", "--db", db_url])
    assert listed.exit_code == 0, listed.output
    assert f"#{first}  room {code}" in listed.output
    assert "by seat 2 (Bob) about seat 1 (Ann)" in listed.output
    assert "reason: rude in the chat" in listed.output
    assert f"replay: /replay/{code}" in listed.output
    assert listed.output.count("replay:") == 2

    marked = runner.invoke(cli, ["accounts", "reports", "--db", db_url, "--done", str(first)])
    assert marked.exit_code == 0 and f"Report {first} is marked handled" in marked.output
    listed = runner.invoke(cli, ["accounts", "reports", "--db", db_url])
    assert listed.output.count("replay:") == 1 and f"#{first} " not in listed.output
    every = runner.invoke(cli, ["accounts", "reports", "--db", db_url, "--all"])
    assert f"#{first} (handled)  room {code}" in every.output
    assert every.output.count("replay:") == 2
    missing = runner.invoke(cli, ["accounts", "reports", "--db", db_url, "--done", "9999"])
    assert missing.exit_code == 1 and "there is no report 9999" in missing.output
    # in the operator's language (RUMMIKUB_LANG, which the global --lang sets; the runner
    # puts the environment back afterwards)
    sv = runner.invoke(
        cli, ["accounts", "reports", "--db", db_url, "--all"], env={"RUMMIKUB_LANG": "sv"}
    )
    assert f"#{first} (hanterad)  rum {code}" in sv.output, sv.output
    assert "skäl: rude in the chat" in sv.output and "från plats 2 (Bob)" in sv.output


# -- mute ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_muted_seat_is_not_heard_by_the_connection_that_muted_it(
    sqlite_app: Server,
) -> None:
    host = await sqlite_app.connect()
    bob = await sqlite_app.connect()
    carl = await sqlite_app.connect()
    code = await _room(host, ["human", "human", "human"])
    host_token = next(m["token"] for m in host.seen if m["type"] == "joined")
    assert (await bob.request(type="join", room=code, name="Bob"))["type"] == "joined"
    assert (await carl.request(type="join", room=code, name="Carl"))["type"] == "joined"

    _refused(await host.request(type="mute", seat=0, on=True), "self")
    _refused(await host.request(type="mute", seat=3, on=True), "no-such-seat")
    _refused(await host.request(type="mute", seat=1, on="yes"), "bad-message")
    muted = await host.request(type="mute", seat=1, on=True)
    assert muted["type"] == "ok" and muted["muted"] == [1]

    assert (await bob.request(type="chat", text="from Bob"))["type"] == "ok"
    assert (await carl.request(type="chat", text="from Carl"))["type"] == "ok"
    await host.wait(lambda m: m["type"] == "chat" and m["text"] == "from Carl")
    assert _chat_texts(host) == ["from Carl"]  # Bob's line, sent before, never came
    assert _chat_texts(carl) == ["from Bob", "from Carl"]

    # the history sent on resuming leaves the muted seat out while it is muted
    back = await host.request(type="resume", room=code, token=host_token)
    assert [e["text"] for e in back["chat"]] == ["from Carl"]
    # another connection of the same player has muted nobody
    other = await sqlite_app.connect()
    elsewhere = await other.request(type="resume", room=code, token=host_token)
    assert [e["text"] for e in elsewhere["chat"]] == ["from Bob", "from Carl"]

    assert (await host.request(type="mute", seat=1, on=False))["muted"] == []
    assert (await bob.request(type="chat", text="Bob again"))["type"] == "ok"
    await host.wait(lambda m: m["type"] == "chat" and m["text"] == "Bob again")
    watched = await sqlite_app.connect()
    # a spectator may mute too (it is his own view of the chat)
    assert (await watched.request(type="watch", room=code))["type"] == "watching"
    assert (await watched.request(type="mute", seat=2, on=True))["muted"] == [2]
    again = await watched.request(type="watch", room=code)
    assert [e["text"] for e in again["chat"]] == ["from Bob", "Bob again"]


# -- in a cluster ----------------------------------------------------------------------------


def test_moderation_reaches_a_room_of_another_node(
    pg_url: str, redis_url: str, clients: list[helpers.Client]
) -> None:
    """Clients of another node than the room's: their remove, report and mute are forwarded to
    the room's node, and its answers (and the ``removed`` notice) come back to them."""
    run = uuid.uuid4().hex[:6]
    nodes = [node(pg_url, redis_url, f"m{i}-{run}") for i in range(2)]
    try:
        for n in nodes:
            n.start()
        host = helpers.Client(nodes[0].ws_url)
        bob = helpers.Client(nodes[1].ws_url)
        carl = helpers.Client(nodes[1].ws_url)
        clients.extend([host, bob, carl])
        code = _room_sync(host, ["human", "human", "human", "human"])
        assert bob.request(type="join", room=code, name="Bob")["seat"] == 1
        assert carl.request(type="join", room=code, name="Carl")["seat"] == 2
        assert runner(nodes[1], code) == f"m0-{run}"  # the room runs on the host's node

        _refused(bob.request(type="remove", seat=2), "not-host")
        assert carl.request(type="mute", seat=0, on=True)["muted"] == [0]
        assert carl.request(type="report", seat=0, reason="rude")["type"] == "ok"
        _refused(carl.request(type="report", seat=0, reason="rude"), "already-reported")
        assert host.request(type="chat", text="from the host")["type"] == "ok"
        assert bob.request(type="chat", text="from Bob")["type"] == "ok"
        carl.wait(lambda m: m["type"] == "chat" and m["text"] == "from Bob")
        assert _chat_texts_of(carl) == ["from Bob"]

        assert host.request(type="remove", seat=1)["type"] == "ok"
        assert bob.wait(lambda m: m["type"] == "removed") == {"type": "removed", "room": code}
        _refused(bob.request(type="join", room=code, name="Bob"), "removed")
        host.wait_state(lambda s: not s["room"]["seats"][1]["taken"])
    finally:
        for n in nodes:
            n.stop()


def _room_sync(c: helpers.Client, seats: list[str], name: str = "Ann") -> str:
    reply = c.request(**_create(seats, name))
    assert reply["type"] == "joined", reply
    return str(reply["room"])


def _chat_texts_of(c: helpers.Client) -> list[str]:
    return [m["text"] for m in c.seen if m["type"] == "chat"]
