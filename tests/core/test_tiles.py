"""Tiles: the set's composition, values, notation and ordering."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import JOKER, NotationError, Rack, Tile, parse_tile, parse_tiles, preset
from rummikub.core.tiles import sort_key

from .strategies import tiles_of


def test_standard_set_has_106_tiles() -> None:
    tiles = preset("standard").all_tiles()
    assert len(tiles) == 106
    counts = Counter(tiles)
    assert counts[JOKER] == 2
    for colour in range(4):
        for number in range(1, 14):
            assert counts[Tile(colour, number)] == 2
    assert len(counts) == 4 * 13 + 1


def test_large_set_has_160_tiles() -> None:
    tiles = preset("xp").all_tiles()
    assert len(tiles) == 160
    counts = Counter(tiles)
    assert counts[JOKER] == 4
    assert all(counts[Tile(c, n)] == 3 for c in range(4) for n in range(1, 14))


def test_custom_set_follows_its_parameters() -> None:
    rules = preset("standard").replace(
        colours=6, numbers=9, copies=1, jokers=3, rack_size=5, max_players=4
    )
    tiles = rules.all_tiles()
    assert len(tiles) == 6 * 9 + 3 == rules.tile_count
    assert Tile(5, 9) in tiles and Tile(0, 10) not in tiles
    assert str(Tile(4, 1)) == "G1" and str(Tile(5, 9)) == "P9"


def test_tile_values() -> None:
    rules = preset("standard")
    assert rules.tile_value(parse_tile("K13")) == 13
    assert rules.tile_value(parse_tile("O1")) == 1
    assert rules.tile_value(JOKER) == 30
    assert rules.replace(joker_penalty=50).tile_value(JOKER) == 50


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("R7", Tile(1, 7)),
        ("k13", Tile(0, 13)),
        ("  b1 ", Tile(2, 1)),
        ("O10", Tile(3, 10)),
        ("j", JOKER),
        (" J ", JOKER),
        ("g3", Tile(4, 3)),
        ("W2", Tile(7, 2)),
    ],
)
def test_parse_tile(text: str, tile: Tile) -> None:
    assert parse_tile(text) == tile


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("X7", "unknown colour letter 'X'"),
        ("R", "expected a colour letter and a number"),
        ("", "expected a colour letter and a number"),
        ("R0", "must not start with 0"),
        ("R07", "must not start with 0"),
        ("R-1", "not a whole number"),
        ("R7a", "not a whole number"),
        ("R٣", "not a whole number"),
        ("JJ", "unknown colour letter"),
        ("7R", "unknown colour letter"),
    ],
)
def test_bad_tile_names_token(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tile(text, position=3)
    assert fragment in str(info.value)
    assert info.value.token == text.strip()
    assert info.value.position == 3


def test_bad_tile_in_a_bag_names_token_and_position() -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles("R7 K1 Q4 J")
    assert info.value.token == "Q4"
    assert info.value.position == 2
    assert "'Q4' at position 2" in str(info.value)


def test_rack_is_sorted_colour_then_number_jokers_last() -> None:
    rack = Rack.parse("J o2 R7 k13 R1 K1")
    assert str(rack) == "K1 K13 R1 R7 O2 J"
    assert [str(t) for t in rack.group_view()] == ["K1", "R1", "O2", "R7", "K13", "J"]


def test_rack_remove_missing_tile_names_it_and_changes_nothing() -> None:
    rack = Rack.parse("R1 R2")
    with pytest.raises(NotationError, match="R3 is not on the rack"):
        rack.remove(parse_tiles("R1 R3"))
    assert str(rack) == "R1 R2"
    assert str(rack.remove(parse_tiles("R2"))) == "R1"
    assert str(rack.add(parse_tiles("J R2"))) == "R1 R2 R2 J"


@settings(deadline=None)
@given(tiles_of(preset("xp").replace(colours=8, max_players=4)))
def test_tile_notation_round_trips(tile: Tile) -> None:
    text = str(tile)
    assert parse_tile(text) == tile
    assert parse_tile(text.lower()) == tile
    assert text == text.upper()


@settings(deadline=None)
@given(st.lists(tiles_of(preset("standard")), max_size=20))
def test_rack_notation_round_trips(tiles: list[Tile]) -> None:
    rack = Rack(tuple(tiles))
    assert Rack.parse(str(rack)) == rack
    assert Rack.parse(str(rack).lower()) == rack
    assert list(rack.tiles) == sorted(tiles, key=sort_key)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(tiles_of(preset("standard")), max_size=20),
    tiles_of(preset("standard")),
    st.data(),
)
def test_rack_add_and_remove_keep_the_rack_order(
    tiles: list[Tile], drawn: Tile, data: st.DataObject
) -> None:
    # a drawn tile is put in its place and a removal keeps the order, without sorting again
    rack = Rack(tuple(tiles))
    grown = rack.add([drawn])
    assert grown == Rack((*tiles, drawn))
    assert grown.tiles == tuple(sorted((*tiles, drawn), key=sort_key))
    gone = data.draw(st.lists(st.sampled_from(grown.tiles), unique_by=id, max_size=len(grown)))
    left = list(grown.tiles)
    for t in gone:
        left.remove(t)
    assert grown.remove(gone) == Rack(tuple(left))
    assert grown.remove(gone).tiles == tuple(sorted(left, key=sort_key))
