"""The quick reading of joker-free melds in :mod:`rummikub.solver.model` agrees with the
engine's :func:`read_meld` on every meld, valid or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core.errors import IllegalPlayError
from rummikub.core.melds import read_meld
from rummikub.core.rules import preset
from rummikub.core.tiles import JOKER, Tile
from rummikub.solver.model import plain_value

RULES = st.sampled_from(["standard", "xp", "classic-strict"])


@st.composite
def melds(draw: st.DrawFn) -> tuple[str, list[Tile]]:
    name = draw(RULES)
    rules = preset(name)
    size = draw(st.integers(min_value=1, max_value=7))
    kind = draw(st.sampled_from(["run", "group", "random"]))
    colour = draw(st.integers(0, rules.colours - 1))
    number = draw(st.integers(1, rules.numbers))
    tiles: list[Tile] = []
    for i in range(size):
        if kind == "run":
            tiles.append(Tile(colour, min(number + i, rules.numbers)))
        elif kind == "group":
            tiles.append(Tile(draw(st.integers(0, rules.colours - 1)), number))
        else:
            tiles.append(
                Tile(draw(st.integers(0, rules.colours - 1)), draw(st.integers(1, rules.numbers)))
            )
    if draw(st.booleans()):
        tiles = draw(st.permutations(tiles))
    if draw(st.integers(0, 9)) == 0:
        tiles.append(JOKER)
    return name, tiles


@settings(max_examples=400, deadline=None)
@given(meld=melds())
def test_plain_value_matches_read_meld(meld: tuple[str, list[Tile]]) -> None:
    name, tiles = meld
    rules = preset(name)
    try:
        expected: int | None = read_meld(tiles, rules).value
    except IllegalPlayError:
        expected = None
    got = plain_value(tiles, rules)
    if any(t.is_joker for t in tiles):
        assert got is None
    else:
        assert got == expected


def test_plain_value_examples() -> None:
    rules = preset("standard")
    r = [Tile(1, 7), Tile(1, 5), Tile(1, 6)]
    assert plain_value(r, rules) == 18
    assert plain_value([Tile(0, 9), Tile(2, 9), Tile(3, 9), Tile(1, 9)], rules) == 36
    assert plain_value([Tile(0, 9), Tile(0, 9), Tile(3, 9)], rules) is None
    assert plain_value([Tile(1, 5), Tile(1, 6)], rules) is None
    assert plain_value([Tile(1, 5), Tile(1, 7), Tile(1, 8)], rules) is None
