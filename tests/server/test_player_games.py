"""An account's games in the database (SQLite and PostgreSQL): a rated game rated once, bots
fixed, every rating moved in one transaction; guest seats claimed by their tokens; the games
a player is in and his finished ones; deleting an account renames his seats."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.ratings import Rating, bot_rating, display
from rummikub.server.accounts.games import PlayerGames, RatedSeat
from rummikub.server.accounts.store import AccountStore
from rummikub.server.rooms.seats import hash_token
from rummikub.server.storage.store import Store, StoredEvent, StoredRoom, StoredSeat

T0 = 1_800_000_000.0
PASSWORD = "correct horse battery"


@pytest.fixture
def db(db_url: str) -> Iterator[tuple[Store, AccountStore, PlayerGames]]:
    store = Store(db_url)
    try:
        yield store, AccountStore(store.engine), PlayerGames(store.engine)
    finally:
        store.close()


def _room(store: Store, code: str, seats: list[StoredSeat], status: str = "finished") -> None:
    store.create_room(
        StoredRoom(code, T0, {"preset": "standard"}, {"rated": status == "finished"}, 1, status,
                   None, T0 + 60 if status == "finished" else None, seats)
    )  # fmt: skip


def test_a_rated_game_is_rated_once_and_bots_keep_their_ratings(
    db: tuple[Store, AccountStore, PlayerGames],
) -> None:
    _, accounts, games = db
    ann, _ = accounts.sign_up("Ann", PASSWORD, T0)
    bob, _ = accounts.sign_up("Bob", PASSWORD, T0)
    expert = bot_rating("expert")
    seats = [RatedSeat(ann.id), RatedSeat(None, expert), RatedSeat(bob.id)]
    changes = games.rate_game("tiles", "R1", seats, [40, -10, -30], [0], T0)
    assert [c.seat for c in changes] == [0, 2]
    assert changes[0].after > changes[0].before == display(Rating())
    assert changes[1].after < changes[1].before
    # once per game, whoever asks again (a restart, another node)
    assert games.rate_game("tiles", "R1", seats, [40, -10, -30], [0], T0 + 5) == []
    a, b = accounts.rating(ann, "tiles"), accounts.rating(bob, "tiles")
    assert (a.games, a.wins, b.games, b.wins) == (1, 1, 1, 0)
    assert a.display == changes[0].after and b.display == changes[1].after
    assert accounts.history(ann, "tiles") == [(T0, changes[0].after)]


def test_every_account_of_a_game_is_rated_and_nobody_else(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    accounts, games = AccountStore(store.engine), PlayerGames(store.engine)
    players = [accounts.sign_up(f"Player{i}", PASSWORD, T0)[0].id for i in range(4)]
    played = count()
    try:
        check_games(games, players, played)
    finally:
        store.close()


def check_games(games: PlayerGames, players: list[int], played: Iterator[int]) -> None:
    @settings(max_examples=40, deadline=None)
    @given(
        totals=st.lists(st.integers(-200, 200), min_size=2, max_size=4),
        bots=st.lists(st.booleans(), min_size=4, max_size=4),
    )
    def check(totals: list[int], bots: list[bool]) -> None:
        seats = [
            RatedSeat(None, bot_rating("greedy")) if bots[i] else RatedSeat(players[i])
            for i in range(len(totals))
        ]
        room = f"G{next(played)}"
        best = max(totals)
        winners = [i for i, v in enumerate(totals) if v == best]
        changes = games.rate_game("tiles", room, seats, totals, winners, T0)
        assert [c.seat for c in changes] == [i for i, s in enumerate(seats) if s.account]
        assert games.rate_game("tiles", room, seats, totals, winners, T0) == []
        # a lone winner never loses rating; one behind everyone never gains
        lone = [c for c in changes if winners == [c.seat]]
        assert all(c.after >= c.before for c in lone)
        last = [c for c in changes if totals[c.seat] < min(totals[: c.seat] + totals[c.seat + 1 :])]
        assert all(c.after <= c.before for c in last)

    check()


def test_claims_playing_recent_and_deleting(db: tuple[Store, AccountStore, PlayerGames]) -> None:
    store, accounts, games = db
    gus, _ = accounts.sign_up("Gus", PASSWORD, T0)
    tom, _ = accounts.sign_up("Tom", PASSWORD, T0)
    _room(store, "DONE01", [StoredSeat(0, "human", None, "Gus", hash_token("t-done")),
                            StoredSeat(1, "bot", "greedy", None, None)])  # fmt: skip
    _room(store, "WAIT01", [StoredSeat(0, "human", None, "G", hash_token("t-wait")),
                            StoredSeat(1, "human", None, None, None)], "waiting")  # fmt: skip
    store.append("DONE01", _result_event(), result={"round": 0, "reason": "out", "winner": 0,
                                                    "scores": [12, -12]})  # fmt: skip
    claims = [("done01", "t-done"), ("WAIT01", "t-wait"), ("WAIT01", "wrong"), ("NONE", "x")]
    assert sorted(games.claim(gus, claims)) == [("DONE01", 0), ("WAIT01", 0)]
    assert games.claim(tom, claims) == []  # a seat claimed is that account's
    assert [(g.room, g.status, g.won) for g in games.playing(gus)] == [("WAIT01", "waiting", None)]
    recent = games.recent(gus)
    assert [(g.room, g.seat, g.won, g.rated) for g in recent] == [("DONE01", 0, True, True)]
    assert recent[0].players == ("Gus", "greedy 2")
    assert games.recent(gus, offset=1) == [] and games.recent(tom) == []
    accounts.delete(gus, PASSWORD, T0 + 100)
    room = store.load_room("DONE01", events=False)
    assert room is not None and room.seats[0].name == "deleted player"
    assert room.seats[0].account_id == gus.id  # the game stays (anonymous)
    assert json.loads(json.dumps(recent[0].to_json()))["room"] == "DONE01"


def _result_event() -> StoredEvent:
    return StoredEvent(1, "turn", {}, T0 + 50)
