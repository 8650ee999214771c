"""Play validation: the three end-state rules, the opening, and pure ``apply``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummikub.core import (
    Code,
    Draw,
    IllegalPlayError,
    Meld,
    Pass,
    Play,
    Rack,
    RoundState,
    Table,
    Timeout,
    UsageError,
    apply,
    check_play,
    parse_tiles,
    preset,
    validate,
)

from .strategies import STANDARD, play, position


def reject(state: RoundState, text: str, reason: str, *fragments: str) -> IllegalPlayError:
    err = check_play(state, play(text))
    assert err is not None, f"{text} was accepted"
    assert err.reason == reason, str(err)
    for fragment in fragments:
        assert fragment in str(err), str(err)
    with pytest.raises(IllegalPlayError):
        validate(state, play(text))
    with pytest.raises(IllegalPlayError):
        apply(state, play(text))
    return err


def accept(state: RoundState, text: str) -> RoundState:
    assert check_play(state, play(text)) is None, str(check_play(state, play(text)))
    validate(state, play(text))
    return apply(state, play(text))


OPENED = position("R1 R2 R3 | K5 B5 O5", ["R4 K5 J B9", "K1"], pool="O13 O12")


def test_extend_a_run() -> None:
    after = accept(OPENED, "R4 -> R1 R2 R3 R4 | K5 B5 O5")
    assert str(after.racks[0]) == "K5 B9 J"
    assert str(after.table) == "R1 R2 R3 R4 | K5 B5 O5"
    assert after.current == 1 and after.turn == 1
    assert after.pool == OPENED.pool
    assert after.racks[1] == OPENED.racks[1]


def test_rearrange_freely_only_the_end_state_is_judged() -> None:
    state = position("R1 R2 R3 R4 R5 R6 | K5 B5 O5 | B6 B7 B8", ["R5 O6 O7 B9"])
    accept(state, "R5 -> R1 R2 R3 | R4 R5 R6 | K5 B5 O5 R5 | B6 B7 B8")
    reject(
        state, "O6 O7 -> R1 R2 R3 R4 R5 R6 | K5 B5 | O5 O6 O7 | B6 B7 B8", "invalid-meld", "(K5 B5)"
    )
    accept(state, "O6 B9 -> R1 R2 R3 R4 R5 | K5 B5 O5 | R6 B6 O6 | B7 B8 B9")
    reject(state, "O6 -> R1 R2 R3 R4 R5 | K5 B5 O5 | R6 B6 O6 | B7 B8", "invalid-meld")


def test_invalid_meld_names_which_and_why() -> None:
    err = reject(
        OPENED,
        "K5 B9 J -> R1 R2 R3 | K5 B5 O5 | K5 B9 J",
        "invalid-meld",
        "meld 3 (K5 B9 J)",
        "neither a group",
    )
    assert err.meld == 2
    err = reject(OPENED, "R4 -> R1 R2 R3 | K5 B5 O5 | R4", "invalid-meld", "meld 3", "at least 3")
    assert err.meld == 2
    reject(OPENED, "K5 -> R1 R2 R3 | K5 B5 O5 K5", "invalid-meld", "K5 appears twice")


def test_table_tile_never_goes_back_to_a_rack() -> None:
    reject(OPENED, "R4 -> R1 R2 R3 R4", "table-tile-missing", "K5 B5 O5")
    reject(OPENED, "R4 -> R2 R3 R4 | K5 B5 O5", "table-tile-missing", "R1")
    state = position("R4 J R6 | K8 B8 O8", ["R5 K3"])
    reject(state, "R5 -> R4 R5 R6 | K8 B8 O8", "table-tile-missing", "J")


def test_tile_not_on_rack() -> None:
    reject(OPENED, "R5 -> R1 R2 R3 R5 | K5 B5 O5", "not-on-rack", "R5")
    reject(OPENED, "R4 R4 -> R1 R2 R3 R4 | K5 B5 O5 | R4", "not-on-rack", "R4")
    reject(OPENED, "J J -> R1 R2 R3 J J | K5 B5 O5", "not-on-rack", "J")
    reject(OPENED, "R14 -> R1 R2 R3 | K5 B5 O5", "not-on-rack", "R14")


def test_at_least_one_tile_from_the_rack() -> None:
    reject(OPENED, "-> R1 R2 R3 | K5 B5 O5", "no-rack-tile")
    reject(OPENED, "-> R1 R2 | R3 K5 B5 O5", "no-rack-tile")


def test_placed_tiles_must_be_on_the_table_and_nothing_else() -> None:
    reject(OPENED, "R4 J -> R1 R2 R3 R4 | K5 B5 O5", "tile-missing", "J")
    reject(OPENED, "R4 -> R1 R2 R3 R4 J | K5 B5 O5", "tile-from-nowhere", "J")


def test_melds_kept_as_the_same_objects_are_counted_by_identity() -> None:
    # the engine counts only the melds a play changed, matching the others by identity: a
    # table holding one meld object twice keeps both copies only when the new table does
    run = Meld.parse("R1 R2 R3")
    group = Meld.parse("K5 B5 O5")
    state = replace(OPENED, table=Table((run, run, group)),
                    racks=(Rack.parse("R4 R4 K5"), OPENED.racks[1]))  # fmt: skip
    ok = Play(parse_tiles("R4"), Table((run, Meld.parse("R1 R2 R3 R4"), group)))
    assert check_play(state, ok) is None
    dropped = check_play(
        state, Play(parse_tiles("R4"), Table((run, group, Meld.parse("R4 R4 R4"))))
    )
    assert dropped is not None and dropped.reason == "table-tile-missing"
    assert "R1 R2 R3" in str(dropped)
    twice = check_play(state, Play(parse_tiles("R4"), Table((run, run, run, group))))
    assert twice is not None and twice.reason == "tile-missing"
    doubled = check_play(state, Play(parse_tiles("K5"), Table((run, run, group, group))))
    assert doubled is not None and doubled.reason == "tile-from-nowhere"
    assert "B5" in str(doubled) and "O5" in str(doubled)
    # the same melds as new objects: judged alike
    same = Play(parse_tiles("R4"), Table.parse("R1 R2 R3 | R1 R2 R3 R4 | K5 B5 O5"))
    assert check_play(state, same) is None


def test_round_over() -> None:
    state = accept(position("R1 R2 R3", ["R4", "K1"]), "R4 -> R1 R2 R3 R4")
    assert state.end is not None
    # acting after the round ended misuses the API (it is not an illegal play)
    with pytest.raises(UsageError) as err:
        check_play(state, play("R4 -> R1 R2 R3 R4"))
    assert err.value.code == Code.ROUND_OVER
    for action in (Draw(), Pass(), Timeout(), play("R4 -> R1 R2 R3 R4")):
        with pytest.raises(UsageError):
            apply(state, action)


# ------------------------------------------------------------------------------- opening
FRESH = position("R1 R2 R3", ["K10 K11 K12 R9 J R11 B1 B2 B3 R4 O7 B7 K7"], opened=[False, True])


def test_opening_reaches_the_opening_value() -> None:
    after = accept(FRESH, "K10 K11 K12 -> R1 R2 R3 | K10 K11 K12")
    assert after.opened == (True, True)
    accept(FRESH, "R9 J R11 -> R1 R2 R3 | R9 J R11")  # the joker counts as R10: 30
    accept(FRESH, "K7 O7 B7 B1 B2 B3 J -> R1 R2 R3 | K7 B7 O7 | B1 B2 B3 J")  # 21 + 10
    reject(FRESH, "K7 O7 B7 -> R1 R2 R3 | K7 B7 O7", "opening-value", "21", "30")
    reject(FRESH, "B1 B2 B3 J -> R1 R2 R3 | J B1 B2 B3", "opening-value")  # J=B0 impossible
    reject(FRESH, "K7 O7 B7 J -> R1 R2 R3 | K7 B7 O7 J", "opening-value", "28")


def test_opening_may_not_touch_the_table() -> None:
    reject(
        FRESH,
        "K10 K11 K12 R4 -> R1 R2 R3 R4 | K10 K11 K12",
        "opening-touches-table",
    )
    # table tiles may not help reach 30 either
    reject(FRESH, "K7 O7 B7 R4 -> R1 R2 R3 R4 | K7 B7 O7", "opening-touches-table")
    reject(FRESH, "K7 O7 B7 -> R1 R2 | R3 K7 B7 O7", "invalid-meld")


def test_opening_may_not_reread_a_table_meld() -> None:
    state = position("R5 J=R6 J=R7", ["K10 K11 K12"], opened=[False])
    accept(state, "K10 K11 K12 -> R5 J=R6 J=R7 | K10 K11 K12")
    accept(state, "K10 K11 K12 -> R5 J J | K10 K11 K12")  # the same meld, written bare
    # the same tiles made into a group of 5s is a rearrangement of the table
    reject(state, "K10 K11 K12 -> R5 J=5 J=5 | K10 K11 K12", "opening-touches-table")


def test_opening_value_is_a_parameter() -> None:
    state = position("", ["K7 B7 O7"], opened=[False], rules=STANDARD.replace(opening_value=21))
    accept(state, "K7 B7 O7 -> K7 B7 O7")
    state = position("", ["K7 B7 O7"], opened=[False], rules=STANDARD.replace(opening_value=22))
    reject(state, "K7 B7 O7 -> K7 B7 O7", "opening-value")


def test_after_opening_small_plays_are_fine() -> None:
    opened = position("R1 R2 R3", ["B1 B2 B3 R4"], opened=[True])
    accept(opened, "B1 B2 B3 -> R1 R2 R3 | B1 B2 B3")
    after = accept(opened, "R4 -> R1 R2 R3 R4")
    assert after.opened == (True,)


OTE = STANDARD.replace(open_then_extend=True)


def test_open_then_extend() -> None:
    text = "K10 K11 K12 R4 -> R1 R2 R3 R4 | K10 K11 K12"
    reject(FRESH, text, "opening-touches-table")
    state = position("R1 R2 R3", ["K10 K11 K12 R4 B1 B2"], opened=[False], rules=OTE)
    accept(state, text)
    # the rack-only melds must still reach 30 on their own
    reject(state, "B1 B2 R4 -> R1 R2 R3 R4 | B1 B2 J", "tile-from-nowhere")
    state = position(
        "R1 R2 R3 | K13 R13 B13 O13", ["K10 K11 K12 R4 B1 B2"], opened=[False], rules=OTE
    )
    accept(state, "K10 K11 K12 -> R1 R2 R3 | R13 B13 O13 | K10 K11 K12 K13")
    state = position("R5 R6 R7 | K9 B9 O9", ["R4 B1 B2 R8", "K1"], opened=[False], rules=OTE)
    reject(state, "R4 R8 -> R4 R5 R6 R7 R8 | K9 B9 O9", "opening-value")


# ------------------------------------------------------------------- turns and purity
def test_draw_takes_the_front_of_the_pool_and_ends_the_turn() -> None:
    after = apply(OPENED, Draw())
    assert str(after.racks[0]) == "K5 R4 B9 O13 J"
    assert after.pool == parse_tiles("O12")
    assert after.current == 1 and after.turn == 1
    assert after.table == OPENED.table


def test_pass_only_when_the_pool_is_empty() -> None:
    with pytest.raises(IllegalPlayError) as info:
        apply(OPENED, Pass())
    assert info.value.reason == "pool-not-empty"
    empty = position("R1 R2 R3", ["R4", "K1"])
    with pytest.raises(IllegalPlayError) as info:
        apply(empty, Draw())
    assert info.value.reason == "pool-empty"
    after = apply(empty, Pass())
    assert after.current == 1 and after.passes == 1 and after.end is None


def test_apply_never_mutates_and_rejected_plays_change_nothing() -> None:
    snapshot = (OPENED.racks, OPENED.table, OPENED.pool, OPENED.opened, OPENED.turn)
    apply(OPENED, play("R4 -> R1 R2 R3 R4 | K5 B5 O5"))
    apply(OPENED, Draw())
    apply(OPENED, Timeout())
    with pytest.raises(IllegalPlayError):
        apply(OPENED, play("R4 -> R1 R2 R3 | R4"))
    assert (OPENED.racks, OPENED.table, OPENED.pool, OPENED.opened, OPENED.turn) == snapshot


def test_apply_stores_the_canonical_table() -> None:
    state = position("R1 R2 R3", ["R4 J O5 K5 B5"])
    after = accept(state, "J O5 K5 -> r3 r2 r1 | J O5 K5")
    assert str(after.table) == "R1 R2 R3 | K5 O5 J"
    assert after.table == Table.parse("R1 R2 R3 | K5 O5 J")
    after = accept(state, "R4 J -> R1 R2 R3 R4 J")
    assert str(after.table) == "R1 R2 R3 R4 J"


def test_other_preset_rules_validate_the_same() -> None:
    for name in ("classic-strict", "tournament", "xp", "casual"):
        state = position("R1 R2 R3", ["R4 K1"], rules=preset(name))
        accept(state, "R4 -> R1 R2 R3 R4")
