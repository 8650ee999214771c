"""A cluster of nodes on a real PostgreSQL and a real Redis: clients on different nodes play one
game, the room's node dies (SIGKILL) and another takes the game over; a node cut off from its
broker stops running its rooms (no split brain) and its writes are refused (fencing)."""

from __future__ import annotations

import json
import signal
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from rummikub.core import load_record, verify

from .cluster_helpers import PATIENCE, drain, eventually, node, private_redis, rooms_run, runner
from .helpers import (
    Client,
    ServerProcess,
    create_vs_bots,
    draw_and_wait,
    draw_until_round_over,
    game,
)


def _names(n: int) -> list[str]:
    run = uuid.uuid4().hex[:6]
    return [f"n{i}-{run}" for i in range(n)]


def _play(players: dict[int, Client], spectator: Client, moves: int | None) -> tuple[int, Any]:
    """Let the players draw (or pass) in turn ``moves`` times (``None``: until the round is
    over); returns the moves made and the last state a player saw."""
    first = next(iter(players.values()))
    state = first.wait_state(lambda s: s["game"] is not None)
    current = game(state)["current"]
    made = 0
    while moves is None or made < moves:
        c = players[current]
        state = c.wait_state(
            lambda s: (
                s["game"] is not None
                and (s["game"]["round_over"] or s["game"]["current"] == s["you"])
            ),
            PATIENCE,
        )
        if game(state)["round_over"]:
            break
        state = draw_and_wait(c, game(state))
        made += 1
        current = game(state)["current"]
        drain(spectator)
    return made, state


def _room_for_two(ann: Client) -> dict[str, Any]:
    """Ann's new room for two people (her ``joined`` reply)."""
    return ann.request(
        type="create",
        name="Ann",
        rules={"preset": "standard"},
        seats=[{"kind": "human"}, {"kind": "human"}],
        # no stand-in may move for a player while he reconnects, however slow the machine
        settings={"grace_seconds": 3600},
    )


def _turn(state: dict[str, Any]) -> tuple[int, int]:
    g = game(state)
    return g["round"], g["turn"]


SHARED = ("table", "rack_sizes", "pool_size", "turn", "current", "log")


def _draw_turns(c: Client, turns: int) -> None:
    """The player draws on each of his next ``turns`` turns."""
    for _ in range(turns):
        mine = c.wait_state(lambda s: s["game"] is not None and c.my_turn())
        draw_and_wait(c, game(mine))


def _bot_game(srv: ServerProcess, clients: list[Client], turns: int) -> tuple[Client, Any]:
    """Ann's game against a bot on ``srv``, ``turns`` of her turns played; her client and her
    ``joined`` reply."""
    ann = Client(srv.ws_url)
    clients.append(ann)
    joined = create_vs_bots(ann, bots=1)
    _draw_turns(ann, turns)
    return ann, joined


def _resume_on(srv: ServerProcess, clients: list[Client], joined: Any) -> Client:
    """Ann takes her seat again on ``srv`` (after her room moved there)."""
    ann = Client(srv.ws_url)
    clients.append(ann)
    back = ann.request(type="resume", room=joined["room"], token=joined["token"], timeout=PATIENCE)
    assert back["type"] == "joined", back
    return ann


def _finish_whole(c: Client, srv: ServerProcess, code: str) -> None:
    """Play the round to its end and check that ``srv`` serves a whole, valid record."""
    final = draw_until_round_over(c, PATIENCE)
    assert game(final)["results"]
    status, record = srv.get(f"/api/rooms/{code}/record")
    assert status == 200, record
    verify(load_record(record))


