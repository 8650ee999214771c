"""The answer of a solver question and how it is built: the :class:`Solution`, the context of
one question (rules, table, rack, weights, deadline), the DP problem it poses and the
conversion of a DP result into the new table (kept melds first, in the old order).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from ..core.actions import Play
from ..core.melds import Meld, read_meld
from ..core.rules import Rules
from ..core.table import Table
from ..core.tiles import JOKER, Tile
from .dp import run_dp
from .model import _meld_of, counts_grid
from .problem import DPResult, Problem
from .reuse import meld_keys

__all__ = ["Solution"]

_PLAIN_MELDS: dict[tuple[int, ...], Meld] = {}  # melds without jokers by their tiles' codes


@cache
def _tiles_by_code(colours: int, numbers: int) -> dict[int, Tile]:
    """Every real tile of these rules by its :func:`_code` (one Tile object each, reused)."""
    return {(c << 20) + n: Tile(c, n) for c in range(colours) for n in range(1, numbers + 1)}


def _code(t: Tile) -> int:
    """An integer that orders tiles as :func:`sort_key` does (and tells them apart)."""
    return ((99 if t.colour < 0 else t.colour) << 20) + t.number


@dataclass(frozen=True, slots=True)
class Solution:
    """A play found by the solver.

    ``play`` is the multiset of rack tiles placed (empty when nothing can be placed), ``table``
    the complete new table (the input table when nothing is placed), ``tiles`` and ``value``
    what was placed (``value`` is the value gained by the table: a joker counts as the tile it
    stands for), ``changes`` how many melds of the old table are not kept intact, and
    ``optimal`` is false only when a time limit stopped the search early.
    """

    play: tuple[Tile, ...]
    table: Table
    tiles: int
    value: int
    optimal: bool = True
    changes: int = 0

    def as_play(self) -> Play | None:
        """The engine :class:`Play`, or ``None`` when nothing is placed."""
        return Play(self.play, self.table) if self.play else None

    def to_json(self) -> dict[str, Any]:
        """The FORMATS result object."""
        return {
            "play": [str(t) for t in self.play],
            "table": self.table.to_json(),
            "tiles": self.tiles,
            "value": self.value,
            "optimal": self.optimal,
        }


@dataclass(slots=True)
class _Ctx:
    rules: Rules
    table: Table
    rack: tuple[Tile, ...]
    weights: tuple[int, int]
    deadline: float | None
    timed_out: bool = False
    old_values: list[int] | None = None
    given_rack: tuple[Tile, ...] = ()  # the rack as given (``rack`` may leave tiles out)
    old_keys: list[tuple[int, ...]] | None = None

    def meld_keys(self) -> list[tuple[int, ...]]:
        """Every old table meld's tiles as sorted :func:`_code` integers (computed once)."""
        if self.old_keys is None:
            self.old_keys = meld_keys(self.table)
        return self.old_keys

    def values(self) -> list[int]:
        """The value of every old table meld (computed once)."""
        if self.old_values is None:
            self.old_values = [read_meld(m, self.rules).value for m in self.table.melds]
        return self.old_values

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


