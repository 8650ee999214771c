"""Glicko-2 against Glickman's worked example, and choosing puzzles."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.puzzles import Goal, Puzzle
from rummikub.puzzles.rating import (
    Rating,
    attempt,
    daily,
    glicko2_update,
    next_puzzle,
    streak_puzzle,
)

from .helpers import make_one


def test_glickman_2012_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2012): a 1500/200 player, volatility 0.06,
    # tau 0.5, beats a 1400/30 player and loses to 1550/100 and 1700/300
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = glicko2_update(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation() -> None:
    new = glicko2_update(Rating(1500, 200, 0.06), [])
    assert new.rating == 1500
    assert new.rd == pytest.approx(200.27, abs=0.01)


@given(
    st.floats(800, 2400),
    st.floats(50, 350),
    st.floats(800, 2400),
    st.floats(50, 350),
    st.booleans(),
)
def test_solving_raises_the_player_and_lowers_the_puzzle(
    r: float, rd: float, pr: float, prd: float, solved: bool
) -> None:
    me, puzzle = attempt(Rating(r, rd), Rating(pr, prd), solved)
    if solved:
        assert me.rating > r and puzzle.rating < pr
    else:
        assert me.rating < r and puzzle.rating > pr
    # a result is information: the deviation grows at most by one period's volatility
    for before, after in ((rd, me), (prd, puzzle)):
        assert after.rd <= (before**2 + (after.volatility * 173.7178) ** 2) ** 0.5 + 1e-9


def _set() -> list[Puzzle]:
    a = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    b = make_one("K5 K6 K7 K8", "R8 B8 O1", Goal.MOST_TILES)
    c = make_one("R5 R6 J", "R7 K9 B9 O2", Goal.FREE_JOKER)
    d = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT)
    return [
        a.with_rating(1200, 80),
        b.with_rating(1500, 80),
        c.with_rating(1800, 80),
        d.with_rating(1550, 80),
    ]


def test_the_next_puzzle_is_near_the_rating_and_unsolved() -> None:
    ps = _set()
    assert next_puzzle(ps, 1790).goal is Goal.FREE_JOKER
    assert next_puzzle(ps, 1210).rating == 1200
    near = next_puzzle(ps, 1520, done={ps[1].id})
    assert near.id == ps[3].id
    assert next_puzzle(ps, 1200, theme="free-joker").goal is Goal.FREE_JOKER


def test_the_daily_puzzle_is_the_same_all_day_and_changes() -> None:
    ps = _set()
    day = dt.date(2026, 12, 3)
    assert daily(ps, day).id == daily(list(reversed(ps)), day).id
    days = {daily(ps, day + dt.timedelta(days=k)).id for k in range(30)}
    assert len(days) >= 2


def test_a_streak_gets_harder() -> None:
    ps = _set()
    ratings = [streak_puzzle(ps, k, start=1200, step=300).rating for k in range(3)]
    assert ratings == sorted(ratings) and ratings[0] < ratings[-1]
