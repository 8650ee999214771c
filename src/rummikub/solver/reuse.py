"""What a game asks the solver again turn after turn: the parts of a position that depend on
the table only. Until someone plays, every turn solves the same table object (tables and
rules are immutable, so the same two objects give the same parts); the last table's parts
are kept and given again for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.by_object import ByObject
from ..core.melds import Meld
from ..core.rules import Rules
from ..core.table import Table
from .model import counts_grid
from .strict import locked_melds

__all__ = ["TableParts", "meld_keys", "table_parts"]


@dataclass(frozen=True, slots=True)
class TableParts:
    """The table's melds the solver keeps untouched (``kept``, sorted) and the others
    (``free_idx``), the free melds' real tiles as a count grid (``grid[c][n - 1]``), their
    jokers, the value of their real tiles and the numbers present in each colour as bits
    (``bits[c]``, bit ``n - 1``: :func:`.quick.row_bits` of each row)."""

    kept: tuple[int, ...]
    free_idx: tuple[int, ...]
    grid: tuple[tuple[int, ...], ...]
    jokers: int
    real_value: int
    bits: tuple[int, ...]


class _Last:
    parts: tuple[Table, Rules, TableParts] | None = None
    keys: tuple[Table, list[tuple[int, ...]]] | None = None


def table_parts(table: Table, rules: Rules) -> TableParts:
    """The :class:`TableParts` of ``table`` under ``rules`` (those of the last table asked
    about are given again for the same objects)."""
    last = _Last.parts  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is table and last[1] is rules:
        return last[2]
    locked = locked_melds(table, rules)
    free_idx = tuple(i for i in range(len(table.melds)) if i not in locked)
    grid, jokers = counts_grid((t for i in free_idx for t in table.melds[i].tiles), rules)
    real = sum(sum(map(int.__mul__, row, range(1, rules.numbers + 1))) for row in grid)
    bits = tuple(sum(1 << i for i, x in enumerate(row) if x) for row in grid)
    parts = TableParts(tuple(sorted(locked)), free_idx, tuple(map(tuple, grid)), jokers, real, bits)
    _Last.parts = (table, rules, parts)
    return parts


def meld_keys(table: Table) -> list[tuple[int, ...]]:
    """Every meld's tiles as sorted integers (colour, 99 for the joker, shifted left by 20
    bits, plus the number: the order of :func:`rummikub.core.tiles.sort_key`); the caller must
    not change the list."""
    last = _Last.keys
    if last is not None and last[0] is table:
        return last[1]
    keys = [_meld_key(m) for m in table.melds]
    _Last.keys = (table, keys)
    return keys


#: :func:`meld_keys`'s key of each meld by the meld object (a game's tables share most of
#: their melds turn after turn)
_KEYS: ByObject[Meld, tuple[int, ...]] = ByObject(65536)


def _meld_key(m: Meld) -> tuple[int, ...]:
    known = _KEYS.get(m)
    if known is not None:
        return known
    codes = [((t.colour if t.colour >= 0 else 99) << 20) + t.number for t in m.tiles]
    return _KEYS.keep(m, tuple(sorted(codes)))
