"""The compiled Xpress playouts (rummikub.solver.xpress) against the Python ones of the
ranking (rummikub.xpress.ranking._play_python): the same placements' size, the same rounds
played, the future drawn further when a round outlasts it."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core.tiles import JOKER, Tile
from rummikub.solver import xpress as kernel
from rummikub.xpress import XpressRules, default_layout
from rummikub.xpress import ranking as R
from rummikub.xpress.dice import face_value
from rummikub.xpress.game import setup_round
from rummikub.xpress.solver import _key, _solve
from rummikub.xpress.state import XpressState


@st.composite
def positions(draw: st.DrawFn) -> tuple[list[Tile], list[Tile]]:
    """A valid table (runs and groups, some jokers standing in) and a hand of up to 9 faces,
    never more than two of a face or four jokers in all."""
    left: Counter[Tile] = Counter({Tile(c, n): 2 for c in range(4) for n in range(1, 14)})
    jokers = 4
    table: list[Tile] = []
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            colour = draw(st.integers(0, 3))
            start = draw(st.integers(1, 11))
            length = draw(st.integers(3, min(5, 14 - start)))
            meld = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = draw(st.integers(1, 13))
            colours = draw(st.permutations(range(4)))[: draw(st.integers(3, 4))]
            meld = [Tile(c, number) for c in colours]
        if any(left[t] == 0 for t in meld):
            continue
        if jokers and draw(st.booleans()):  # a joker stands for one of the set's faces
            meld[draw(st.integers(0, len(meld) - 1))] = JOKER
        for t in meld:
            if t.is_joker:
                jokers -= 1
            else:
                left[t] -= 1
        table += meld
    pool = sorted(left.elements(), key=lambda t: (t.colour, t.number)) + [JOKER] * jokers
    hand = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=9))
    have = Counter(pool)
    kept = []
    for t in hand:
        if have[t] > 0:
            have[t] -= 1
            kept.append(t)
    return table, kept


@settings(max_examples=300, deadline=None)
@given(positions())
def test_the_compiled_placement_places_as_many_dice_as_the_exact_search(
    position: tuple[list[Tile], list[Tile]],
) -> None:
    table, hand = position
    few, many, strides, masks = kernel.constants()
    t_grid, tj, tv = kernel.counts(table)
    h_grid, hj, _ = kernel.counts(hand)
    used, used_jokers, found = kernel._greedy(t_grid, tj, tv, h_grid, hj, few, many, strides,
                                              masks)  # fmt: skip
    best = _solve(_key(table), _key(hand))
    assert best is not None  # the table itself is valid
    placed = best[0] - len(table)
    assert found == (placed > 0)
    if found:
        assert int(used.sum()) + used_jokers == placed
        assert (used >= 0).all() and (used <= h_grid).all() and used_jokers <= hj
        if not tj and not hj:  # ties broken alike: the most points of real faces
            value = int(sum((n + 1) * used[c, n] for c in range(4) for n in range(13)))
            assert value == best[1] - sum(face_value(t) for t in table)


def fresh_rounds(n: int, keepers: tuple[int, ...]) -> list[R._Ending]:
    rules, layout = XpressRules(), default_layout()
    rng = random.Random("compiled playouts")
    out = []
    for g in range(n):
        state = XpressState.start(rules, layout, setup_round(rng, rules, layout), g % 2)
        out.append(R._play(state, None, R._Future(layout, "test", g), keepers))
    return out


@pytest.mark.parametrize("keepers", [(0,), (0, 1)])
def test_compiled_and_python_playouts_play_the_same_rounds(
    monkeypatch: pytest.MonkeyPatch, keepers: tuple[int, ...]
) -> None:
    """The same rounds (the same deal, the same future) end the same way but where two
    placements of the same size and points differ in the faces they take (the tile solver
    breaks such ties its own way): on these 150 rounds in at least 85%, and the rounds'
    margins alike on the whole."""
    assert R._kernel() is kernel
    compiled = fresh_rounds(150, keepers)
    monkeypatch.setattr(R, "_KERNEL", [None])
    python = fresh_rounds(150, keepers)
    same = sum(a == b for a, b in zip(compiled, python, strict=True))
    assert same >= 0.85 * len(python)

    def margins(endings: list[R._Ending]) -> list[int]:
        return [s[0] - s[1] for _, s, _ in endings]

    assert abs(statistics.fmean(margins(compiled)) - statistics.fmean(margins(python))) < 1.5
    for winner, scores, _ in compiled:  # a round's winner scores, the other nothing
        if winner is None:
            assert scores == (0, 0)
        else:
            assert scores[winner] > 0 and scores[1 - winner] == 0


def test_a_round_longer_than_the_future_drawn_is_played_again_further(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = fresh_rounds(40, (0,))
    monkeypatch.setattr(kernel, "FIRST_HORIZON", 1)  # every round outlasts the first turn
    assert fresh_rounds(40, (0,)) == whole
