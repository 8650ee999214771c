"""Unit tests of the solver API on hand-made positions."""

from __future__ import annotations

import pytest

from rummikub.core.errors import IllegalPlayError, NotationError, RulesError
from rummikub.core.rules import preset
from rummikub.core.table import Rack, Table
from rummikub.core.tiles import parse_tiles
from rummikub.solver import (
    Position,
    Solution,
    all_best,
    arrangeable,
    best_per_count,
    changes,
    per_count,
    solve,
)

from .positions import check_solution

STANDARD = preset("standard")


def _solve(
    table: str,
    rack: str,
    *,
    opened: bool = True,
    rules_name: str = "standard",
    objective: str = "tiles",
    **changes_: object,
) -> Solution:
    rules = preset(rules_name).replace(**changes_) if changes_ else preset(rules_name)
    t, r = Table.parse(table), Rack.parse(rack)
    sol = solve(t, r, opened=opened, rules=rules, objective=objective)
    check_solution(t, r, opened, rules, sol)
    return sol


def test_formats_example_places_every_tile() -> None:
    sol = _solve("R1 R2 R3 | K5 B5 O5", "R4 J K1")
    assert sol.tiles == 3
    assert sorted(map(str, sol.play)) == ["J", "K1", "R4"]
    assert sol.value == 6  # R4 + K1 + the joker standing for a 1
    assert sol.optimal
    assert sol.to_json()["tiles"] == 3


def test_nothing_to_place_returns_the_table() -> None:
    sol = _solve("R1 R2 R3", "K9 B2")
    assert sol.play == () and sol.tiles == 0 and sol.value == 0
    assert sol.table == Table.parse("R1 R2 R3")
    assert sol.as_play() is None


def test_result_table_is_canonical_and_keeps_unchanged_melds_first() -> None:
    sol = _solve("K9 B9 O9 | R1 R2 R3", "R4")
    assert str(sol.table.melds[0]) == "K9 B9 O9"
    assert str(sol.table) == "K9 B9 O9 | R1 R2 R3 R4"
    assert sol.changes == 1


def test_rearrangement_uses_table_tiles() -> None:
    # R5 fits nowhere alone, but splitting the long run makes R3 R4 R5 and R5 R6 R7
    sol = _solve("R3 R4 R5 R6 R7", "R5")
    assert sol.tiles == 1
    assert {str(m) for m in sol.table.melds} == {"R3 R4 R5", "R5 R6 R7"}


def test_value_objective_prefers_points_over_tiles() -> None:
    tiles = _solve("", "R1 R2 R4 J K13 B13")
    value = _solve("", "R1 R2 R4 J K13 B13", objective="value")
    assert (tiles.tiles, tiles.value) == (4, 10)
    assert (value.tiles, value.value) == (3, 39)


def test_tie_on_tiles_is_broken_by_value() -> None:
    sol = _solve("", "R11 R12 R13 K13 B13")
    assert sol.tiles == 3 and sol.value == 39


def test_min_change_keeps_untouched_melds() -> None:
    sol = _solve("K1 K2 K3 | B7 O7 R7 | R8 R9 R10", "R11 K4", objective="min-change")
    assert sol.tiles == 2
    assert sol.changes == 2
    assert str(sol.table.melds[0]) == "R7 B7 O7"


def test_min_change_counts_changes() -> None:
    old = Table.parse("R1 R2 R3 | K5 B5 O5")
    assert changes(old, old) == 0
    assert changes(old, Table.parse("R1 R2 R3 R4 | K5 B5 O5")) == 1


def test_opening_needs_the_opening_value() -> None:
    assert _solve("", "R1 R2 R3 K5", opened=False).tiles == 0
    assert _solve("", "R1 R2 R3 K5", opened=True).tiles == 3
    sol = _solve("K1 K2 K3", "R10 R11 R12 K4", opened=False)
    assert sol.tiles == 3 and sol.value == 33
    assert str(sol.table.melds[0]) == "K1 K2 K3"


def test_opening_with_joker_counts_what_it_stands_for() -> None:
    sol = _solve("", "R9 J R11", opened=False)
    assert sol.tiles == 3 and sol.value == 30


