"""Accounts in the database (SQLite and PostgreSQL): signing up, logging in with lockouts and
without telling which names exist, sessions, passwords, deleting, ratings and leaderboards."""

from __future__ import annotations

import json

import pytest
from _pytest.raises import RaisesExc

from rummikub.ratings import Rating, display
from rummikub.server.accounts import AccountCode, AccountError
from rummikub.server.accounts.store import DELETED_NAME, Account, AccountStore
from rummikub.server.storage.store import Store, StoredRoom, StoredSeat

T0 = 1_800_000_000.0
PASSWORD = "correct horse battery"


def refused(code: AccountCode) -> RaisesExc[AccountError]:
    """Expect an :class:`AccountError` with ``code``."""
    return pytest.raises(AccountError, check=lambda e: e.code == code)


def test_sign_up_log_in_and_sessions(accounts: AccountStore) -> None:
    anna, token = accounts.sign_up("Anna", PASSWORD, T0)
    assert accounts.session(token, T0 + 1) == anna
    again, second = accounts.log_in("ANNA", PASSWORD, T0 + 2)  # names ignore case
    assert again == anna and second != token
    accounts.log_out(token)
    assert accounts.session(token, T0 + 3) is None
    assert accounts.session(second, T0 + 3) == anna
    assert accounts.session(second, T0 + 31 * 86400) is None  # expired
    assert accounts.session("made-up", T0) is None and accounts.session(None, T0) is None


def test_a_taken_name_is_refused_whatever_its_case(accounts: AccountStore) -> None:
    accounts.sign_up("Anna", PASSWORD, T0)
    with refused(AccountCode.NAME_UNAVAILABLE):
        accounts.sign_up("aNNA", PASSWORD, T0)
    with refused(AccountCode.NAME_RESERVED):
        accounts.sign_up("greedy-1", PASSWORD, T0)


def test_a_wrong_name_and_a_wrong_password_get_one_answer(accounts: AccountStore) -> None:
    accounts.sign_up("Anna", PASSWORD, T0)
    with pytest.raises(AccountError) as wrong_password:
        accounts.log_in("Anna", "not her password", T0)
    with pytest.raises(AccountError) as no_such_name:
        accounts.log_in("Nobody", "not her password", T0)
    assert (wrong_password.value.code, str(wrong_password.value)) == (
        no_such_name.value.code,
        str(no_such_name.value),
    )


def test_guessing_locks_the_account_and_the_owner_gets_back_in_after(
    accounts: AccountStore,
) -> None:
    accounts.sign_up("Anna", PASSWORD, T0)
    for _ in range(5):
        with refused(AccountCode.BAD_LOGIN):
            accounts.log_in("Anna", "guess", T0)
    with refused(AccountCode.LOCKED):  # the sixth try: the fifth wrong password locked it
        accounts.log_in("Anna", "guess", T0)
    # locked: even the right password is not tried
    with pytest.raises(AccountError) as locked:
        accounts.log_in("Anna", PASSWORD, T0 + 10)
    assert locked.value.code == AccountCode.LOCKED and locked.value.params["retry_after"] == 20
    account, _ = accounts.log_in("Anna", PASSWORD, T0 + 31)
    assert account.name == "Anna"
    with refused(AccountCode.BAD_LOGIN):  # the count started again
        accounts.log_in("Anna", "guess", T0 + 32)
    accounts.log_in("Anna", PASSWORD, T0 + 33)


def test_password_changes_and_resets_end_the_other_sessions(accounts: AccountStore) -> None:
    anna, here = accounts.sign_up("Anna", PASSWORD, T0)
    _, there = accounts.log_in("Anna", PASSWORD, T0)
    with refused(AccountCode.BAD_LOGIN):
        accounts.change_password(anna, "wrong", "a new password", T0)
    kept = accounts.change_password(anna, PASSWORD, "a new password", T0)
    assert accounts.session(here, T0) is None and accounts.session(there, T0) is None
    assert accounts.session(kept, T0) == anna
    accounts.log_in("Anna", "a new password", T0)
    assert accounts.reset_password("anna", "the operator's one") == anna
    assert accounts.session(kept, T0) is None
    accounts.log_in("Anna", "the operator's one", T0)
    with refused(AccountCode.BAD_LOGIN):
        accounts.reset_password("Nobody", "the operator's one")
    _, token = accounts.log_in("Anna", "the operator's one", T0)
    assert accounts.log_out_everywhere(anna) >= 2
    assert accounts.session(token, T0) is None


