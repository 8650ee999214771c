"""Accounts in the game: a logged-in player's seat, rated rooms and their refusals, the rating
moved once a rated game is over (bots fixed), taking one's seat again from another browser by
the account, and a guest's games claimed when he signs up."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .accounts_helpers import account_info, get_json, player, sign_up
from .helpers import Client, ServerProcess, draw_until_round_over

BOT = [{"kind": "bot", "level": "greedy"}]
ME = [{"kind": "human"}]


@pytest.fixture
def srv(sqlite_url: str) -> Iterator[ServerProcess]:
    s = ServerProcess(sqlite_url, env={"RUMMIKUB_TEST_SEED": "11"}).start()
    try:
        yield s
    finally:
        s.stop()


def message(c: Client, kind: str) -> dict[str, Any]:
    """The first message of ``kind`` the client got, or gets (a room's state is sent when
    the server's loop is free, so it may come after a message sent later)."""
    return next((m for m in c.seen if m["type"] == kind), None) or c.wait(
        lambda m: m["type"] == kind
    )


def _create(c: Client, seats: list[dict[str, str]], **settings: object) -> dict[str, Any]:
    return c.request(
        type="create", name="Guesty", rules="standard", seats=seats,
        settings={"bot_delay": 0, **settings},
    )  # fmt: skip


def test_a_logged_in_player_plays_under_his_account_name(srv: ServerProcess) -> None:
    ann = player(srv, sign_up(srv, "Ann"))
    try:
        reply = _create(ann, ME + ME)
        assert reply["type"] == "joined"
        state = ann.wait_state(lambda s: s["room"]["seats"][0]["taken"])
        seat = state["room"]["seats"][0]
        # the name typed in is not used: the account's is (nobody plays as someone else)
        assert seat["name"] == "Ann" and seat["account"] is True
        assert state["room"]["seats"][1]["account"] is False
    finally:
        ann.close()


def test_rated_rooms_refuse_what_a_rated_game_cannot_have(srv: ServerProcess) -> None:
    guest = player(srv, None)
    ann = player(srv, sign_up(srv, "Ann"))
    try:
        refused = _create(guest, ME + BOT, rated=True)
        assert refused["code"] == "account-needed"
        cases: list[tuple[dict[str, Any], str]] = [
            ({"rules": {"preset": "standard", "turn_seconds": 60}}, "rules"),
            ({"rules": "casual"}, "rules"),  # no clock
            ({"settings": {"rated": True, "hints": True}}, "hints"),
        ]
        for change, reason in cases:
            msg: dict[str, Any] = {
                "type": "create", "name": "Ann", "rules": "standard", "seats": ME + BOT,
                "settings": {"rated": True}, **change,
            }  # fmt: skip
            reply = ann.request(**msg)
            assert reply["type"] == "error", (change, reply)
            assert reply["code"] == "not-rated" and reply["params"]["reason"] == reason
        xpress = ann.request(
            type="create", name="Ann", game="xpress", rules="standard", seats=ME + ME,
            settings={"rated": True},
        )  # fmt: skip
        assert xpress["code"] == "not-rated" and xpress["params"]["reason"] == "game"
        queued = ann.request(type="queue", game="xpress", players=[2])
        assert queued["code"] == "not-rated" and queued["params"]["reason"] == "game"
        # a rated room: hints and spectators' chat off by default; a guest cannot take its
        # free seat, nor chat while he watches
        made = _create(ann, ME + ME, rated=True)
        assert made["type"] == "joined"
        state = ann.wait_state(lambda s: s["room"]["settings"]["rated"])
        assert state["room"]["settings"]["hints"] is False
        assert state["room"]["settings"]["spectator_chat"] is False
        joined = guest.request(type="join", room=made["room"], name="Gus")
        assert joined["code"] == "account-needed"
        assert guest.request(type="watch", room=made["room"])["type"] == "watching"
        assert guest.request(type="chat", text="hi")["code"] == "no-spectator-chat"
    finally:
        guest.close()
        ann.close()


def test_a_rated_game_moves_the_rating_and_the_bot_keeps_his(srv: ServerProcess) -> None:
    session = sign_up(srv, "Ann")
    ann = player(srv, session)
    try:
        made = _create(ann, ME + BOT, rated=True)
        assert made["type"] == "joined"
        end = draw_until_round_over(ann, timeout=120)
        assert end["game"]["match_over"]
        rated = message(ann, "rated")
        assert [c["seat"] for c in rated["changes"]] == [0]  # the bot's rating is fixed
        change = rated["changes"][0]
        profile = get_json(srv, "/api/players/Ann")
        tiles = profile["games"]["tiles"]
        assert tiles["games"] == 1 and tiles["rating"] == change["after"]
        assert [h["rating"] for h in tiles["history"]] == [change["after"]]
        assert change["after"] != change["before"]
        won = end["game"]["winners"] == [0]
        assert tiles["wins"] == int(won)
        assert profile["recent"][0]["room"] == made["room"]
        assert profile["recent"][0]["rated"] is True and profile["recent"][0]["won"] is won
        board = get_json(srv, "/api/leaderboard?game=tiles&period=month")
        assert [p["name"] for p in board["players"]] == ["Ann"]
    finally:
        ann.close()


def test_a_player_takes_his_seat_again_from_another_browser(srv: ServerProcess) -> None:
    session = sign_up(srv, "Ann")
    first = player(srv, session)
    second = player(srv, session)  # the same account in another browser: no token there
    bob = player(srv, sign_up(srv, "Bob"))
    guest = player(srv, None)
    try:
        made = _create(first, ME + BOT)
        code = made["room"]
        again = second.request(type="resume", room=code)
        assert again["type"] == "joined" and again["seat"] == 0
        assert again["token"] is None  # the seat's token stays with the first browser
        state = second.wait_state(lambda s: s["game"] is not None and "rack" in s["game"])
        assert state["you"] == 0
        assert bob.request(type="resume", room=code)["code"] == "bad-token"
        assert guest.request(type="resume", room=code)["code"] == "account-needed"
        # the account page lists the game to go back to
        playing = account_info(srv, session)["playing"]
        assert [(g["room"], g["seat"], g["status"]) for g in playing] == [(code, 0, "playing")]
    finally:
        for c in (first, second, bob, guest):
            c.close()


def test_a_guest_who_signs_up_keeps_his_games(srv: ServerProcess) -> None:
    guest = player(srv, None)
    try:
        made = _create(guest, ME + BOT)
        end = draw_until_round_over(guest, timeout=120)
        assert end["game"]["match_over"]
        waiting = _create(guest, ME + ME)  # and one not started yet
    finally:
        guest.close()
    claims = [
        {"room": made["room"], "token": made["token"]},
        {"room": waiting["room"], "token": waiting["token"]},
        {"room": made["room"], "token": "not-his-token"},
    ]
    session = sign_up(srv, "Gus", claim=claims)
    profile = get_json(srv, "/api/players/Gus")
    assert [g["room"] for g in profile["recent"]] == [made["room"]]
    assert profile["recent"][0]["rated"] is False
    assert profile["recent"][0]["won"] is (end["game"]["winners"] == [0])
    playing = account_info(srv, session)["playing"]
    assert [g["room"] for g in playing] == [waiting["room"]]
    # claimed once: another account cannot take the same seats with the same tokens
    sign_up(srv, "Thief", claim=claims)
    assert get_json(srv, "/api/players/Thief")["recent"] == []
    # and the claimed waiting seat is his by his account now, from any browser
    gus = player(srv, session)
    try:
        assert gus.request(type="resume", room=waiting["room"])["seat"] == 0
    finally:
        gus.close()


def test_a_removed_player_cannot_take_his_freed_seat_back_by_his_account(
    srv: ServerProcess,
) -> None:
    ann = player(srv, sign_up(srv, "Ann"))
    bob_session = sign_up(srv, "Bob")
    bob = player(srv, bob_session)
    try:
        code = _create(ann, ME + ME + ME)["room"]
        assert bob.request(type="join", room=code, name="Bob")["seat"] == 1
        assert ann.request(type="remove", seat=1)["type"] == "ok"
        again = player(srv, bob_session)
        try:
            assert again.request(type="resume", room=code)["code"] == "bad-token"
        finally:
            again.close()
        assert account_info(srv, bob_session)["playing"] == []
    finally:
        ann.close()
        bob.close()
