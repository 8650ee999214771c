"""Notation: melds with joker roles, canonical forms, tables, plays and actions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from rummikub.core import (
    JOKER,
    Draw,
    Meld,
    NotationError,
    Pass,
    Play,
    Table,
    Tile,
    Timeout,
    parse_action,
    parse_tiles,
    read_meld,
)

from .strategies import STANDARD, ref_ordered_readings, valid_melds, valid_tables


def canonical(text: str) -> str:
    return str(read_meld(Meld.parse(text)).meld)


def test_meld_with_roles_parses_case_insensitively() -> None:
    meld = Meld.parse(" r5  j=r6 J=r7 ")
    assert meld.tiles == (Tile(1, 5), JOKER, JOKER)
    assert meld.roles == (None, Tile(1, 6), Tile(1, 7))
    assert str(meld) == "R5 J=R6 J=R7"
    group = Meld.parse("k7 b7 j=7")
    assert group.roles == (None, None, 7)
    assert str(group) == "K7 B7 J=7"


@pytest.mark.parametrize(
    ("written", "canon"),
    [
        ("R5 J J", "R5 J=R6 J=R7"),
        ("R5 J=5 J=5", "R5 J=5 J=5"),
        ("R5 J=R6 J=R7", "R5 J=R6 J=R7"),
        ("R4 J R6", "R4 J R6"),
        ("R4 J=R5 R6", "R4 J R6"),
        ("R4 R5 J", "R4 R5 J"),
        ("J R5 R6", "J R5 R6"),
        ("O5 K5 J", "K5 O5 J"),
        ("J=5 B5 R5", "R5 B5 J"),
        ("O7 B7 R7 K7", "K7 R7 B7 O7"),
        ("R3 R1 R2", "R1 R2 R3"),
        ("R12 R13 J", "J R12 R13"),
        ("K7 B7 J=7 J=7", "K7 B7 J J"),
        ("J R6 J", "J=R5 R6 J=R7"),
    ],
)
def test_canonical_form(written: str, canon: str) -> None:
    assert canonical(written) == canon
    assert canonical(canon) == canon


def test_bare_joker_only_where_unambiguous() -> None:
    # "R5 J J" read left to right is a run R5-R7 or a group of 5s: the canonical form
    # always says which
    assert "J=" in canonical("R5 J J")
    assert "J=" in canonical("R5 J=5 J")
    # one joker in a two-colour group: only a group reading is possible
    assert canonical("K9 O9 J") == "K9 O9 J"


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("R1 R2 X3", "X3", 2),
        ("R1 R2 R3 | K5 B5 Q5", "Q5", 5),
        ("R1 R2 R3 | K5 B5 O5 | R0 R1 R2", "R0", 6),
        ("R5 J=X6 R7", "J=X6", 1),
        ("R5 J= R7", "J=", 1),
        ("R5 R6=R6 R7", "R6=R6", 1),
        ("R5 J=J R7", "J=J", 1),
        ("K5 B5 J=05", "J=05", 2),
        ("K5 B5 J=-5", "J=-5", 2),
        ("R1 R2 R3 | K5 B5 O5 J=5 | B7 B8 b", "b", 9),
    ],
)
def test_bad_table_notation_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(NotationError) as info:
        Table.parse(text)
    assert info.value.token == token
    assert info.value.position == position
    assert repr(token) in str(info.value) and f"position {position}" in str(info.value)


@pytest.mark.parametrize("text", ["R1 R2 R3 || K5 B5 O5", "| R1 R2 R3", "R1 R2 R3 |"])
def test_empty_meld_in_table_is_an_error(text: str) -> None:
    with pytest.raises(NotationError, match="empty meld"):
        Table.parse(text)


def test_table_notation() -> None:
    table = Table.parse("R1 R2 R3 | K5 B5 O5 J=5")
    assert str(table) == "R1 R2 R3 | K5 B5 O5 J=5"
    assert table.to_json() == [["R1", "R2", "R3"], ["K5", "B5", "O5", "J=5"]]
    assert Table.from_json(table.to_json()) == table
    assert Table.parse("r1 r2 r3|k5 b5 o5 j=5") == table
    assert Table.parse("") == Table() == Table.parse(" - ")
    assert str(Table()) == ""


@pytest.mark.parametrize(
    "data", ["R1 R2 R3", [["R1", "R2", 3]], [[]], [["R1", "R2", "Z3"]], {"melds": []}]
)
def test_bad_table_json(data: object) -> None:
    with pytest.raises(NotationError):
        Table.from_json(data)


def test_meld_constructor_checks_roles() -> None:
    with pytest.raises(NotationError, match="only a joker can carry a role"):
        Meld((Tile(1, 5),), (Tile(1, 5),))
    with pytest.raises(NotationError, match="one role entry per tile"):
        Meld((JOKER, JOKER), (5,))


@settings(deadline=None)
@given(valid_tables(STANDARD))
def test_table_notation_round_trips(table: Table) -> None:
    assert Table.parse(str(table)) == table
    assert Table.parse(str(table).lower()) == table
    assert Table.from_json(table.to_json()) == table


@settings(deadline=None)
@given(valid_melds(STANDARD))
def test_canonical_form_round_trips_and_is_stable(meld: Meld) -> None:
    reading = read_meld(meld)
    canon = reading.meld
    again = read_meld(Meld.parse(str(canon)))
    assert (again.kind, again.colour, again.number, again.tiles) == (
        reading.kind,
        reading.colour,
        reading.number,
        reading.tiles,
    )
    assert again.meld == canon
    assert again.value == reading.value
    # a run is written ascending; a group in colour order, jokers last
    real = [t for t in canon.tiles if not t.is_joker]
    if reading.kind == "run":
        assert [t.number for t in real] == sorted(t.number for t in real)
    else:
        assert [t.colour for t in real] == sorted(t.colour for t in real)
        assert list(canon.tiles[len(real) :]) == [JOKER] * (len(canon) - len(real))


@settings(deadline=None)
@given(valid_melds(STANDARD))
def test_canonical_roles_only_when_the_bare_form_is_ambiguous(meld: Meld) -> None:
    reading = read_meld(meld)
    canon = reading.meld
    in_order = ref_ordered_readings(canon.tiles, STANDARD)
    assert bool(canon.roles) == (len(in_order) > 1)
    if not canon.roles:
        bare = read_meld(Meld(canon.tiles))
        assert (bare.kind, bare.colour, bare.number) == (
            reading.kind,
            reading.colour,
            reading.number,
        )


def test_play_notation() -> None:
    play = Play.parse("R4 J -> R1 R2 R3 R4 J=R5 | K5 B5 O5")
    assert play.tiles == parse_tiles("R4 J")
    assert str(play) == "R4 J -> R1 R2 R3 R4 J=R5 | K5 B5 O5"
    assert Play.parse(str(play)) == play
    assert Play.parse("j r4->r1 r2 r3 r4 j=r5|k5 b5 o5") == play
    assert play.to_json() == {
        "action": "play",
        "play": ["R4", "J"],
        "table": [["R1", "R2", "R3", "R4", "J=R5"], ["K5", "B5", "O5"]],
    }
    with pytest.raises(NotationError, match="TILES -> TABLE"):
        Play.parse("R4 R1 R2 R3 R4")


@pytest.mark.parametrize(
    ("text", "action"),
    [("draw", Draw()), (" PASS ", Pass()), ("Timeout", Timeout())],
)
def test_parse_action_words(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert parse_action(str(action)) == action


def test_parse_action_play_and_errors() -> None:
    assert isinstance(parse_action("R1 R2 R3 -> R1 R2 R3"), Play)
    with pytest.raises(NotationError):
        parse_action("skip")
    with pytest.raises(NotationError) as info:
        parse_action("R1 R2 Z3 -> R1 R2 R3")
    assert info.value.token == "Z3"