def test_open_then_extend_may_use_the_table() -> None:
    assert _solve("K1 K2 K3", "R10 R11 R12 K4", opened=False, open_then_extend=True).tiles == 4


def test_open_then_extend_still_needs_the_opening() -> None:
    assert _solve("K1 K2 K3", "R1 R2 R3 K4", opened=False, open_then_extend=True).tiles == 0


def test_free_jokers_can_be_moved() -> None:
    sol = _solve("R4 J R6", "R5")
    assert sol.tiles == 1


def test_strict_jokers_lock_their_meld() -> None:
    # under the strict rule the solver never breaks a joker meld
    sol = _solve("R4 J R6 | K9 B9 O9", "R5 R9", rules_name="classic-strict")
    assert "R4 J R6" in {str(m) for m in sol.table.melds}
    sol = _solve("K5 B5 J", "O5", rules_name="classic-strict")
    assert sol.tiles == 0


def test_group_needs_both_colours_locks_joker_groups_of_three() -> None:
    sol = _solve("K5 B5 J | R6 R7 R8", "O5 R5", group_needs_both_colours=True)
    assert "K5 B5 J" in {str(m) for m in sol.table.melds}


def test_freed_joker_new_set_never_leaves_a_replaced_joker_in_its_run() -> None:
    # free rule: R6 replaces the joker and the joker extends the run -- legal by default ...
    assert _solve("R5 J R7 | K9 B9 O9", "R6").tiles == 1
    # ... but not with freed_joker_new_set: the solver keeps joker runs as they are
    sol = _solve("R5 J R7 | K9 B9 O9", "R6", freed_joker_new_set=True)
    assert sol.tiles == 0
    sol = _solve("R5 J R7 | K9 B9 O9", "R6 R9 O1 O2", freed_joker_new_set=True)
    assert "R5 J R7" in {str(m) for m in sol.table.melds}
    sol = _solve("R5 J R7 | K9 B9 O9", "R6", rules_name="classic-strict")
    assert sol.tiles == 0


def test_large_set_three_copies_and_four_jokers() -> None:
    sol = _solve("R1 R2 R3 | R1 R2 R3", "R1 R2 R3 J J", rules_name="xp")
    assert sol.tiles == 5


def test_arrangeable() -> None:
    assert arrangeable(parse_tiles("R1 R2 R3"), STANDARD)
    assert arrangeable(parse_tiles("R1 J J"), STANDARD)
    assert arrangeable(parse_tiles("R1 R2 R3 R4 R5 R6 K6 B6"), STANDARD)
    assert not arrangeable(parse_tiles("R1 R2"), STANDARD)
    assert not arrangeable(parse_tiles("J J"), STANDARD)
    assert arrangeable([], STANDARD)


def test_best_per_count() -> None:
    best = best_per_count(Table(), Rack.parse("R1 R2 R3 R4 R5 K9"), opened=True)
    assert sorted(best) == [3, 4, 5]
    assert [best[k].value for k in (3, 4, 5)] == [12, 14, 15]
    opening = best_per_count(Table(), Rack.parse("R9 R10 R11 R12"), opened=False)
    assert sorted(opening) == [3, 4]
    assert opening[3].value == 33


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        ("", "R1 R2 R3 R4 R5 K9"),
        ("R1 J R3 | K5 B5 J", "R2 R4 K5 O5 B6 O1"),  # jokers on the table
        ("R7 R8 R9 | B9 K9 O9", "R6 R10 K10 B10 O10 J"),  # a joker on the rack
    ],
)
def test_per_count_gives_the_counts_at_once_and_each_play_when_asked(table: str, rack: str) -> None:
    t, r = Table.parse(table) if table else Table(), Rack.parse(rack)
    found = per_count(t, r, opened=True)
    best = solve(t, r, opened=True)
    assert found.counts and max(found.counts) == best.tiles
    for n in found.counts:
        sol = found.solution(n)
        assert n in found and sol.tiles == n == len(sol.play)
        assert sol is found.solution(n)  # built once
    assert found.solutions() == best_per_count(t, r, opened=True)
    assert 0 not in found and best.tiles + 1 not in found
    with pytest.raises(KeyError):
        found.solution(best.tiles + 1)


