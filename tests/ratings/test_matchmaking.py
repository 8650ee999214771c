"""The quick-match queue: similar players are matched at once, distant ones only as the
window widens, bots fill the empty seats after a while for a player who allows them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.core import UsageError
from rummikub.ratings import Game, Queue, Rating, Settings, Ticket

BOTS = {"beginner": Rating(18.0, 1.0), "greedy": Rating(25.0, 1.0), "expert": Rating(28.0, 1.0)}


def ticket(name: str, mu: float, sizes: set[int], *, bots: bool = False, at: float = 0.0) -> Ticket:
    return Ticket(name, Rating(mu, 3.0), frozenset(sizes), bots, at)


def test_two_close_players_are_matched_at_once() -> None:
    q = Queue(BOTS)
    q.join(ticket("ann", 25.0, {2}))
    q.join(ticket("bob", 26.0, {2}))
    assert q.tick(0.0) == [Game(("ann", "bob"))]
    assert q.tickets == {}


def test_distant_players_wait_until_the_window_has_widened() -> None:
    q = Queue(BOTS, Settings(window=2.0, widen=0.5, max_window=12.0))
    q.join(ticket("ann", 20.0, {2}))
    q.join(ticket("bob", 26.0, {2}))
    assert q.tick(7.0) == []  # the window is 5.5 < 6
    assert q.window(q.tickets["ann"], 8.0) == 6.0
    assert q.tick(8.0) == [Game(("ann", "bob"))]


def test_the_window_stops_widening() -> None:
    q = Queue(BOTS, Settings(window=2.0, widen=1.0, max_window=5.0))
    q.join(ticket("ann", 10.0, {2}))
    q.join(ticket("bob", 30.0, {2}))
    assert q.tick(1000.0) == []


def test_the_largest_table_everyone_accepts_is_preferred() -> None:
    q = Queue(BOTS)
    for name, mu in (("a", 25.0), ("b", 25.5), ("c", 24.5)):
        q.join(ticket(name, mu, {2, 3}))
    q.join(ticket("d", 25.0, {2}))
    games = q.tick(0.0)
    assert games == [Game(("a", "b", "c"))]
    assert list(q.tickets) == ["d"]


def test_bots_fill_only_after_the_wait_and_only_if_allowed() -> None:
    q = Queue(BOTS, Settings(bots_after=30.0))
    q.join(ticket("ann", 27.5, {2}, bots=True))
    q.join(ticket("bob", 5.0, {3}, bots=False))
    assert q.tick(29.0) == []
    assert q.tick(30.0) == [Game(("ann",), ("expert",))]  # the nearest level to 27.5
    assert q.tick(10_000.0) == []  # bob never allowed bots
    assert list(q.tickets) == ["bob"]


def test_a_player_leaves_and_rejoins() -> None:
    q = Queue(BOTS)
    q.join(ticket("ann", 25.0, {2}))
    assert q.leave("ann") and not q.leave("ann")
    assert q.tick(0.0) == []


def test_table_sizes_are_checked() -> None:
    with pytest.raises(UsageError, match="2, 3 or 4 players"):
        ticket("ann", 25.0, {5})
    with pytest.raises(UsageError, match="2, 3 or 4 players"):
        ticket("ann", 25.0, set())


@given(
    st.lists(
        st.tuples(
            st.floats(0, 50),
            st.sets(st.integers(2, 4), min_size=1),
            st.booleans(),
            st.floats(0, 100),
        ),
        max_size=12,
    ),
    st.floats(0, 200),
)
def test_every_game_is_whole_and_fair(
    waiting: list[tuple[float, set[int], bool, float]], now: float
) -> None:
    q = Queue(BOTS)
    for i, (mu, sizes, bots, at) in enumerate(waiting):
        q.join(ticket(f"p{i}", mu, sizes, bots=bots, at=min(at, now)))
    before = dict(q.tickets)
    games = q.tick(now)
    placed = [p for g in games for p in g.players]
    assert len(placed) == len(set(placed))  # nobody in two games
    assert set(placed) | set(q.tickets) == set(before)  # nobody lost
    for g in games:
        players = [before[p] for p in g.players]
        assert all(g.size in t.sizes for t in players)
        if g.bots:
            assert all(t.bots for t in players)
        for t in players:
            for u in players:
                assert abs(t.rating.mu - u.rating.mu) <= q.window(t, now) + 1e-9
