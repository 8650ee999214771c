"""The sequential test of version-against-version matches (:mod:`rummikub.bots.sprt`): its
log-likelihood ratio against the values chess engine testers publish, and its properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.bots.sprt import (
    bounds,
    elo_estimate,
    elo_of_score,
    elo_to_score,
    game_score,
    llr,
    pair_scores,
    pentanomial,
    sprt,
    tournament_counts,
)

# fastchess's own test values (logistic Elo, its tests/sprt.cpp): trinomial counts as
# (losses, draws, wins); pentanomial as pairs scoring 0, 1/2, 1, 3/2, 2 (its LL, LD, WL+DD,
# WD, WW)
KNOWN = [
    ((21184, 40708, 21404), 0.5, 2.5, -1.57),
    ((57030, 106593, 57433), 0.0, 2.0, -2.59),
    ((223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, -3.07),
    ((871, 26175, 55003 + 980, 26678, 821), 0.0, 2.0, -4.98),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "expected"), KNOWN)
def test_llr_matches_published_values(
    counts: tuple[int, ...], elo0: float, elo1: float, expected: float
) -> None:
    assert llr(counts, elo0, elo1) == pytest.approx(expected, abs=0.006)


def test_bounds_are_walds() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert bounds(0.05, 0.1)[0] == pytest.approx(math.log(0.1 / 0.95))
    with pytest.raises(ValueError, match="alpha and beta"):
        bounds(0.0, 0.05)


def test_llr_of_a_few_pairs_is_the_multinomial_ratio() -> None:
    # every pair won twice: the best distribution of mean s puts s on "2" and the rest on "0",
    # so the ratio is (s1 / s0) per pair, but for the small weight of unseen outcomes
    s0, s1 = elo_to_score(0), elo_to_score(50)
    assert llr([0, 0, 0, 0, 40], 0, 50) == pytest.approx(40 * math.log(s1 / s0), rel=0.01)
    assert llr([0, 0, 0, 0, 0], 0, 5) == 0.0


def test_verdicts() -> None:
    assert sprt([0, 0, 0, 0, 200], 0, 20).verdict == "H1"
    assert sprt([200, 0, 0, 0, 0], 0, 20).verdict == "H0"
    assert sprt([10, 20, 40, 20, 10], 0, 20).verdict == "continue"
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        sprt([1, 1, 1], 5, 5)
    with pytest.raises(ValueError, match=r"3 .* or 5"):
        llr([1, 2], 0, 5)


penta = st.lists(st.integers(0, 400), min_size=5, max_size=5).filter(lambda c: sum(c) > 0)
elos = st.tuples(st.floats(-100, 100), st.floats(0.5, 60)).map(lambda t: (t[0], t[0] + t[1]))


@settings(max_examples=80, deadline=None)
@given(counts=penta, elo=elos, better=st.integers(1, 4))
def test_a_better_pair_raises_the_llr(counts: list[int], elo: tuple[float, float],
                                      better: int) -> None:  # fmt: skip
    # moving one pair from a lower score to a higher one is evidence for the stronger H1
    low = next((i for i in range(better) if counts[i] > 0), None)
    moved = list(counts)
    if low is None:
        moved[better] += 1  # nothing to move: adding a better pair than any seen
        base = [*counts]
        base[0] += 1
    else:
        moved[low] -= 1
        moved[better] += 1
        base = counts
    assert llr(moved, *elo) > llr(base, *elo) - 1e-9


@settings(max_examples=80, deadline=None)
@given(counts=penta, elo=elos)
def test_the_llr_of_the_other_side_is_the_opposite(counts: list[int],
                                                   elo: tuple[float, float]) -> None:  # fmt: skip
    elo0, elo1 = elo
    assert llr(counts[::-1], -elo1, -elo0) == pytest.approx(-llr(counts, elo0, elo1), abs=1e-6)


@settings(max_examples=50, deadline=None)
@given(counts=penta, elo=elos, times=st.integers(2, 5))
def test_the_llr_grows_with_the_games_at_the_same_rates(counts: list[int],
                                                        elo: tuple[float, float],
                                                        times: int) -> None:  # fmt: skip
    if 0 in counts:
        counts = [c + 1 for c in counts]  # regularisation aside, the LLR is n times a rate
    assert llr([c * times for c in counts], *elo) == pytest.approx(
        times * llr(counts, *elo), rel=1e-6, abs=1e-6
    )


@given(st.floats(-800, 800))
def test_elo_and_score_are_inverse(elo: float) -> None:
    assert elo_of_score(elo_to_score(elo)) == pytest.approx(elo, abs=1e-6)


def test_pairs_of_a_tournament() -> None:
    header = {"type": "tournament", "bots": ["new", "old"], "players": 2}

    def game(deal: int, seats: list[str], winners: list[int]) -> dict[str, object]:
        return {"type": "game", "deal": deal, "seats": seats, "winners": winners}

    lines = [header, game(0, ["new", "old"], [0]), game(0, ["old", "new"], [1]),
             game(1, ["new", "old"], [1]), game(1, ["old", "new"], [1]),
             game(2, ["new", "old"], [])]  # fmt: skip
    tested, other, five, three = tournament_counts(lines)
    assert (tested, other) == ("new", "old")
    assert five == [0, 0, 1, 0, 1]  # deal 0 won twice, deal 1 once each; deal 2 has no pair
    assert three == [1, 1, 3]
    assert tournament_counts(lines, "old")[2] == [1, 0, 1, 0, 0]
    with pytest.raises(ValueError, match="not one of the tournament's bots"):
        tournament_counts(lines, "nobody")
    with pytest.raises(ValueError, match="two bots in two-player games"):
        tournament_counts([{**header, "players": 4}])
    with pytest.raises(ValueError, match="not a tournament results file"):
        tournament_counts([game(0, ["new", "old"], [0])])


def test_small_parts() -> None:
    assert game_score(["a", "b"], [1], "b") == 1.0
    assert game_score(["a", "b"], [0, 1], "b") == 0.5
    assert pair_scores([(0, 1.0), (1, 0.5), (0, 0.0)]) == ([1.0], [0.5])
    assert pentanomial([0, 0.5, 2, 2]) == [1, 1, 0, 0, 2]
    with pytest.raises(ValueError, match="a pair scores"):
        pentanomial([0.3])
    elo, lo, hi = elo_estimate([10, 20, 40, 20, 10])
    assert elo == pytest.approx(0.0) and lo < 0 < hi
