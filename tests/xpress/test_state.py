"""Unit tests for every Xpress turn rule (RULES.md section 2, docs/xpress.md)."""

from __future__ import annotations

import pytest

from rummikub.core.errors import Code, IllegalPlayError, UsageError
from rummikub.core.table import Table
from rummikub.core.tiles import JOKER, Tile
from rummikub.xpress import (
    DieFace,
    EndTurn,
    Place,
    Throw,
    XpressRules,
    XpressState,
    apply,
    check,
    default_layout,
)

from .xpress_helpers import allocate, dice_of, make_state


def place(state: XpressState, faces: str, table: str) -> XpressState:
    return apply(state, Place(dice_of(state, faces), Table.parse(table)))


def reason(state: XpressState, action: Throw | Place | EndTurn) -> str:
    err = check(state, action)
    assert err is not None, f"{action} should be illegal"
    return err.reason


# --------------------------------------------------------------------------- round setup
def test_start_uses_the_setup_roll_as_first_throw() -> None:
    h0, h1 = allocate(["K1 K2 K3 R9 B9", "O5 O6 B1 B2 R4"])
    state = XpressState.start(XpressRules(dice_per_player=5), default_layout(), [h0, h1], 1)
    assert state.current == 1 and state.phase == "place"
    assert state.can_place is False  # O5 O6 B1 B2 R4 holds no set
    state = apply(state, EndTurn())
    # player 0's first turn also uses the roll: no throw, and he can place K1 K2 K3
    assert state.current == 0 and state.phase == "place" and state.can_place
    state = place(state, "K1 K2 K3", "K1 K2 K3")
    state = apply(state, EndTurn())
    assert state.current == 1 and state.phase == "throw"


def test_start_rejects_bad_setups() -> None:
    h0, h1 = allocate(["K1 K2", "O5 O6 B1"])
    with pytest.raises(IllegalPlayError, match="has 2 dice") as err:
        XpressState.start(XpressRules(dice_per_player=3), default_layout(), [h0, h1], 0)
    assert err.value.code == Code.BAD_DICE and err.value.params == {"count": 2, "dice": 3}
    # seats that do not fit misuse the API
    with pytest.raises(UsageError, match="not a seat") as misuse:
        XpressState.start(XpressRules(dice_per_player=3), default_layout(), [h1, h1], 2)
    assert misuse.value.code == Code.BAD_SEAT and misuse.value.params == {"seat": 2}
    with pytest.raises(UsageError, match="for 2 players") as misuse:
        XpressState.start(XpressRules(dice_per_player=3), default_layout(), [h1], 0)
    assert misuse.value.code == Code.BAD_SEAT
    with pytest.raises(IllegalPlayError, match="dealt twice"):
        XpressState.start(XpressRules(dice_per_player=3), default_layout(), [h1, h1], 0)
    with pytest.raises(IllegalPlayError, match="no face"):
        bad = (DieFace(0, Tile(0, 13)), *h1[1:])  # die 0 of the default layout has no K13
        XpressState.start(XpressRules(dice_per_player=3), default_layout(), [bad, h1], 0)


# --------------------------------------------------------------------------------- throws
def test_throw_only_own_unplaced_dice_any_subset() -> None:
    state = make_state("K1 R5 B9", "O2 O4 B7", phase="throw")
    mine = dice_of(state, "R5 B9")
    face_r5 = default_layout().faces_of(mine[0])[0]
    face_b9 = default_layout().faces_of(mine[1])[0]
    after = apply(state, Throw(mine, (face_r5, face_b9)))
    assert after.phase == "place"
    faces = {d.die: d.face for d in after.hands[0]}
    assert faces[mine[0]] == face_r5 and faces[mine[1]] == face_b9
    # the die not thrown keeps its face
    assert faces[dice_of(state, "K1")[0]] == Tile(0, 1)
    theirs = dice_of(state, "O2", player=1)
    assert reason(state, Throw(theirs, (Tile(3, 2),))) == "not-in-hand"
    assert reason(state, Throw((), ())) == "no-dice"
    assert reason(state, Throw(mine[:1] * 2, (face_r5, face_r5))) == "no-dice"
    assert reason(state, Throw(mine[:1], None)) == "no-faces"


def test_throw_faces_must_be_faces_of_the_die() -> None:
    state = make_state("K1 R5 B9", "O2 O4 B7", phase="throw")
    die = dice_of(state, "K1")[0]
    missing = next(
        Tile(c, n)
        for c in range(4)
        for n in range(1, 14)
        if Tile(c, n) not in default_layout().faces_of(die)
    )
    assert reason(state, Throw((die,), (missing,))) == "bad-face"


