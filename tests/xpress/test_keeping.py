"""The playouts' keep model (rummikub.xpress.keeping): what it keeps and why, the table's reach,
and that a throw always takes a die of the hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import Table
from rummikub.core.tiles import parse_tile
from rummikub.xpress import DieFace, default_layout, face_value
from rummikub.xpress.keeping import (
    FEATURES,
    KEEP_MODEL,
    KeepModel,
    die_features,
    kept_dice,
    table_reach,
    thrown_dice,
)
from rummikub.xpress.state import XpressState

from .xpress_helpers import dice_of, make_state


def _kept(state: XpressState) -> set[str]:
    melds = tuple(m.tiles for m in state.table.melds)
    kept = kept_dice(state.hand, len(state.hands[1]), melds, state.idle, state.layout, 10)
    return {str(d.face) for d in state.hand if d.die in kept}


def test_low_faces_and_jokers_are_kept_high_faces_thrown() -> None:
    state = make_state("R1 K2 J R11 B12 O13", "B5 O7 K9", phase="throw")
    assert _kept(state) == {"R1", "K2", "J"}
    melds = tuple(m.tiles for m in state.table.melds)
    thrown = thrown_dice(state.hand, 3, melds, state.idle, state.layout, 10)
    assert thrown == set(dice_of(state, "R11 B12 O13"))


def test_a_low_die_whose_faces_fit_the_table_is_thrown_again() -> None:
    """The R1 of die 0 (faces R1 K2 O5 B9 R11 B12) is kept on an empty table; when K2, O5 and
    B9 would each join a set on the table, half its faces fit: it is thrown again."""
    alone = make_state("R1 R11 B12", "R5 O1 K9", phase="throw")
    assert _kept(alone) == {"R1"}
    table = "B6 B7 B8 | K3 K4 K5 | O2 O3 O4"
    fitting = make_state("R1 R11 B12", "R5 O1 K9", table, phase="throw")
    r1 = next(i for i, d in enumerate(fitting.hand) if str(d.face) == "R1")
    melds = tuple(m.tiles for m in fitting.table.melds)
    rows = die_features(fitting.hand, 3, melds, fitting.idle, fitting.layout, 10)
    assert rows[r1][FEATURES.index("reach")] == pytest.approx(0.5)
    assert _kept(fitting) == set()


def test_the_beginning_of_a_set_is_kept() -> None:
    """R5 counts a little below its die's mean (not low enough alone); beside R6 it is kept."""
    assert _kept(make_state("R5 B12 O13", "B5 O1 K9", phase="throw")) == set()
    assert "R5" in _kept(make_state("R5 R6 B12 O13", "B5 O1 K9", phase="throw"))


def test_the_reach_of_a_table() -> None:
    reach = table_reach(tuple(m.tiles for m in Table.parse("K6 K7 K8 | R4 B4 O4").melds))
    assert {"K5", "K9", "K4", "J"} <= {str(f) for f in reach}
    assert not {"R5", "K10", "B4", "K11"} & {str(f) for f in reach}
    assert table_reach(()) == frozenset()
    # a die splitting a run: K6 joins K4 K5 K6 K7 K8 as K4 K5 K6 | K6 K7 K8
    split = table_reach((tuple(Table.parse("K4 K5 K6 K7 K8").melds[0].tiles),))
    assert parse_tile("K6") in split


def test_a_model_weighs_every_feature() -> None:
    with pytest.raises(ValueError, match="7 features"):
        KeepModel(0.0, (1.0, 2.0))
    assert KeepModel(1.0, (0.0,) * len(FEATURES)).score([5.0] * len(FEATURES)) == 1.0


_LAYOUT = default_layout()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 17), min_size=1, max_size=9, unique=True),
    st.data(),
    st.integers(0, 9),
    st.tuples(st.integers(0, 3), st.integers(0, 3)),
)
def test_a_throw_takes_at_least_one_die_of_the_hand(
    dice: list[int], data: st.DataObject, other: int, idle: tuple[int, int]
) -> None:
    hand = [DieFace(d, data.draw(st.sampled_from(_LAYOUT.faces_of(d)))) for d in dice]
    thrown = thrown_dice(hand, other, (), idle, _LAYOUT, 10)
    assert thrown and thrown <= set(dice)
    kept = kept_dice(hand, other, (), idle, _LAYOUT, 10, KEEP_MODEL)
    if kept == set(dice):  # every die kept: the one counting the most is thrown
        (only,) = thrown
        top = max(face_value(d.face) for d in hand)
        assert face_value(next(d.face for d in hand if d.die == only)) == top
    else:
        assert thrown == set(dice) - kept
