"""Finding puzzles in positions: the goals, the naive yardstick, the themes."""

from __future__ import annotations

from rummikub.core import Rack, Table, preset
from rummikub.puzzles import Goal
from rummikub.puzzles.make import joker_frees, puzzles_at
from rummikub.puzzles.naive import greedy_opening_value, naive_tiles

from .helpers import STANDARD, make_one


def test_a_go_out_that_needs_a_run_split() -> None:
    p = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    assert (p.target, p.naive) == (2, 0)
    assert {"split-run", "run-to-group"} <= set(p.themes)
    assert sorted(str(m) for m in p.solutions[0].table.melds) == ["K5 K6 K7", "K8 R8 B8"]


def test_what_the_naive_ways_find_is_no_puzzle() -> None:
    # R6 R7 extend the run at its end: nothing to rearrange
    assert puzzles_at(Table.parse("R3 R4 R5"), Rack.parse("R6 R7").tiles, True, STANDARD) == []
    assert (
        naive_tiles(Table.parse("R3 R4 R5 | K9 B9 O9"), Rack.parse("R6 R7 R9 J").tiles, STANDARD)
        == 4
    )


def test_naive_chains_extensions_and_packs_the_rest() -> None:
    table = Table.parse("R3 R4 R5")
    assert naive_tiles(table, Rack.parse("R2 R1 K9 B9 O9 O1").tiles, STANDARD) == 5


def test_most_tiles_when_not_everything_fits() -> None:
    p = make_one("K5 K6 K7 K8", "R8 B8 O1", Goal.MOST_TILES)
    assert (p.target, p.naive) == (2, 0)


def test_an_opening_the_obvious_packing_misses() -> None:
    rack = "K5 K6 K7 R6 B6 O6 R11"
    # the most valuable set first (the 6s, 24) leaves no 30; two sets of three make 36
    assert greedy_opening_value(Rack.parse(rack).tiles, STANDARD) == 24
    p = make_one("", rack, Goal.OPEN, opened=False)
    assert p.target == 6
    assert "open-split" in p.themes


def test_free_the_joker() -> None:
    p = make_one("R5 R6 J", "R7 K9 B9 O2", Goal.FREE_JOKER)
    assert "joker-retrieval" in p.themes
    assert any("K9 B9 J" in str(s.table) for s in p.solutions)


def test_no_joker_to_free_without_one_or_with_one_on_the_rack() -> None:
    assert joker_frees(Table.parse("R5 R6 R7"), Rack.parse("K9 B9").tiles, STANDARD) == []
    assert joker_frees(Table.parse("R5 R6 J"), Rack.parse("R7 J K9").tiles, STANDARD) == []


def test_the_id_is_stable_and_depends_on_the_goal() -> None:
    a = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    b = make_one("K5 K6 K7 K8", "B8 R8", Goal.GO_OUT)
    c = make_one("K5 K6 K7 K8", "R8 B8 O1", Goal.MOST_TILES)
    assert a.id == b.id != c.id


def test_freeing_the_joker_follows_the_presets_joker_rule() -> None:
    strict = preset("classic-strict")
    table = Table.parse("R5 R6 R7 J")
    # free rules: the joker may leave its run without a replacement
    assert joker_frees(table, Rack.parse("K9 B9 O2").tiles, STANDARD)
    # strict: a joker leaves its set only for the tile it stands for, from the rack
    assert joker_frees(table, Rack.parse("K9 B9 O2").tiles, strict) == []
    swapped = joker_frees(Table.parse("R5 R6 J"), Rack.parse("R7 K9 B9").tiles, strict)
    assert [str(p) for p in swapped] == ["K9 R7 B9 -> R5 R6 R7 | K9 B9 J"]
