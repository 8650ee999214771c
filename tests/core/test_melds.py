"""Melds: groups, runs and jokers, judged against the rule book (and a reference reader)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import (
    IllegalPlayError,
    Meld,
    Tile,
    is_valid_meld,
    max_meld_value,
    meld_value,
    pack_melds,
    parse_tiles,
    preset,
    read_meld,
)

from .strategies import SMALL, STANDARD, ref_readings, tiles_of, valid_melds


def valid(text: str, rules: object = STANDARD) -> bool:
    assert rules is STANDARD or hasattr(rules, "colours")
    return is_valid_meld(Meld.parse(text), rules)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "K7 R7 B7",
        "K7 R7 B7 O7",
        "O1 B1 K1",
        "R13 K13 O13",
        "R1 R2 R3",
        "B11 B12 B13",
        "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13",
        "O4 O5 O6 O7 O8",
    ],
)
def test_valid_melds_without_jokers(text: str) -> None:
    assert valid(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("K7 R7", "at least 3 tiles"),
        ("K7", "at least 3 tiles"),
        ("K7 R7 R7", "R7 appears twice"),
        ("K7 R7 B7 O7 R7", "R7 appears twice"),
        ("R12 R13 R1", "run"),
        ("R13 R1 R2", "run"),
        ("R1 R2 R4", "gaps"),
        ("R1 R2 R2", "R2 twice"),
        ("R1 K2 R3", "neither a group"),
        ("K7 R8 B9", "neither a group"),
        ("J J J", "jokers only"),
        ("J J", "at least 3 tiles"),
    ],
)
def test_invalid_melds_say_why(text: str, why: str) -> None:
    with pytest.raises(IllegalPlayError) as info:
        read_meld(Meld.parse(text), STANDARD)
    assert why in str(info.value)
    assert info.value.reason == "invalid-meld"
    assert not valid(text)


def test_run_never_wraps_from_13_to_1() -> None:
    for text in ("K12 K13 K1", "K13 K1 K2", "K12 K13 J=K1", "K13 J J=K2"):
        assert not valid(text), text
    # a joker after 13 must be read below instead
    assert read_meld(Meld.parse("K12 K13 J")).tiles == parse_tiles("J K12 K13")


def test_longest_run_is_1_to_13() -> None:
    tiles = " ".join(f"B{n}" for n in range(1, 14))
    assert valid(tiles)
    assert not valid(tiles + " J")
    assert meld_value(Meld.parse(tiles)) == 91


def test_group_of_five_is_invalid_even_with_more_colours() -> None:
    five = preset("standard").replace(colours=5, max_players=4)
    assert valid("K7 R7 B7 O7", five)
    assert valid("K7 R7 B7 G7", five)
    assert not valid("K7 R7 B7 O7 G7", five)
    assert not valid("K7 R7 B7 O7 J", five)
    assert not valid("K7 R7 B7 O7 J")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("R5 J R7", 18),
        ("J R6 R7", 18),
        ("R6 R7 J", 21),
        ("K7 B7 J", 21),
        ("K7 J=7 J=7", 21),
        ("K7 B7 O7 J", 28),
        ("R5 J=R6 J=R7", 18),
        ("R5 J=5 J=5", 15),
        ("J=R3 J=R4 R5", 12),
        ("R1 J J J J", 15),
        ("J R12 R13", 36),
        ("K10 K11 K12 K13", 46),
    ],
)
def test_joker_is_worth_the_tile_it_stands_for(text: str, value: int) -> None:
    assert meld_value(Meld.parse(text)) == value


@pytest.mark.parametrize(
    "text",
    ["J K7 J", "J J K7", "K7 J J", "J J R1", "R13 J J", "J J B8 J", "R3 J J J J J"],
)
def test_any_number_of_jokers_but_not_only_jokers(text: str) -> None:
    assert valid(text)


def test_joker_roles_must_fit() -> None:
    assert not valid("R5 J=R7 R7")
    assert not valid("R5 J=K6 R7")
    assert not valid("R5 J=6 R7")
    assert not valid("K7 B7 J=R7")
    assert not valid("K7 B7 J=8")
    assert not valid("R5 J=R6 J=R6")
    assert not valid("R12 R13 J=R14")
    with pytest.raises(IllegalPlayError, match="J=8 does not fit"):
        read_meld(Meld.parse("K7 B7 J=8"))


def test_roles_decide_between_run_and_group() -> None:
    run = read_meld(Meld.parse("R5 J=R6 J=R7"))
    group = read_meld(Meld.parse("R5 J=5 J=5"))
    assert (run.kind, run.colour, run.number) == ("run", 1, 5)
    assert (group.kind, group.number) == ("group", 5)
    assert run.joker_roles() == [Tile(1, 6), Tile(1, 7)]
    assert group.joker_roles() == [5, 5]


def test_custom_rules_shape_the_melds() -> None:
    short = preset("standard").replace(numbers=9, max_players=3)
    assert not valid("R8 R9 R10", short)
    assert not valid("R8 R9 J=R10", short)
    assert read_meld(Meld.parse("R8 R9 J"), short).tiles == parse_tiles("J R8 R9")
    long = preset("standard").replace(numbers=20)
    assert valid("R18 R19 R20", long)
    assert not valid("R18 R19 R20")
    three = preset("standard").replace(colours=3, max_players=4)
    assert valid("K7 R7 B7", three)
    assert not valid("K7 R7 O7", three)
    assert not valid("K7 R7 B7 J", three)
    two = preset("standard").replace(colours=2, max_players=3)
    assert not valid("K7 R7 J", two)
    assert valid("R1 R2 R3", two)
    single = preset("standard").replace(copies=1, numbers=13, max_players=3)
    assert valid("K1 K2 K3", single)


@settings(deadline=None)
@given(st.lists(tiles_of(SMALL), min_size=1, max_size=7))
def test_validity_matches_the_rule_book(tiles: list[Tile]) -> None:
    expected = ref_readings(tiles, SMALL)
    meld = Meld(tuple(tiles))
    assert is_valid_meld(meld, SMALL) == bool(expected)
    if expected:
        reading = read_meld(meld, SMALL)
        assert reading.value in {r.value for r in expected}
        assert sorted(reading.tiles, key=str) == sorted(tiles, key=str)


@settings(deadline=None)
@given(st.lists(tiles_of(STANDARD), min_size=3, max_size=6))
def test_validity_matches_the_rule_book_standard(tiles: list[Tile]) -> None:
    assert is_valid_meld(Meld(tuple(tiles))) == bool(ref_readings(tiles, STANDARD))


@settings(deadline=None)
@given(valid_melds(STANDARD))
def test_generated_melds_are_valid_and_roles_fix_the_value(meld: Meld) -> None:
    reading = read_meld(meld)
    assert ref_readings(meld.tiles, STANDARD)
    if meld.roles:
        faces = [
            (Tile(reading.colour, reading.face(i)) if reading.kind == "run" else reading.number)
            for i, t in enumerate(reading.tiles)
            if t.is_joker
        ]
        given_roles = [r for r in meld.roles if r is not None]
        assert sorted(map(str, faces)) == sorted(map(str, given_roles))


def test_pack_melds_and_max_value() -> None:
    rack = parse_tiles("R10 R11 R12 K1 B1 O1 J K9")
    melds = pack_melds(rack)
    placed = sorted(str(t) for m in melds for t in m.tiles)
    assert placed == sorted(str(t) for t in rack if str(t) != "K9")
    assert all(is_valid_meld(m) for m in melds)
    assert sum(meld_value(m) for m in melds) == 10 + 11 + 12 + 13 + 3
    assert max_meld_value(rack) == 49
    by_value = pack_melds(parse_tiles("K1 B1 O1 R1 K13 R13 B13"), objective="value")
    assert sum(meld_value(m) for m in by_value) == 4 + 39
    assert max_meld_value(parse_tiles("R1 R2 K5")) == 0
    assert max_meld_value(parse_tiles("R10 R11 R12")) == 33


@settings(deadline=None)
@given(st.lists(tiles_of(SMALL), max_size=8))
def test_pack_melds_gives_valid_disjoint_melds(tiles: list[Tile]) -> None:
    melds = pack_melds(tiles, SMALL)
    used: list[Tile] = [t for m in melds for t in m.tiles]
    rest = list(tiles)
    for t in used:
        rest.remove(t)  # raises if a tile is used more often than given
    assert all(is_valid_meld(m, SMALL) for m in melds)
    value = sum(read_meld(m, SMALL).value for m in melds)
    assert value <= max_meld_value(tiles, SMALL)


@pytest.mark.parametrize("text", ["R3 R1 R2", "R1 R2 R3", "K7 O7 B7", "J R5 R6", "R5 J=R6 R7"])
def test_equal_melds_share_one_canonical_object(text: str) -> None:
    # the tables of a game then share their melds, which the engine's checks recognise by
    # identity
    first, second = Meld.parse(text), Meld.parse(text)
    canonical = read_meld(first, STANDARD).meld
    assert read_meld(second, STANDARD).meld is canonical
    assert read_meld(canonical, STANDARD).meld == canonical
    assert canonical == Meld.parse(str(canonical)) and read_meld(canonical, STANDARD).value == (
        read_meld(first, STANDARD).value
    )
