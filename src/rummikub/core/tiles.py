"""Tiles and their notation.

A number tile is a colour letter and a number (``R7``, ``K13``); the joker is ``J``.
Colours are small integers indexing :data:`COLOUR_LETTERS`: 0 black ``K``, 1 red ``R``,
2 blue ``B``, 3 orange ``O``; custom rule sets with more colours use ``G`` green, ``P`` purple,
``Y`` yellow and ``W`` white, in that order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from .errors import NotationError

__all__ = [
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "JOKER",
    "Tile",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
    "sort_key",
    "tile_counts",
]

COLOUR_LETTERS = "KRBOGPYW"
COLOUR_NAMES = ("black", "red", "blue", "orange", "green", "purple", "yellow", "white")
_JOKER_COLOUR = -1


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile: a colour index and a number, or the joker (colour -1, number 0).

    Ordering is colour-then-number with jokers last (``run view``); :func:`sort_key` gives it.
    """

    colour: int
    number: int

    JOKER: ClassVar[Tile]

    @property
    def is_joker(self) -> bool:
        return self.colour == _JOKER_COLOUR

    @property
    def letter(self) -> str:
        """The colour letter (``J`` for the joker)."""
        return "J" if self.is_joker else COLOUR_LETTERS[self.colour]

    def __str__(self) -> str:
        # the names of the usual tiles are made once (records write every tile of every turn)
        if 0 <= self.number < _NAMED and self.colour < len(COLOUR_LETTERS):
            return _NAMES[self.colour][self.number]
        if self.is_joker:
            return "J"
        return f"{COLOUR_LETTERS[self.colour]}{self.number}"

    def __repr__(self) -> str:
        return f"Tile({self})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        return parse_tile(text)

    @classmethod
    def of(cls, colour: int, number: int) -> Tile:
        if not 0 <= colour < len(COLOUR_LETTERS):
            raise NotationError(f"colour index {colour} out of range")
        if number < 1:
            raise NotationError(f"tile number {number} must be at least 1")
        return cls(colour, number)


#: tiles numbered below this have their names made once (:meth:`Tile.__str__`)
_NAMED = 32
#: the names by colour (the joker's colour, -1, is the last row) and number
_NAMES: tuple[tuple[str, ...], ...] = (
    *(tuple(f"{letter}{n}" for n in range(_NAMED)) for letter in COLOUR_LETTERS),
    ("J",) * _NAMED,
)

JOKER = Tile(_JOKER_COLOUR, 0)
Tile.JOKER = JOKER


def parse_tile(text: str, *, position: int | None = None) -> Tile:
    """Parse one tile (``R7``, ``k13``, ``J``); case-insensitive, surrounding space ignored."""
    token = text.strip()
    up = token.upper()
    if up == "J":
        return JOKER
    if len(up) < 2:
        raise NotationError(
            "not a tile: expected a colour letter and a number, or J",
            token=token,
            position=position,
        )
    letter, digits = up[0], up[1:]
    colour = COLOUR_LETTERS.find(letter)
    if colour < 0:
        raise NotationError(
            f"unknown colour letter {letter!r} (colours are {', '.join(COLOUR_LETTERS)})",
            token=token,
            position=position,
        )
    if not digits.isdigit() or not digits.isascii():
        raise NotationError("tile number is not a whole number", token=token, position=position)
    if digits.startswith("0"):
        raise NotationError("tile number must not start with 0", token=token, position=position)
    return Tile(colour, int(digits))


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse tiles separated by white space (a rack or any bag of tiles)."""
    return tuple(parse_tile(tok, position=i) for i, tok in enumerate(text.split()))


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


def sort_key(tile: Tile) -> tuple[int, int]:
    """Colour-then-number, jokers last (the "run view" order, 789)."""
    colour = tile.colour
    return (99 if colour == _JOKER_COLOUR else colour, tile.number)  # is_joker, read inline


def tile_counts(tiles: Iterable[Tile]) -> Counter[Tile]:
    return Counter(tiles)
