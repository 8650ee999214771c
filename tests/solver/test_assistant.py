"""The assistant at a real table: the best plays under each view, laid out as new tables with
every tile marked by where it comes from."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import Rack, Table, preset
from rummikub.solver import solve
from rummikub.solver.assistant import VIEWS, alternatives, marked_table

from .positions import check_solution, random_position


def _shown(table: tuple[tuple[object, ...], ...]) -> list[str]:
    marks = {"rack": "*", "moved": "~", "kept": ""}
    return [" ".join(t.label + marks[t.mark] for t in meld) for meld in table]  # type: ignore[attr-defined]


def test_each_view_is_one_alternative_with_its_tiles_marked() -> None:
    table = Table.parse("R1 R2 R3 | K5 B5 O5 | B7 B8 B9 B10 | R7 R8 R9 R10")
    rack = Rack.parse("R4 J K1 K2 K3 O6 O7 O8 B11 K7").tiles
    found = alternatives(table, rack)
    views = [a.views for a in found]
    assert sorted(v for vs in views for v in vs) == sorted(VIEWS)
    best = next(a for a in found if "most-tiles" in a.views)
    assert len(best.play) == 10
    # R1 R2 R3 stay in their run (kept), R4 comes from the rack; R7 leaves its run (moved)
    assert "R1 R2 R3 R4*" in _shown(best.table)
    assert "K7* R7~ B7~" in _shown(best.table)
    keep = next(a for a in found if "keep-joker" in a.views)
    assert keep is not best and "J" not in [str(t) for t in keep.play]
    assert len(keep.play) == 9
    fewest = next(a for a in found if "fewest-changes" in a.views)
    assert fewest.changes <= best.changes
    # unchanged sets come last, all kept
    assert _shown(best.table)[-1] == "K5 B5 O5"


def test_nothing_to_place_and_an_opening_short_of_the_value() -> None:
    assert alternatives(Table(), Rack.parse("R1 K5").tiles) == []
    assert alternatives(Table(), Rack.parse("R1 R2 R3").tiles, opened=False) == []
    opening = alternatives(Table(), Rack.parse("R10 R11 R12 K1").tiles, opened=False)
    assert [a.views for a in opening] == [("most-tiles", "most-value", "fewest-changes")]
    assert opening[0].value == 33


def test_json_names_the_tiles_and_their_marks() -> None:
    found = alternatives(Table.parse("R5 R6 R7"), Rack.parse("R8 J").tiles)
    data = found[0].to_json()
    assert data["views"] == ["most-tiles", "most-value", "fewest-changes"]
    assert data["tiles"] == 2 and data["play"] == ["R8", "J"]
    assert data["table"] == [
        [
            {"tile": "R5", "mark": "kept"},
            {"tile": "R6", "mark": "kept"},
            {"tile": "R7", "mark": "kept"},
            {"tile": "R8", "mark": "rack"},
            {"tile": "J=R9", "mark": "rack"},
        ]
    ]
    assert found[1].to_json()["views"] == ["keep-joker"]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    name=st.sampled_from(["standard", "swedish-tin", "classic-strict", "xp"]),
    table_tiles=st.integers(0, 30),
    rack_tiles=st.integers(1, 14),
    jokers=st.integers(0, 2),
)
def test_every_alternative_is_legal_and_its_marks_add_up(
    seed: int, name: str, table_tiles: int, rack_tiles: int, jokers: int
) -> None:
    rules = preset(name)
    table, rack = random_position(
        random.Random(seed), rules, table_tiles, rack_tiles, table_jokers=1, rack_jokers=jokers
    )
    found = alternatives(table, rack.tiles, rules=rules, time_limit=None)
    most = solve(table, rack, opened=True, rules=rules)
    assert bool(found) == bool(most.play)
    for alt in found:
        check_solution(table, rack, True, rules, solve(table, alt.play, opened=True, rules=rules))
        tiles = [t for meld in alt.table for t in meld]
        marks = Counter(t.mark for t in tiles)
        assert Counter(t.tile for t in tiles if t.mark == "rack") == Counter(alt.play)
        assert marks["kept"] + marks["moved"] == len(table.tiles())
        assert Counter(t.tile for t in tiles if t.mark != "rack") == Counter(table.tiles())
        if "keep-joker" in alt.views:
            assert all(not t.is_joker for t in alt.play)
        if "most-tiles" in alt.views:
            assert len(alt.play) == most.tiles


def test_marks_of_a_table_left_as_it_was() -> None:
    table = Table.parse("R1 R2 R3 | K5 B5 O5")
    marked = marked_table(table, table, ())
    assert all(t.mark == "kept" for meld in marked for t in meld)