def test_a_deleted_account_loses_its_name_sessions_and_ratings(accounts: AccountStore) -> None:
    anna, token = accounts.sign_up("Anna", PASSWORD, T0)
    accounts.record_game("tiles", "ABCD", [(anna, Rating(27.0, 7.0), True)], T0)
    with refused(AccountCode.BAD_LOGIN):
        accounts.delete(anna, "wrong", T0)
    accounts.delete(anna, PASSWORD, T0)
    assert accounts.session(token, T0) is None
    with refused(AccountCode.BAD_LOGIN):
        accounts.log_in("Anna", PASSWORD, T0)
    assert accounts.leaderboard("tiles") == []
    assert accounts.history(anna, "tiles") == []
    again, _ = accounts.sign_up("Anna", PASSWORD, T0)  # the name is free again
    assert again.id != anna.id


def test_ratings_history_and_leaderboards(accounts: AccountStore) -> None:
    players = [accounts.sign_up(f"player{i}", PASSWORD, T0)[0] for i in range(5)]
    assert accounts.rating(players[0], "tiles").display == 1000  # before any game
    day = 86400.0
    for i, p in enumerate(players):
        accounts.record_game("tiles", f"R{i}", [(p, Rating(20.0 + i, 5.0), i % 2 == 0)], T0)
    accounts.record_game("tiles", "LATE", [(players[1], Rating(30.0, 4.0), True)], T0 + 40 * day)
    board = accounts.leaderboard("tiles")
    assert [s.account for s in board] == [players[1], players[4], players[3], players[2],
                                          players[0]]  # fmt: skip
    assert board[0].display == display(Rating(30.0, 4.0)) and board[0].games == 2
    assert board[0].wins == 1
    assert [s.account for s in accounts.leaderboard("tiles", offset=1, limit=2)] == [
        players[4],
        players[3],
    ]
    month = accounts.leaderboard("tiles", since=T0 + 30 * day)
    assert [s.account for s in month] == [players[1]]
    assert accounts.leaderboard("xpress") == []
    assert accounts.history(players[1], "tiles") == [
        (T0, display(Rating(21.0, 5.0))),
        (T0 + 40 * day, display(Rating(30.0, 4.0))),
    ]
    assert accounts.rating(players[1], "tiles").rating == Rating(30.0, 4.0)
    assert isinstance(players[0], Account)


def test_a_look_alike_of_a_taken_name_is_refused(accounts: AccountStore) -> None:
    """``Аlice`` with a Cyrillic ``А`` cannot sign up beside ``alice`` (the skeletons are unique
    in the database); once ``alice`` is deleted the name and its look-alikes are free."""
    alice, _ = accounts.sign_up("alice", PASSWORD, T0)
    for twin in ("\u0410lice", "\u0430lic\u0435", "ALICE", "ａｌｉｃｅ"):
        with refused(AccountCode.NAME_UNAVAILABLE):
            accounts.sign_up(twin, PASSWORD, T0)
    accounts.delete(alice, PASSWORD, T0)
    taken, _ = accounts.sign_up("\u0410lice", PASSWORD, T0)
    assert taken.name == "\u0410lice"
    with refused(AccountCode.NAME_UNAVAILABLE):
        accounts.sign_up("alice", PASSWORD, T0)


def test_a_deleted_account_leaves_no_name_in_its_games_analyses(db_url: str) -> None:
    store = Store(db_url)
    try:
        accounts = AccountStore(store.engine)
        anna, _ = accounts.sign_up("Anna", PASSWORD, T0)
        store.create_room(
            StoredRoom(
                "ROOM1", T0, {}, {}, 1, "finished", None, T0,
                [StoredSeat(0, "human", None, "Anna", "h", anna.id),
                 StoredSeat(1, "bot", "greedy", None, None)],
            )
        )  # fmt: skip
        analysis = {"players": [{"name": "Anna"}, {"name": "greedy 2"}], "turns": []}
        store.save_analysis("ROOM1", "v1", json.dumps(analysis))
        gone = accounts.delete(anna, PASSWORD, T0)
        assert gone.seats == (("ROOM1", 0),)
        kept = store.load_analysis("ROOM1", "v1")
        assert kept is not None and "Anna" not in kept
        assert json.loads(kept)["players"] == [{"name": DELETED_NAME}, {"name": "greedy 2"}]
        room = store.load_room("ROOM1", events=False)
        assert room is not None and room.seats[0].name == DELETED_NAME
    finally:
        store.close()


def test_the_servers_secret_is_made_once_and_shared(db_url: str) -> None:
    """Two servers on one database (a cluster's nodes, or one restarted) get one CSRF key."""
    one, two = Store(db_url), Store(db_url)
    try:
        key = AccountStore(one.engine).secret("csrf", T0)
        assert len(key) == 32 and key != b"rummikub-csrf/1"
        assert AccountStore(two.engine).secret("csrf", T0 + 1) == key
        assert AccountStore(two.engine).secret("other", T0) != key
    finally:
        one.close()
        two.close()