def test_all_best_lists_every_maximum_play() -> None:
    plays = all_best(Table(), Rack.parse("R1 R2 J B1 B2"), opened=True)
    assert {" ".join(map(str, p.play)) for p in plays} == {
        "R1 R2 J",
        "B1 B2 J",
        "R1 B1 J",
        "R2 B2 J",
    }
    assert all(p.tiles == 3 for p in plays)
    assert plays[0].value == 6
    assert len(all_best(Table(), Rack.parse("R1 R2 J B1 B2"), opened=True, limit=2)) == 2
    assert all_best(Table(), Rack.parse("K1 B7"), opened=True) == []


def test_time_limit_marks_result_not_optimal() -> None:
    sol = solve(Table.parse("R1 R2 R3"), Rack.parse("R4"), opened=True, time_limit=1e-9)
    assert not sol.optimal


@pytest.mark.parametrize(
    ("table", "rack", "error"),
    [
        ("R1 R2", "K1", IllegalPlayError),
        ("R1 R2 R3 | R1 R2 R3", "R1", IllegalPlayError),
        ("R1 R2 R3", "J J J", IllegalPlayError),
        ("R1 R2 R3", "X9", NotationError),
        ("R1 R2 R3", "R14", IllegalPlayError),
    ],
)
def test_invalid_positions_are_rejected(table: str, rack: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        solve(Table.parse(table), Rack.parse(rack), opened=True)


def test_bad_arguments() -> None:
    with pytest.raises(RulesError):
        solve(Table(), Rack.parse("R1"), opened=True, objective="fun")
    with pytest.raises(RulesError):
        solve(Table(), Rack.parse("R1"), opened=True, time_limit=0)
    with pytest.raises(RulesError):
        all_best(Table(), Rack.parse("R1"), opened=True, limit=0)


def test_position_from_json_round_trip() -> None:
    data = {
        "table": [["R1", "R2", "R3"], ["K5", "B5", "O5"]],
        "rack": ["R4", "J", "K1"],
        "opened": True,
        "rules": "standard",
    }
    pos = Position.from_json(data)
    assert pos.to_json() == {**data, "rack": ["K1", "R4", "J"]}  # racks are kept sorted
    assert Position.from_json(pos.to_json()) == pos
    custom = Position.from_json({**data, "rules": {"preset": "standard", "opening_value": 25}})
    assert custom.rules.opening_value == 25
    assert custom.to_json()["rules"]["opening_value"] == 25


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"table": [], "rack": ["R1"], "rules": "nope"}, RulesError),
        ({"table": [], "rack": ["R1"], "rules": {"colours": 99}}, RulesError),
        ({"table": [["R1", "R2"]], "rack": []}, IllegalPlayError),
        ({"table": [], "rack": ["R1", "R1", "R1"]}, IllegalPlayError),
        ({"table": [], "rack": ["Q1"]}, NotationError),
        ({"table": [], "rack": "R1"}, NotationError),
        ({"rack": []}, NotationError),
        ({"table": [], "rack": [], "opened": "yes"}, NotationError),
        ({"table": [], "rack": [], "extra": 1}, NotationError),
        ([], NotationError),
    ],
)
def test_position_from_json_errors(data: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        Position.from_json(data)


def test_pure_python_fallback_gives_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummikub.solver import fast

    table, rack = Table.parse("R1 R2 R3 | K5 B5 O5 | O7 O8 O9"), Rack.parse("R4 J K1 O10 B7")
    with_kernel = solve(table, rack, opened=True)
    monkeypatch.setattr(fast, "available", lambda: False)
    without = solve(table, rack, opened=True)
    assert (without.tiles, without.value) == (with_kernel.tiles, with_kernel.value)
    check_solution(table, rack, True, STANDARD, without)


def test_custom_rules_more_colours_and_numbers() -> None:
    rules = STANDARD.replace(colours=5, numbers=15, max_players=4)
    table, rack = Table.parse("G13 G14 G15 | K15 R15 B15"), Rack.parse("O15 G15 G12 J")
    sol = solve(table, rack, opened=True, rules=rules)
    check_solution(table, rack, True, rules, sol)
    assert sol.tiles == 4
