"""Jokers on the table: the ``free`` and ``strict`` rules, ``group_needs_both_colours``,
``joker_swap_from_rack`` and ``freed_joker_new_set``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummikub.core import RoundState, Rules, check_play, preset

from .strategies import STANDARD, play, position

STRICT = STANDARD.replace(joker_rule="strict")
#: the strict rule of the 1987 Pressman text alone (no both-colours rule, no seed-004 extras)
STRICT_1987 = STRICT
BOTH = STANDARD.replace(group_needs_both_colours=True)
CLASSIC = preset("classic-strict")


def ok(state: RoundState, text: str) -> None:
    err = check_play(state, play(text))
    assert err is None, f"{text}: {err}"


def bad(state: RoundState, text: str, reason: str) -> None:
    err = check_play(state, play(text))
    assert err is not None, f"{text} was accepted"
    assert err.reason == reason, str(err)


def at(table: str, rack: str, rules: Rules, opened: bool = True) -> RoundState:
    return position(table, [rack, "K1"], opened=[opened, True], rules=rules)


ALL = [STANDARD, STRICT, BOTH, CLASSIC]


# ------------------------------------------------------------------- every variant
@pytest.mark.parametrize("rules", ALL)
def test_retrieve_a_run_joker_by_replacement_and_reuse_it(rules: Rules) -> None:
    state = at("R4 J R6 | K8 B8 O8", "R5 B10 B11", rules)
    ok(state, "R5 B10 B11 -> R4 R5 R6 | K8 B8 O8 | B10 B11 J")
    if rules.joker_rule == "free":
        ok(state, "R5 -> R4 R5 R6 | K8 B8 O8 J")
    else:  # strict: the freed joker must go into a new meld, not onto an existing one
        bad(state, "R5 -> R4 R5 R6 | K8 B8 O8 J", "joker-rule")
    if rules.freed_joker_new_set:  # classic-strict (seed 004): the joker must leave its set
        bad(state, "R5 -> R4 R5 R6 J | K8 B8 O8", "joker-rule")
    elif rules.joker_rule == "strict":
        # (the end state "R4 R5 R6 J" holds the whole old meld: it reads as added to)
        ok(state, "R5 -> R4 R5 R6 J | K8 B8 O8")


@pytest.mark.parametrize("rules", ALL)
def test_freed_joker_must_stay_on_the_table(rules: Rules) -> None:
    state = at("R4 J R6 | K8 B8 O8", "R5 B10 B11", rules)
    bad(state, "R5 -> R4 R5 R6 | K8 B8 O8", "table-tile-missing")


@pytest.mark.parametrize("rules", ALL)
def test_joker_melds_may_be_added_to(rules: Rules) -> None:
    ok(at("R4 J R6", "R7 R3", rules), "R3 R7 -> R3 R4 J R6 R7")
    ok(at("K7 B7 J", "R7", rules), "R7 -> K7 R7 B7 J")


@pytest.mark.parametrize("rules", ALL)
def test_no_retrieval_before_opening(rules: Rules) -> None:
    state = at("R4 J R6", "R5 K10 K11 K12", rules, opened=False)
    bad(state, "R5 K10 K11 K12 -> R4 R5 R6 | K10 K11 K12 J", "opening-touches-table")
    ok(state, "K10 K11 K12 -> R4 J R6 | K10 K11 K12")


# ------------------------------------------------------------------------------ free
def test_free_joker_melds_can_be_split_and_rearranged() -> None:
    state = at("R1 R2 J R4 R5 R6 | K9 B9 J", "R3 O9", STANDARD)
    ok(state, "R3 -> R1 R2 J | R3 R4 R5 R6 | K9 B9 J")  # split, joker now stands for R3
    ok(state, "O9 -> R1 R2 J R4 R5 R6 J | K9 B9 O9")  # freed joker extends the run
    bad(state, "O9 -> R1 R2 J R4 R5 R6 | K9 B9 O9 | J", "invalid-meld")


def test_free_replacement_from_elsewhere_on_the_table() -> None:
    state = at("R4 J R6 | K5 R5 B5 O5", "K9 K10", STANDARD)
    ok(state, "K9 K10 -> R4 R5 R6 | K5 B5 O5 | K9 K10 J")


def test_free_group_of_three_either_missing_colour_frees_it() -> None:
    for face in ("R7", "O7"):
        state = at("K7 B7 J", f"{face} B1 B2", STANDARD)
        ok(state, f"{face} B1 B2 -> K7 B7 {face} | B1 B2 J")


def test_free_tiles_may_be_taken_from_a_joker_meld() -> None:
    state = at("R3 R4 J R6 | K1 K2 K3", "R1 R2", STANDARD)
    ok(state, "R1 R2 -> R1 R2 R3 | R4 J R6 | K1 K2 K3")


# ---------------------------------------------------------------------------- strict
def test_strict_no_tile_may_be_taken_from_a_joker_meld() -> None:
    state = at("R3 R4 J R6 | K1 K2 K3", "R1 R2", STRICT)
    bad(state, "R1 R2 -> R1 R2 R3 | R4 J R6 | K1 K2 K3", "joker-rule")
    ok(state, "R1 R2 -> R1 R2 R3 R4 J R6 | K1 K2 K3")


def test_strict_joker_meld_may_not_be_split() -> None:
    state = at("R1 R2 J R4 R5 R6", "R3", STRICT)
    bad(state, "R3 -> R1 R2 J | R3 R4 R5 R6", "joker-rule")


def test_strict_melds_without_jokers_rearrange_freely() -> None:
    state = at("R1 R2 R3 R4 R5 R6 | K9 B9 J", "R4", STRICT)
    ok(state, "R4 -> R1 R2 R3 R4 | R4 R5 R6 | K9 B9 J")


def test_strict_replacement_from_the_table_is_allowed() -> None:
    state = at("R4 J R6 | K5 R5 B5 O5", "K9 K10", STRICT)
    ok(state, "K9 K10 -> R4 R5 R6 | K5 B5 O5 | K9 K10 J")


def test_strict_freed_joker_in_a_new_meld_of_table_tiles() -> None:
    state = at("R4 J R6 | K1 K2 K3 K4 | B4 B5 B6 B7", "R5", STRICT)
    ok(state, "R5 -> R4 R5 R6 | K1 K2 K3 | B5 B6 B7 | K4 B4 J")
    bad(state, "R5 -> R4 R5 R6 | K1 K2 K3 K4 J | B4 B5 B6 B7", "joker-rule")


def test_strict_group_of_three_either_colour_frees_the_joker() -> None:
    for face in ("R7", "O7"):
        ok(at("K7 B7 J", f"{face} B1 B2", STRICT), f"{face} B1 B2 -> K7 B7 {face} | B1 B2 J")


def test_strict_group_tiles_may_not_be_taken() -> None:
    state = at("K7 B7 O7 J | K8 K9", "K10", STRICT)
    bad(state, "K10 -> B7 O7 J | K7 K8 K9 K10", "joker-rule")
    ok(replace(state, rules=STANDARD), "K10 -> B7 O7 J | K7 K8 K9 K10")


# ----------------------------------------------------------- group_needs_both_colours
@pytest.mark.parametrize("rules", [BOTH, CLASSIC])
def test_group_of_three_needs_both_missing_colours(rules: Rules) -> None:
    state = at("K7 B7 J", "R7 O7 B1 B2", rules)
    bad(state, "R7 B1 B2 -> K7 R7 B7 | B1 B2 J", "joker-rule")
    bad(state, "O7 B1 B2 -> K7 B7 O7 | B1 B2 J", "joker-rule")
    ok(state, "R7 O7 B1 B2 -> K7 R7 B7 O7 | B1 B2 J")


@pytest.mark.parametrize("rules", [BOTH, CLASSIC])
def test_group_of_four_frees_its_joker_with_the_missing_colour(rules: Rules) -> None:
    ok(at("K7 R7 B7 J", "O7 B1 B2", rules), "O7 B1 B2 -> K7 R7 B7 O7 | B1 B2 J")


def test_both_colours_does_not_restrict_runs() -> None:
    state = at("R4 J R6", "R5 B1 B2", BOTH)
    ok(state, "R5 B1 B2 -> R4 R5 R6 | B1 B2 J")


def test_both_colours_with_free_allows_other_rearrangements() -> None:
    # a run holding a joker is still free to split under group_needs_both_colours alone
    state = at("R1 R2 J R4 R5 R6", "R3", BOTH)
    ok(state, "R3 -> R1 R2 J | R3 R4 R5 R6")
    # ... but not under classic-strict
    bad(at("R1 R2 J R4 R5 R6", "R3", CLASSIC), "R3 -> R1 R2 J | R3 R4 R5 R6", "joker-rule")


# ---------------------------------------------------------- freed_joker_new_set
NEW_SET = STANDARD.replace(freed_joker_new_set=True)


def test_presets_of_the_freed_joker_rule() -> None:
    assert CLASSIC.freed_joker_new_set and CLASSIC.joker_swap_from_rack
    for name in ("standard", "swedish-tin", "tournament", "xp", "casual"):
        assert not preset(name).freed_joker_new_set
        assert not preset(name).joker_swap_from_rack


@pytest.mark.parametrize("rules", [NEW_SET, CLASSIC, STRICT.replace(freed_joker_new_set=True)])
def test_replaced_joker_may_not_stay_in_its_set(rules: Rules) -> None:
    # the brief's case: R5 J R7 plus R6 -> R5 R6 R7 J keeps the joker in its own set
    state = at("R5 J R7 | K9 B9 O9", "R6 B1 B2", rules)
    bad(state, "R6 -> R5 R6 R7 J | K9 B9 O9", "joker-rule")
    bad(state, "R6 -> J R5 R6 R7 | K9 B9 O9", "joker-rule")
    # the joker becomes part of another set: accepted
    ok(state, "R6 B1 B2 -> R5 R6 R7 | K9 B9 O9 | B1 B2 J")
    # adding to the run without replacing the joker is still adding to it
    ok(at("R5 J R7", "R8 R4", rules), "R4 R8 -> R4 R5 J R7 R8")


def test_freed_joker_new_set_under_free_rules() -> None:
    state = at("R5 J R7 | K9 B9 O9", "R6 R8", NEW_SET)
    bad(state, "R6 R8 -> R5 R6 R7 R8 J | K9 B9 O9", "joker-rule")
    ok(state, "R6 -> R5 R6 R7 | K9 B9 O9 J")  # into another (existing) set: free allows it
    # the same play without the option: the joker may stay (the old behaviour)
    ok(at("R5 J R7 | K9 B9 O9", "R6 R8", STANDARD), "R6 R8 -> R5 R6 R7 R8 J | K9 B9 O9")
    # the replacing tile may come from the table under the free rule
    state = at("R5 J R7 | K6 R6 B6 O6 | B1 B2 B3", "B4", NEW_SET)
    ok(state, "B4 -> R5 R6 R7 | K6 B6 O6 | B1 B2 B3 B4 J")
    bad(state, "B4 -> R5 R6 R7 J | K6 B6 O6 | B1 B2 B3 B4", "joker-rule")


def test_freed_joker_new_set_split_run_counts_as_another_set() -> None:
    # R3 R4 J R6 R7 + R5: the joker ends in "J R6 R7", a set that does not hold its old set
    state = at("R3 R4 J R6 R7", "R5", NEW_SET)
    ok(state, "R5 -> R3 R4 R5 | J R6 R7")


def test_freed_joker_new_set_two_jokers_one_replaced() -> None:
    state = at("R5 J J R8", "R6 B1 B2", NEW_SET)
    # R6 replaces one joker; the other still stands for R7: one joker may stay, not two
    ok(state, "R6 B1 B2 -> R5 R6 J R8 | B1 B2 J")
    bad(state, "R6 -> R5 R6 J R8 J", "joker-rule")


def test_freed_joker_new_set_groups_are_added_to() -> None:
    # a joker in a group stands for any missing colour: adding a colour is adding to the group
    ok(at("K7 B7 J", "R7", NEW_SET), "R7 -> K7 R7 B7 J")


def test_freed_joker_new_set_untouched_run_with_a_copy_elsewhere() -> None:
    # the old run is still there whole; a new run from the rack's own copies is another set
    state = at("R5 J R7", "R5 R6 R7 J", NEW_SET)
    ok(state, "R5 R6 R7 J -> R5 J R7 | R5 R6 R7 J")


def test_freed_joker_new_set_missing_key_in_a_stored_record_is_the_old_behaviour() -> None:
    data = CLASSIC.to_dict()
    del data["freed_joker_new_set"], data["joker_swap_from_rack"]
    assert Rules.from_dict(data).freed_joker_new_set  # a partial object: from the preset
    old = Rules.from_dict(data, stored=True)  # a record written before the option existed
    assert not old.freed_joker_new_set and not old.joker_swap_from_rack


# ---------------------------------------------------------- joker_swap_from_rack
def test_swap_from_rack_refuses_a_replacing_tile_from_the_table() -> None:
    state = at("R4 J R6 | K5 R5 B5 O5", "K9 K10", CLASSIC)
    bad(state, "K9 K10 -> R4 R5 R6 | K5 B5 O5 | K9 K10 J", "joker-rule")
    # the 1987 strict rule alone accepts it (test_strict_replacement_from_the_table_is_allowed)
    ok(replace(state, rules=STRICT_1987), "K9 K10 -> R4 R5 R6 | K5 B5 O5 | K9 K10 J")
    # the very tile from the rack: accepted
    state = at("R4 J R6 | K5 R5 B5 O5", "R5 K9 K10", CLASSIC)
    ok(state, "R5 K9 K10 -> R4 R5 R6 | K5 R5 B5 O5 | K9 K10 J")


def test_swap_from_rack_in_a_group() -> None:
    # both colours are needed (classic-strict); one of them -- the tile that replaces the
    # joker -- must come from the rack, the other may come from the table
    state = at("K7 B7 J | R7 R8 R9 R10 | O7 O8 O9 O10", "O7 B1 B2", CLASSIC)
    ok(state, "O7 B1 B2 -> K7 R7 B7 O7 | R8 R9 R10 | O7 O8 O9 O10 | B1 B2 J")
    bad(state, "B1 B2 -> K7 R7 B7 O7 | R8 R9 R10 | O8 O9 O10 | B1 B2 J", "joker-rule")
    ok(replace(state, rules=STRICT), "B1 B2 -> K7 R7 B7 O7 | R8 R9 R10 | O8 O9 O10 | B1 B2 J")
    state = at("K7 B7 J", "R7 O7 B1 B2", CLASSIC)
    ok(state, "R7 O7 B1 B2 -> K7 R7 B7 O7 | B1 B2 J")