def test_a_game_goes_on_when_its_node_is_killed(
    pg_url: str, redis_url: str, clients: list[Client]
) -> None:
    names = _names(3)
    nodes = [node(pg_url, redis_url, name) for name in names]
    try:
        for n in nodes:
            n.start()
        ann = Client(nodes[0].ws_url)
        clients.append(ann)
        joined = _room_for_two(ann)
        assert joined["type"] == "joined", joined
        code = joined["room"]
        bob = Client(nodes[1].ws_url)  # a player of another node: forwarded through Redis
        clients.append(bob)
        bob_joined = bob.request(type="join", room=code, name="Bob")
        assert bob_joined["type"] == "joined" and bob_joined["seat"] == 1, bob_joined
        eve = Client(nodes[2].ws_url)  # a spectator on the third node
        clients.append(eve)
        assert eve.request(type="watch", room=code)["type"] == "watching"
        assert runner(nodes[2], code) == names[0]
        status, health = nodes[1].get("/api/health")
        assert status == 200 and health["nodes"] == {names[0]: 1}
        status, lobby = nodes[2].get("/api/rooms")  # every node's lobby lists every room
        assert [r["code"] for r in lobby["live"]] == [code]

        made, last = _play({0: ann, 1: bob}, eve, 8)
        assert made == 8
        # what every client saw before the node died
        seen = eve.wait_state(lambda s: _turn(s) == _turn(last))
        ann_rack = game(ann.wait_state(lambda s: _turn(s) == _turn(last)))["rack"]
        assert "rack" not in game(seen) or game(seen)["rack"] is None
        nodes[0].kill()

        # everybody reconnects to another node and takes his seat again
        ann2 = Client(nodes[1].ws_url)
        bob2 = Client(nodes[2].ws_url)
        eve2 = Client(nodes[2].ws_url)
        clients.extend([ann2, bob2, eve2])
        for c, token in ((ann2, joined["token"]), (bob2, bob_joined["token"])):
            back = c.request(type="resume", room=code, token=token, timeout=PATIENCE)
            assert back["type"] == "joined", back
        assert eve2.request(type="watch", room=code, timeout=PATIENCE)["type"] == "watching"
        took = runner(nodes[1], code)
        assert took in names[1:], took
        assert runner(nodes[2], code) == took
        status, health = nodes[2].get("/api/health")
        assert health["nodes"] == {took: 1}

        again = eve2.wait_state(lambda s: s["game"] is not None)
        for key in SHARED:  # no move anybody saw is lost
            assert game(again)[key] == game(seen)[key], key
        assert game(ann2.wait_state(lambda s: s["game"] is not None))["rack"] == ann_rack

        more, final = _play({0: ann2, 1: bob2}, eve2, None)
        assert game(final)["round_over"]
        end = eve2.wait_state(lambda s: s["room"]["status"] == "finished", PATIENCE)
        assert game(end)["results"]
        status, record = nodes[2].get(f"/api/rooms/{code}/record")
        assert status == 200, record
        verify(load_record(record))
        turns = record["rounds"][0]["turns"]
        assert len(turns) == made + more  # every move, once
        with urllib.request.urlopen(nodes[2].base + "/metrics", timeout=10) as r:
            metrics = r.read().decode()
        assert "rummikub_broker_published_total" in metrics
        assert "rummikub_takeovers_total" in metrics
    finally:
        for n in nodes:
            n.stop()


def test_a_node_cut_off_from_its_broker_stops_and_another_takes_over(
    pg_url: str, redis_url: str, redis_server: str, clients: list[Client]
) -> None:
    names = _names(2)
    with private_redis(redis_server) as (own_redis, redis_proc):
        cut = node(pg_url, own_redis, names[0])
        other = node(pg_url, redis_url, names[1])
        try:
            cut.start()
            other.start()
            _, joined = _bot_game(cut, clients, 3)
            code = joined["room"]
            assert runner(other, code) == names[0]
            assert cut.get("/api/ready")[0] == 200

            redis_proc.kill()  # the node can no longer reach its broker
            eventually(lambda: rooms_run(cut) == 0, "the cut-off node to drop its room")
            assert cut.get("/api/ready")[0] == 503
            eventually(lambda: runner(other, code) == names[1], "another node to take over")
            _, health = cut.get("/api/health")
            assert health["cluster"]["drops"] >= 1 and not health["cluster"]["healthy"]

            _finish_whole(_resume_on(other, clients, joined), other, code)
        finally:
            cut.stop()
            other.stop()


def test_a_frozen_node_wakes_up_to_find_its_room_taken_and_stops(
    pg_url: str, redis_url: str, clients: list[Client]
) -> None:
    """SIGSTOP the room's node (as a long pause or a cut network would): another node takes
    the room over; when the first wakes up it drops the room instead of playing on (no split
    brain), and the game's record stays whole."""
    names = _names(2)
    first, second = (node(pg_url, redis_url, name) for name in names)
    try:
        first.start()
        second.start()
        _, joined = _bot_game(first, clients, 2)
        code = joined["room"]
        assert first.proc is not None
        first.proc.send_signal(signal.SIGSTOP)
        try:
            eventually(lambda: runner(second, code) == names[1], "the second node to take over")
            ann2 = _resume_on(second, clients, joined)
            _draw_turns(ann2, 1)
        finally:
            first.proc.send_signal(signal.SIGCONT)
        eventually(lambda: rooms_run(first) == 0, "the woken node to drop the room")
        _, health = first.get("/api/health")
        assert health["cluster"]["drops"] >= 1
        assert runner(first, code) == names[1]
        _finish_whole(ann2, second, code)
    finally:
        first.stop()
        second.stop()


