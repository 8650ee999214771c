"""Actions a player can take: a :class:`Play`, :class:`Draw`, :class:`Pass` or
:class:`Timeout` (the caller's clock ran out)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import NotationError
from .table import Table
from .tiles import Tile, format_tiles, parse_tile, parse_tiles, sort_key

__all__ = ["Action", "Draw", "Pass", "Play", "Timeout", "parse_action"]


@dataclass(frozen=True, slots=True)
class Play:
    """Tiles from the rack (a multiset, kept sorted) and the complete new table.

    Notation: ``R4 J -> R1 R2 R3 R4 J | K5 B5 O5`` (placed tiles, ``->``, the new table).
    """

    tiles: tuple[Tile, ...]
    table: Table

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=sort_key)))

    @classmethod
    def of(cls, tiles: Iterable[Tile] | str, table: Table | str) -> Play:
        t = parse_tiles(tiles) if isinstance(tiles, str) else tuple(tiles)
        tb = Table.parse(table) if isinstance(table, str) else table
        return cls(t, tb)

    @classmethod
    def parse(cls, text: str) -> Play:
        if "->" not in text:
            raise NotationError("a play is written 'TILES -> TABLE' (e.g. 'R4 -> R1 R2 R3 R4')")
        left, _, right = text.partition("->")
        return cls(parse_tiles(left), Table.parse(right))

    def counts(self) -> Counter[Tile]:
        return Counter(self.tiles)

    def __str__(self) -> str:
        return f"{format_tiles(self.tiles)} -> {self.table}"

    def to_json(self) -> dict[str, Any]:
        return {
            "action": "play",
            "play": [str(t) for t in self.tiles],
            "table": self.table.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the pool; the turn ends."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (only when the pool is empty)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn's time ran out: the turn is reverted and penalty tiles are drawn."""

    def __str__(self) -> str:
        return "timeout"


Action = Play | Draw | Pass | Timeout


def parse_action(text: str) -> Action:
    """``draw``, ``pass``, ``timeout`` or a play (``R4 -> R1 R2 R3 R4``)."""
    word = text.strip().lower()
    if word == "draw":
        return Draw()
    if word == "pass":
        return Pass()
    if word == "timeout":
        return Timeout()
    return Play.parse(text)


def parse_tile_list(data: object, *, where: str) -> tuple[Tile, ...]:
    if not isinstance(data, list) or not all(isinstance(x, str) for x in data):
        raise NotationError(f"{where} must be a list of tile strings")
    return tuple(parse_tile(x, position=i) for i, x in enumerate(data))