def test_one_throw_per_turn_and_throw_before_placing() -> None:
    state = make_state("K1 K2 K3", "O2 O4 B7", phase="throw")
    assert reason(state, Place(dice_of(state, "K1 K2 K3"), Table.parse("K1 K2 K3"))) == (
        "must-throw"
    )
    assert reason(state, EndTurn()) == "must-throw"
    placing = make_state("K1 K2 K3", "O2 O4 B7")
    die = dice_of(placing, "K1")[0]
    assert reason(placing, Throw((die,), (Tile(0, 1),))) == "already-thrown"


# ----------------------------------------------------------------------------- placement
def test_place_a_new_set_no_opening_minimum() -> None:
    state = make_state("K1 K2 K3 O9", "O2 O4 B7")
    after = place(state, "K1 K2 K3", "K1 K2 K3")  # worth 6: no minimum
    assert str(after.table) == "K1 K2 K3"
    assert [str(d.face) for d in after.hands[0]] == ["O9"]
    assert after.placed == 3


def test_add_to_a_table_set_and_rearrange() -> None:
    state = make_state("R4 B6 O1", "O2 O4 B7", "R1 R2 R3 | K6 R6 O6 | R5 R6 R7")
    after = place(state, "R4", "R1 R2 R3 R4 | K6 R6 O6 | R5 R6 R7")
    assert after.placed == 1
    # rearranging: split R1..R4 to free R4, make R4 R5 R6 R7 and place B6 into the group
    after = place(after, "B6", "R1 R2 R3 | R4 R5 R6 R7 | K6 R6 O6 B6")
    assert after.placed == 2
    assert sorted(str(d.face) for d in after.table_dice) == sorted(
        str(t) for t in after.table.tiles()
    )


def test_every_set_must_be_valid() -> None:
    state = make_state("R4 B6 O1", "O2 O4 B7", "R1 R2 R3")
    assert reason(state, Place(dice_of(state, "B6"), Table.parse("R1 R2 R3 B6"))) == (
        "invalid-meld"
    )
    assert reason(state, Place(dice_of(state, "O1"), Table.parse("R1 R2 R3 | O1"))) == (
        "invalid-meld"
    )


def test_dice_on_the_table_stay_and_keep_their_faces() -> None:
    state = make_state("R4 B6 O1", "O2 O4 B7", "R1 R2 R3 | K6 R6 O6")
    # taking R1 off the table (back to no set) is not allowed
    assert reason(state, Place(dice_of(state, "R4"), Table.parse("R2 R3 R4 | K6 R6 O6"))) == (
        "table-tile-missing"
    )
    # turning a table die to another face is not allowed: R3 cannot become R5
    assert reason(state, Place(dice_of(state, "R4"), Table.parse("R1 R2 R4 R5 | K6 R6 O6"))) in (
        "table-tile-missing",
        "tile-from-nowhere",
    )
    # a placed die must appear on the new table, and nothing may come from nowhere
    assert reason(state, Place(dice_of(state, "R4"), Table.parse("R1 R2 R3 | K6 R6 O6"))) == (
        "tile-missing"
    )
    assert (
        reason(state, Place(dice_of(state, "R4"), Table.parse("R1 R2 R3 R4 R5 | K6 R6 O6")))
        == "tile-from-nowhere"
    )


def test_placing_needs_own_dice() -> None:
    state = make_state("R4 B6 O1", "R5 O4 B7", "R1 R2 R3")
    theirs = dice_of(state, "R5", player=1)
    assert reason(state, Place(theirs, Table.parse("R1 R2 R3 R5"))) == "not-in-hand"
    assert reason(state, Place((), Table.parse("R1 R2 R3"))) == "no-dice"


# --------------------------------------------------------------------------------- jokers
def test_joker_die_stands_for_any_number_in_any_colour() -> None:
    state = make_state("K7 J B7", "O2 O4 B8")
    after = place(state, "K7 J B7", "K7 B7 J")
    assert after.table.melds[0].tiles.count(JOKER) == 1
    state = make_state("O11 J O13", "O2 O4 B8")
    assert place(state, "O11 J O13", "O11 J O13").placed == 3


def test_freed_joker_must_go_into_another_set_in_the_same_turn() -> None:
    # table: R5 J R7 (joker stands for R6); player has R6 and K9 B9
    state = make_state("R6 K9 B9", "O2 O4 B8", "R5 J R7")
    # replace the joker by R6 and use it with K9 B9: legal
    after = place(state, "R6 K9 B9", "R5 R6 R7 | K9 B9 J")
    assert after.placed == 3 and after.end is not None  # all dice placed: round won
    # replacing the joker but leaving it out of every set is illegal
    assert reason(state, Place(dice_of(state, "R6"), Table.parse("R5 R6 R7"))) == (
        "table-tile-missing"
    )
    # taking the joker without a valid replacement breaks the run
    assert (
        reason(state, Place(dice_of(state, "K9 B9"), Table.parse("R5 R7 | K9 B9 J")))
        == "invalid-meld"
    )