def _problem(
    ctx: _Ctx,
    free: Sequence[Tile],
    rack: Sequence[Tile],
    *,
    floor: int = 0,
    forced: Sequence[Tile] = (),
    per_count: bool = False,
    bounds: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> Problem:
    rules = ctx.rules
    t_grid, jt = counts_grid(free, rules)
    r_grid, jr = counts_grid(rack, rules)
    if not forced and not bounds:
        return _plain_problem(ctx, t_grid, jt, r_grid, jr, floor=floor, per_count=per_count)
    f_grid, jf = counts_grid(forced, rules)
    lo = [[t_grid[c][i] + f_grid[c][i] for i in range(rules.numbers)] for c in range(rules.colours)]
    hi = [[t_grid[c][i] + r_grid[c][i] for i in range(rules.numbers)] for c in range(rules.colours)]
    jlo, jhi = jt + jf, jt + jr
    if bounds:
        for (c, n), (a, b) in bounds.items():
            if c < 0:
                jlo, jhi = jt + a, jt + b
            else:
                lo[c][n - 1] = t_grid[c][n - 1] + a
                hi[c][n - 1] = t_grid[c][n - 1] + b
    return Problem(
        rules.colours,
        rules.numbers,
        rules.copies,
        tuple(map(tuple, t_grid)),
        tuple(map(tuple, lo)),
        tuple(map(tuple, hi)),
        jt,
        jlo,
        jhi,
        floor,
        ctx.weights[0],
        ctx.weights[1],
        per_count,
    )


def _plain_problem(
    ctx: _Ctx,
    t_grid: Sequence[Sequence[int]],
    jt: int,
    r_grid: Sequence[Sequence[int]],
    jr: int,
    *,
    floor: int = 0,
    per_count: bool = False,
    hi: tuple[tuple[int, ...], ...] | None = None,
) -> Problem:
    """The problem of placing rack tiles (counts ``r_grid``, ``jr`` jokers) with the free
    table tiles (``t_grid``, ``jt``), which must all be used: :func:`_problem` on grids.
    ``hi``: their sums, when the caller has them already."""
    table = tuple(map(tuple, t_grid))
    if hi is None:
        hi = tuple(tuple(map(int.__add__, a, b)) for a, b in zip(t_grid, r_grid, strict=True))
    return Problem(
        ctx.rules.colours,
        ctx.rules.numbers,
        ctx.rules.copies,
        table,
        table,
        hi,
        jt,
        jt,
        jt + jr,
        floor,
        ctx.weights[0],
        ctx.weights[1],
        per_count,
    )


def _placed(
    res: DPResult, t_grid: Sequence[Sequence[int]], jt: int, by_code: dict[int, Tile]
) -> tuple[Tile, ...]:
    """The rack tiles a DP result places (sorted as :func:`sort_key` does)."""
    out: list[Tile] = []
    for (c, n), x in sorted(res.used.items()):
        d = x - t_grid[c][n - 1]
        if d > 0:
            out.extend([by_code[(c << 20) + n]] * d)
    out.extend([JOKER] * (res.jokers - jt))
    return tuple(out)


def _build(
    ctx: _Ctx, res: DPResult, kept: Sequence[int], free: Sequence[Tile], optimal: bool
) -> Solution:
    """The Solution for a DP result: kept old melds (in their order), then the new melds."""
    t_grid, jt = counts_grid(free, ctx.rules)
    return _build_grid(ctx, res, kept, t_grid, jt, optimal)


def _build_grid(
    ctx: _Ctx,
    res: DPResult,
    kept: Sequence[int],
    t_grid: Sequence[Sequence[int]],
    jt: int,
    optimal: bool,
) -> Solution:
    """:func:`_build` with the freed table tiles as a count grid and their jokers."""
    rules = ctx.rules
    by_code = _tiles_by_code(rules.colours, rules.numbers)
    play = _placed(res, t_grid, jt, by_code)
    if not play:
        return _nothing(ctx, optimal)
    # the new melds in canonical form, sorted by their tiles (as sort_key lists compare)
    # (the meld's tiles as codes in its order, the same sorted, the meld)
    items: list[tuple[tuple[int, ...], tuple[int, ...], Meld]] = []
    tile_of = by_code.__getitem__
    for m in res.melds:
        codes = tuple([(c << 20) + n for c, n, j in m if not j])
        if len(codes) == len(m):
            # no joker: the DP writes runs ascending and groups by colour, the canonical order
            # (which is the codes' order too)
            meld = _PLAIN_MELDS.get(codes)
            if meld is None:
                if len(_PLAIN_MELDS) > 100_000:  # never for real rules; a bound all the same
                    _PLAIN_MELDS.clear()
                meld = _PLAIN_MELDS[codes] = Meld(tuple(map(tile_of, codes)))
            items.append((codes, codes, meld))
        else:
            meld = _meld_of(tuple(m), rules)
            codes = tuple(map(_code, meld.tiles))
            items.append((codes, tuple(sorted(codes)), meld))
    items.sort(key=itemgetter(0))
    melds = [read_meld(ctx.table.melds[i], rules).meld for i in kept]
    keys = [ctx.meld_keys()[i] for i in kept]
    melds.extend(m for _, _, m in items)
    keys.extend(k for _, k, _ in items)
    ordered, unchanged = _old_order(ctx, melds, keys)
    table = Table(tuple(ordered))
    # the new melds hold the freed old melds' tiles and the placed ones (jokers valued as the
    # tile they stand for, as read_meld does); the kept melds are unchanged
    kept_set = set(kept)
    old = ctx.values()
    value = res.value - sum(v for i, v in enumerate(old) if i not in kept_set)
    return Solution(play, table, len(play), value, optimal, len(ctx.table.melds) - unchanged)


def _old_order(ctx: _Ctx, melds: list[Meld], keys: list[tuple[int, ...]]) -> tuple[list[Meld], int]:
    """Melds that are unchanged from the old table first, in the old order; then the rest.
    Also how many old melds are unchanged (matched one to one, as
    :func:`rummikub.solver.api.changes` does). ``keys`` holds every meld's tiles as sorted
    :func:`_code` integers."""
    pending: dict[tuple[int, ...], list[int]] = {}
    for i, k in enumerate(keys):
        got = pending.get(k)
        if got is None:
            pending[k] = [i]
        else:
            got.append(i)
    first: list[int] = []
    for k in ctx.meld_keys():
        idx = pending.get(k)
        if idx:
            first.append(idx.pop(0))
    if not first:
        return melds, 0
    taken = set(first)
    rest = [m for i, m in enumerate(melds) if i not in taken]
    return [melds[i] for i in first] + rest, len(first)


def _nothing(ctx: _Ctx, optimal: bool = True) -> Solution:
    return Solution((), ctx.table, 0, 0, optimal, 0)


def _run(ctx: _Ctx, p: Problem) -> dict[int, DPResult]:
    return run_dp(p, ctx.deadline)


def _free_parts(ctx: _Ctx, free_idx: Sequence[int]) -> list[Tile]:
    return [t for i in free_idx for t in ctx.table.melds[i].tiles]
