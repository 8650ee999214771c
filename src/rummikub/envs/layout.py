"""The pieces of a game as fixed positions of an array: one slot per kind of tile (or die
face) — colour by colour, number by number, the joker last."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from rummikub.core.tiles import Tile

from .spec import Features

__all__ = ["counts", "kinds", "slot"]


def kinds(colours: int, numbers: int) -> int:
    """How many slots a set of ``colours`` × ``numbers`` tiles and jokers needs."""
    return colours * numbers + 1


def slot(tile: Tile, numbers: int, colours: int) -> int:
    """The slot of a tile: ``colour * numbers + number - 1``; the joker's is the last."""
    if tile.is_joker:
        return colours * numbers
    return tile.colour * numbers + tile.number - 1


def counts(tiles: Iterable[Tile], colours: int, numbers: int) -> Features:
    """How many of each kind ``tiles`` holds."""
    out = np.zeros(kinds(colours, numbers), dtype=np.float32)
    for t in tiles:
        out[slot(t, numbers, colours)] += 1
    return out