def test_joker_freed_by_rearranging_so_the_set_stays_valid() -> None:
    state = make_state("R8 O1 O2", "K2 K4 B8", "R5 R6 R7 J")
    # the run R5..R8 stays valid without the joker, which goes with O1 O2 into a new run
    after = place(state, "R8 O1 O2", "R5 R6 R7 R8 | O1 O2 J")
    assert after.end is not None and after.end.winner == 0


# ------------------------------------------------------------------- obligation to place
def test_must_place_when_a_placement_is_possible() -> None:
    state = make_state("K1 K2 K3 O9", "O2 O4 B7")
    assert state.can_place
    assert reason(state, EndTurn()) == "must-place"
    after = place(state, "K1 K2 K3", "K1 K2 K3")
    assert apply(after, EndTurn()).current == 1


def test_a_held_set_must_be_placed_before_the_turn_ends() -> None:
    # "If the player has a set, he/she must place it on the table"
    state = make_state("R4 R7 R8 R9 B1", "O2 O4 B7", "R1 R2 R3")
    after = place(state, "R4", "R1 R2 R3 R4")
    assert reason(after, EndTurn()) == "must-place-set"  # R7 R8 R9 is still in hand
    assert not after.may_end_turn()
    done = place(after, "R7 R8 R9", "R1 R2 R3 R4 | R7 R8 R9")
    assert apply(done, EndTurn()).current == 1


def test_placing_one_die_was_enough_without_must_place_sets() -> None:
    rules = XpressRules(dice_per_player=4, must_place_sets=False)
    state = make_state("R4 R7 R8 R9", "O2 O4 B7", "R1 R2 R3", rules=rules)
    after = place(state, "R4", "R1 R2 R3 R4")
    nxt = apply(after, EndTurn())  # R7 R8 R9 could still be placed: the player chose not to
    assert nxt.current == 1


def test_end_turn_allowed_when_nothing_can_be_placed() -> None:
    state = make_state("K1 R5 B9", "O2 O4 B7", "R1 R2 R3")
    assert not state.can_place
    after = apply(state, EndTurn())
    assert after.current == 1 and after.idle == (1, 0)


def test_must_place_counts_table_additions_and_rearrangements() -> None:
    # no set from own dice, but R4 fits on the table: the player must place it
    state = make_state("R4 K9 B1", "O2 O4 B7", "R1 R2 R3")
    assert state.can_place
    assert reason(state, EndTurn()) == "must-place"


# ----------------------------------------------------------------------- end of a round
def test_placing_all_dice_wins_and_scores_the_others_dice_joker_10() -> None:
    state = make_state("K1 K2 K3", "O2 J B7")
    after = place(state, "K1 K2 K3", "K1 K2 K3")
    assert after.end is not None
    assert after.end.reason == "out" and after.end.winner == 0
    assert after.end.totals == (0, 2 + 10 + 7)
    assert after.end.scores == (19, 0)


def test_blocked_after_three_idle_throws_each() -> None:
    state = make_state("K1 R5 B9", "O2 O4 B7", idle=(2, 3))
    assert not state.can_place
    after = apply(state, EndTurn())
    assert after.end is not None
    assert after.end.reason == "blocked"
    # totals: 1 + 5 + 9 = 15 and 2 + 4 + 7 = 13: the lower wins the difference
    assert after.end.totals == (15, 13)
    assert after.end.winner == 1 and after.end.scores == (0, 2)


def test_blocked_tie_is_a_drawn_round() -> None:
    state = make_state("K1 R5 B9", "O2 O6 B7", idle=(2, 3))
    after = apply(state, EndTurn())
    assert after.end is not None and after.end.winner is None and after.end.scores == (0, 0)


def test_not_blocked_until_each_player_has_three() -> None:
    state = make_state("K1 R5 B9", "O2 O4 B7", idle=(2, 1))
    after = apply(state, EndTurn())
    assert after.end is None and after.idle == (3, 1)


def test_any_placement_resets_the_blocked_count() -> None:
    state = make_state("R4 K9 B1", "O2 O4 B7", "R1 R2 R3", idle=(2, 3))
    after = place(state, "R4", "R1 R2 R3 R4")
    assert after.idle == (0, 0)


def test_nothing_happens_after_the_round_ends() -> None:
    state = make_state("K1 K2 K3", "O2 J B7")
    after = place(state, "K1 K2 K3", "K1 K2 K3")
    # acting after the round ended misuses the API (it is not an illegal move)
    for act in (lambda: check(after, EndTurn()), lambda: apply(after, EndTurn())):
        with pytest.raises(UsageError) as err:
            act()
        assert err.value.code == Code.ROUND_OVER and not isinstance(err.value, IllegalPlayError)


def test_illegal_action_changes_nothing() -> None:
    state = make_state("R4 B6 O1", "O2 O4 B7", "R1 R2 R3")
    before = repr(state)
    with pytest.raises(IllegalPlayError):
        apply(state, Place(dice_of(state, "B6"), Table.parse("R1 R2 R3 B6")))
    assert repr(state) == before