def _metric(srv: ServerProcess, name: str) -> float:
    """The value of the metric ``name`` (one without labels) on ``srv``'s ``/metrics``."""
    with urllib.request.urlopen(srv.base + "/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


def test_a_client_of_a_stalled_node_is_closed_to_resume_not_left_waiting(
    pg_url: str, redis_url: str, clients: list[Client]
) -> None:
    """A node frozen long enough to count as dead (SIGSTOP past the 5 s its life lasts) has its
    clients in other nodes' rooms let go by those rooms' nodes; when it wakes up its clients
    are closed (1012), not left waiting for messages that no longer come, and they resume on
    it and play on."""
    names = _names(2)
    host, stalled = (node(pg_url, redis_url, name) for name in names)
    try:
        host.start()
        stalled.start()
        ann = Client(host.ws_url)
        clients.append(ann)
        joined = _room_for_two(ann)
        code = joined["room"]
        bob = Client(stalled.ws_url)  # forwarded to the room's node through Redis
        clients.append(bob)
        bob_joined = bob.request(type="join", room=code, name="Bob")
        assert bob_joined["type"] == "joined" and bob_joined["seat"] == 1, bob_joined
        remote = "rummikub_connections_remote"
        eventually(lambda: _metric(host, remote) == 1, "the room's node to serve Bob")
        assert stalled.proc is not None
        stalled.proc.send_signal(signal.SIGSTOP)
        try:
            eventually(lambda: _metric(host, remote) == 0, "the room's node to let Bob go")
        finally:
            stalled.proc.send_signal(signal.SIGCONT)
        with pytest.raises(ConnectionClosed) as closed:
            bob.wait(lambda m: False, PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        bob2 = Client(stalled.ws_url)
        eve = Client(host.ws_url)
        clients.extend([bob2, eve])
        back = bob2.request(type="resume", room=code, token=bob_joined["token"], timeout=PATIENCE)
        assert back["type"] == "joined" and back["seat"] == 1, back
        assert eve.request(type="watch", room=code)["type"] == "watching"
        made, _ = _play({0: ann, 1: bob2}, eve, 2)
        assert made == 2
    finally:
        host.stop()
        stalled.stop()


def test_a_damaged_game_is_kept_by_one_node_and_reported_to_every_client(
    pg_url: str, redis_url: str, clients: list[Client]
) -> None:
    """A game whose log cannot be replayed is taken by one node, kept there and reported (as a
    server alone does), its lease held: no node tries it over and over."""
    import psycopg

    names = _names(2)
    first, second = (node(pg_url, redis_url, name) for name in names)
    try:
        first.start()
        c, joined = _bot_game(first, clients, 4)
        code = joined["room"]
        c.close()
        first.stop(keep_log=True)  # a clean stop gives the lease up
        with psycopg.connect(pg_url, autocommit=True) as conn:  # a turn nobody could play
            bad = {"action": {"action": "play", "tiles": ["R1"], "table": [["R1", "R2", "R3"]]}}
            conn.execute(
                "UPDATE events SET data = %s WHERE room_code = %s AND seq = ("
                "SELECT seq FROM events WHERE room_code = %s AND kind = 'turn' "
                "ORDER BY seq OFFSET 3 LIMIT 1)",
                (json.dumps(bad), code, code),
            )
        second.start()

        def reported() -> bool:
            return [d["code"] for d in second.get("/api/health")[1]["damaged"]] == [code]

        eventually(reported, "the second node to find the game damaged")
        first.start()
        again = Client(first.ws_url)  # a client of the other node hears why it cannot resume
        clients.append(again)
        reply = again.request(type="resume", room=code, token=joined["token"], timeout=PATIENCE)
        assert reply["type"] == "error" and reply["code"] == "damaged", reply
        assert first.get("/api/health")[1]["damaged"] == []
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SELECT node, epoch FROM leases WHERE code = %s", (code,)).fetchone()
        assert row == (names[1], 2)  # taken once, and kept
    finally:
        first.stop()
        second.stop()


def test_a_player_of_another_node_is_let_go_when_he_leaves_or_his_node_dies(
    pg_url: str, redis_url: str, clients: list[Client]
) -> None:
    """The room's node sees a forwarded player go as it sees its own: when his socket closes,
    and when the node he is connected to dies (its liveness in Redis lapses)."""
    names = _names(3)
    nodes = [node(pg_url, redis_url, name) for name in names]
    try:
        for n in nodes:
            n.start()
        ann = Client(nodes[0].ws_url)
        clients.append(ann)
        joined = _room_for_two(ann)
        code = joined["room"]

        def bob_connected(connected: bool) -> Callable[[dict[str, Any]], bool]:
            return lambda s: s["room"]["seats"][1]["connected"] is connected

        bob = Client(nodes[1].ws_url)
        bob_joined = bob.request(type="join", room=code, name="Bob")
        assert bob_joined["type"] == "joined", bob_joined
        ann.wait_state(bob_connected(True))
        bob.close()  # his socket closes: the room's node hears it through Redis
        ann.wait_state(bob_connected(False), PATIENCE)

        bob2 = Client(nodes[2].ws_url)
        back = bob2.request(type="resume", room=code, token=bob_joined["token"])
        assert back["type"] == "joined", back
        ann.wait_state(bob_connected(True))
        nodes[2].kill()  # the node he is connected to dies: nobody says goodbye
        ann.wait_state(bob_connected(False), PATIENCE)
        assert runner(nodes[1], code) == names[0]  # the room stays where it was
    finally:
        for n in nodes:
            n.stop()
