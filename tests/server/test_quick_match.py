"""Quick match over the protocol: players of similar rating meet at a rated table, bots fill it
for a player who allows them once he has waited, leaving the queue (by asking, or by closing the
connection), and the queue of a cluster shared by its nodes through the broker."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from .accounts_helpers import player, sign_up
from .cluster_helpers import PATIENCE, node
from .helpers import Client, ServerProcess


@pytest.fixture
def srv(sqlite_url: str) -> Iterator[ServerProcess]:
    s = ServerProcess(sqlite_url, args=["--quick-bots-after", "1"]).start()
    try:
        yield s
    finally:
        s.stop()


def matched(c: Client, timeout: float = 30) -> dict[str, Any]:
    return c.wait(lambda m: m["type"] == "matched", timeout)


def take_seat(c: Client, news: dict[str, Any]) -> dict[str, Any]:
    """Take the seat a quick match gave (as the web client does) and return the first state."""
    reply = c.request(type="resume", room=news["room"], token=news["token"])
    assert reply["type"] == "joined" and reply["seat"] == news["seat"], reply
    return c.wait_state(lambda s: s["game"] is not None)


def test_two_players_meet_at_a_rated_table(srv: ServerProcess) -> None:
    ann, bob = player(srv, sign_up(srv, "Ann")), player(srv, sign_up(srv, "Bob"))
    try:
        queued = ann.request(type="queue", players=[2], bots=False)
        assert queued["type"] == "queued" and queued["players"] == [2]
        assert queued["rating"] == 1000 and queued["bots_after"] is None  # a new player's rating
        assert bob.request(type="queue", players=[2, 3], bots=False)["type"] == "queued"
        news = {c: matched(c) for c in (ann, bob)}
        assert news[ann]["room"] == news[bob]["room"]
        assert {news[ann]["seat"], news[bob]["seat"]} == {0, 1}
        state = take_seat(ann, news[ann])
        take_seat(bob, news[bob])
        room = state["room"]
        assert room["settings"]["rated"] is True and room["settings"]["hints"] is False
        assert room["rules"]["preset"] == "standard"
        assert sorted(s["name"] for s in room["seats"]) == ["Ann", "Bob"]
        assert all(s["account"] for s in room["seats"])
        refused = ann.request(type="hint")
        assert refused["type"] == "error" and refused["code"] in ("no-hints", "not-your-turn")
    finally:
        ann.close()
        bob.close()


def test_bots_fill_the_table_of_a_player_who_allows_them(srv: ServerProcess) -> None:
    ann = player(srv, sign_up(srv, "Ann"))
    try:
        queued = ann.request(type="queue", players=[2], bots=True)
        assert queued["bots_after"] == 1
        state = take_seat(ann, matched(ann))
        seats = state["room"]["seats"]
        # a new player (skill 25) meets the bot whose fixed skill is nearest: greedy, 25
        assert [s["kind"] for s in seats] == ["human", "bot"] and seats[1]["bot"] == "greedy"
    finally:
        ann.close()


def test_leaving_the_queue(srv: ServerProcess) -> None:
    ann, bob = player(srv, sign_up(srv, "Ann")), player(srv, sign_up(srv, "Bob"))
    cid, guest = player(srv, sign_up(srv, "Cid")), player(srv, None)
    try:
        assert guest.request(type="queue", players=[2])["code"] == "account-needed"
        assert ann.request(type="unqueue")["code"] == "not-queued"
        assert ann.request(type="queue", players=[2], bots=False)["type"] == "queued"
        left = ann.request(type="unqueue")
        assert left["type"] == "unqueued" and left["reason"] == "left"
        # Bob waits alone: Ann left, and nobody else is there
        assert bob.request(type="queue", players=[2], bots=False)["type"] == "queued"
        with pytest.raises(TimeoutError):
            matched(bob, timeout=3)
        assert cid.request(type="queue", players=[2], bots=False)["type"] == "queued"
        news = matched(bob)
        assert news["room"] == matched(cid)["room"]
        assert all(m["type"] != "matched" for m in ann.seen)
    finally:
        for c in (ann, bob, cid, guest):
            c.close()


def test_a_closed_connection_leaves_the_queue_and_a_second_page_replaces_the_first(
    srv: ServerProcess,
) -> None:
    ann_session = sign_up(srv, "Ann")
    first, second = player(srv, ann_session), player(srv, ann_session)
    bob = player(srv, sign_up(srv, "Bob"))
    try:
        assert first.request(type="queue", players=[2], bots=False)["type"] == "queued"
        assert second.request(type="queue", players=[2], bots=False)["type"] == "queued"
        gone = first.wait(lambda m: m["type"] == "unqueued")
        assert gone["reason"] == "replaced"
        second.close()  # Ann's waiting page goes away: she is out of the queue
        assert bob.request(type="queue", players=[2], bots=False)["type"] == "queued"
        with pytest.raises(TimeoutError):
            matched(bob, timeout=3)
    finally:
        for c in (first, bob):
            c.close()


def test_players_on_two_nodes_of_a_cluster_meet(pg_url: str, redis_url: str) -> None:
    run = uuid.uuid4().hex[:6]
    nodes = [node(pg_url, redis_url, f"q{i}-{run}") for i in range(2)]
    clients: list[Client] = []
    try:
        for n in nodes:
            n.start()
        ann = player(nodes[0], sign_up(nodes[0], "Ann"))
        bob = player(nodes[1], sign_up(nodes[1], "Bob"))
        clients += [ann, bob]
        assert ann.request(type="queue", players=[2], bots=False)["type"] == "queued"
        assert bob.request(type="queue", players=[2], bots=False)["type"] == "queued"
        news = {c: matched(c, PATIENCE) for c in (ann, bob)}
        assert news[ann]["room"] == news[bob]["room"]
        # each takes his seat on his own node: one of them is forwarded to the room's node
        states = [take_seat(c, news[c]) for c in (ann, bob)]
        assert {s["you"] for s in states} == {0, 1}
        assert sorted(s["name"] for s in states[0]["room"]["seats"]) == ["Ann", "Bob"]
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                c.close()
        for n in nodes:
            n.stop()
