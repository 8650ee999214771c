"""The placement search: examples, and a brute-force cross-check with hypothesis."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummikub.core.melds import is_valid_meld
from rummikub.core.table import Table
from rummikub.core.tiles import JOKER, Tile, parse_tiles
from rummikub.xpress import arrange, best_placement, can_place
from rummikub.xpress.solver import placement_score


def test_examples() -> None:
    p = best_placement(Table.parse("R1 R2 R3 | K5 B5 O5"), parse_tiles("R4 J K1 R5"))
    assert p.count == 4
    assert all(is_valid_meld(m) for m in p.table.melds)
    assert Counter(p.table.tiles()) == Counter(parse_tiles("R1 R2 R3 K5 B5 O5 R4 J K1 R5"))
    none = best_placement(Table.parse("R1 R2 R3"), parse_tiles("K9 B1"))
    assert none.count == 0 and none.table == Table.parse("R1 R2 R3")
    assert not can_place(Table(), parse_tiles("K1 R5 B9"))
    assert can_place(Table(), parse_tiles("K1 R1 J"))


def test_rearrangement_is_found() -> None:
    # R6 fits only by splitting R3..R8 into R3 R4 R5 and R6 R7 R8 plus R6: not a run twice...
    p = best_placement(Table.parse("R3 R4 R5 R6 R7 R8"), parse_tiles("R5"))
    assert p.count == 1  # R3 R4 R5 | R5 R6 R7 R8
    assert Counter(p.table.tiles()) == Counter(parse_tiles("R3 R4 R5 R5 R6 R7 R8"))


def test_prefers_more_dice_then_more_points() -> None:
    p = best_placement(Table(), parse_tiles("K1 K2 K3 K11 K12 K13"))
    assert p.count == 6
    q = best_placement(Table(), parse_tiles("K1 R1 B1 K11 R11 B11"))
    assert q.count == 6
    r = best_placement(Table(), parse_tiles("K1 R1 B1 K11 R11"))
    assert r.count == 3 and r.value == 3  # only K1 R1 B1 forms a set


def test_arrange_exact() -> None:
    table = arrange(parse_tiles("R1 R2 R3 R4 J"))
    assert table is not None and Counter(table.tiles()) == Counter(parse_tiles("R1 R2 R3 R4 J"))
    assert arrange(parse_tiles("R1 R2")) is None
    assert arrange(parse_tiles("J J J")) is None


# ------------------------------------------------------------------- brute-force oracle
def _arrangeable(tiles: tuple[Tile, ...]) -> bool:
    """Whether a multiset splits into valid sets: try every set holding the first tile."""
    if not tiles:
        return True
    first, rest = tiles[0], list(tiles[1:])
    for size in range(2, min(len(rest), 12) + 1):
        for combo in set(combinations(range(len(rest)), size)):
            meld = (first, *(rest[i] for i in combo))
            if is_valid_meld(meld):  # the core judges a meld in any written order
                left = tuple(rest[i] for i in range(len(rest)) if i not in combo)
                if _arrangeable(left):
                    return True
    return False


def _brute_best(table: tuple[Tile, ...], hand: tuple[Tile, ...]) -> int:
    for k in range(len(hand), 0, -1):
        for combo in set(combinations(sorted(hand, key=str), k)):
            if _arrangeable(table + combo):
                return k
    return 0


def test_a_freed_joker_does_not_stay_in_its_run() -> None:
    """R4 onto R3 J R5: the joker stood for R4; under the printed rule it must join a new set,
    so it may not simply move to the end of the same run (R3 R4 R5 J)."""
    tb = Table.parse("R3 J R5")
    assert best_placement(tb, parse_tiles("R4")).count == 0
    assert best_placement(tb, parse_tiles("R4"), new_set=False).count == 1
    assert best_placement(tb, parse_tiles("R4 K6 B6")).count == 3  # J joins K6 B6


face = st.one_of(st.builds(Tile, st.integers(0, 3), st.integers(1, 7)), st.just(JOKER))
table_sets = st.sampled_from(
    ["", "R1 R2 R3", "K5 B5 O5", "R3 J R5", "K2 K3 K4 K5", "B6 O6 J", "O1 O2 O3 | R6 K6 B6"]
)


@settings(max_examples=60, deadline=None)
@given(table=table_sets, hand=st.lists(face, min_size=1, max_size=6))
def test_best_placement_matches_brute_force(table: str, hand: list[Tile]) -> None:
    tb = Table.parse(table)
    assume(sum(1 for t in [*tb.tiles(), *hand] if t.is_joker) <= 4)  # the set has 4 jokers
    # the oracle knows any arrangement; the printed rule that a freed joker joins a new set
    # (``new_set``) is checked on its own below
    got = best_placement(tb, hand, new_set=False)
    assert got.count == _brute_best(tuple(tb.tiles()), tuple(hand))
    assert placement_score(tb, hand, new_set=False)[0] == got.count
    assert all(is_valid_meld(m) for m in got.table.melds)
    assert Counter(got.table.tiles()) == Counter(tb.tiles()) + Counter(got.faces)
    assert not Counter(got.faces) - Counter(hand)
