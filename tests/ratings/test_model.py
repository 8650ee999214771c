"""The rating model: places from a game's result, OpenSkill updates with fixed (bot) seats,
the displayed figure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.core import UsageError
from rummikub.ratings import INITIAL, Rating, display, ranks_of, rate, win_chances

ratings = st.builds(Rating, st.floats(0, 50), st.floats(0.5, 9))


def test_a_new_player_shows_1000() -> None:
    assert display(INITIAL) == 1000
    assert display(Rating(30.0, 2.0)) == 1000 + 40 * 24
    assert display(Rating(-30.0, 2.0)) == 0  # never below 0


def test_places_follow_winners_then_totals() -> None:
    assert ranks_of([10, -10]) == [1, 2]
    assert ranks_of([-3, 5, 5, -7], winners=[1]) == [3, 1, 2, 4]
    assert ranks_of([0, 0], winners=[0, 1]) == [1, 1]  # a shared win
    assert ranks_of([4, 4, 9]) == [2, 2, 1]


@given(st.lists(ratings, min_size=2, max_size=6))
def test_the_winner_gains_and_the_last_loses(before: list[Rating]) -> None:
    ranks = list(range(1, len(before) + 1))
    after = rate(before, ranks)
    assert after[0].mu > before[0].mu
    assert after[-1].mu < before[-1].mu


@given(st.lists(ratings, min_size=2, max_size=4), st.data())
def test_fixed_seats_keep_their_rating(before: list[Rating], data: st.DataObject) -> None:
    fixed = data.draw(st.lists(st.booleans(), min_size=len(before), max_size=len(before)))
    ranks = data.draw(st.permutations(range(1, len(before) + 1)))
    after = rate(before, ranks, fixed)
    for old, new, keep in zip(before, after, fixed, strict=True):
        if keep:
            assert new == old
        else:
            assert new.sigma < old.sigma + 0.1  # one game adds at most tau of doubt


def test_a_tie_between_equals_changes_neither_estimate() -> None:
    a, b = rate([INITIAL, INITIAL], [1, 1])
    assert a.mu == pytest.approx(INITIAL.mu) and b.mu == pytest.approx(INITIAL.mu)
    assert a == b


def test_beating_a_stronger_player_is_worth_more() -> None:
    weak, strong = Rating(20.0, 3.0), Rating(30.0, 3.0)
    up_vs_strong = rate([INITIAL, strong], [1, 2])[0].mu - INITIAL.mu
    up_vs_weak = rate([INITIAL, weak], [1, 2])[0].mu - INITIAL.mu
    assert up_vs_strong > up_vs_weak > 0


def test_the_model_expects_the_stronger_to_win() -> None:
    chances = win_chances([Rating(30.0, 2.0), Rating(20.0, 2.0)])
    assert chances[0] > 0.5 > chances[1]
    assert sum(chances) == pytest.approx(1.0)


def test_bad_games_are_named() -> None:
    with pytest.raises(UsageError, match="2 to 6 seats"):
        rate([INITIAL], [1])
    with pytest.raises(UsageError, match="not a rating"):
        Rating.from_json({"mu": 3})
    with pytest.raises(UsageError, match="sigma must be positive"):
        Rating.from_json({"mu": 3, "sigma": 0})
    assert Rating.from_json(Rating(1.5, 2.5).to_json()) == Rating(1.5, 2.5)
