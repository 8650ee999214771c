"""The public solver API: :func:`solve`, :func:`best_per_count`, :func:`all_best`,
:func:`arrangeable` and the :class:`Solution` they return.

The :class:`Solution` and its building live in :mod:`rummikub.solver.solution`, the search for
a play that changes fewer melds in :mod:`rummikub.solver.fewer_changes`."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from ..core.errors import Code, RulesError
from ..core.observation import Observation
from ..core.rules import Rules, preset
from ..core.table import Rack, Table
from ..core.tiles import JOKER, Tile, sort_key
from .dp import best_score, decode, run_raw, trace
from .fewer_changes import fewer_changes
from .model import check_position, counts_grid
from .opening import opening_cores
from .problem import Problem, SolverTimeout, Trail
from .quick import fit_masks_of_bits, opening_bound, placeable
from .reuse import table_parts
from .solution import (
    Solution,
    _build,
    _build_grid,
    _Ctx,
    _free_parts,
    _nothing,
    _plain_problem,
    _problem,
    _run,
)
from .strict import locked_melds

__all__ = [
    "OBJECTIVES",
    "Objective",
    "PerCount",
    "Solution",
    "all_best",
    "arrangeable",
    "best_per_count",
    "changes",
    "per_count",
    "solve",
    "suggest",
]

Objective = Literal["tiles", "value", "min-change"]
OBJECTIVES: tuple[str, ...] = ("tiles", "value", "min-change")
_STANDARD = preset("standard")


def changes(old: Table, new: Table) -> int:
    """How many melds of ``old`` are not found unchanged (same tiles) in ``new``."""
    remaining = Counter(m.key() for m in new.melds)
    lost = 0
    for m in old.melds:
        k = m.key()
        if remaining[k] > 0:
            remaining[k] -= 1
        else:
            lost += 1
    return lost


def _weights(objective: str) -> tuple[int, int]:
    if objective == "value":
        return (1, 1000)
    return (100_000, 1)


def _prepare(
    table: Table,
    rack: Rack | Sequence[Tile],
    rules: Rules,
    objective: str,
    time_limit: float | None,
) -> _Ctx:
    if objective not in OBJECTIVES:
        raise RulesError(
            f"unknown objective {objective!r} (objectives: {', '.join(OBJECTIVES)})",
            field="objective",
        )
    if time_limit is not None and time_limit <= 0:
        raise RulesError(f"time limit must be positive, got {time_limit}", field="time_limit")
    tiles = tuple(rack.tiles if isinstance(rack, Rack) else rack)
    values = check_position(table, tiles, rules)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    return _Ctx(
        rules, table, tiles, _weights(objective), deadline, old_values=values, given_rack=tiles
    )


# ------------------------------------------------------------------------------- solve
def solve(
    table: Table,
    rack: Rack | Sequence[Tile],
    *,
    opened: bool,
    rules: Rules = _STANDARD,
    objective: str = "tiles",
    time_limit: float | None = None,
    fewest_changes: bool = True,
) -> Solution:
    """The best play for the player to move.

    ``objective``: ``"tiles"`` (most rack tiles placed; ties: highest value, then fewest
    changes to the table), ``"value"`` (most value placed; ties: most tiles, then fewest
    changes) or ``"min-change"`` (most tiles; ties: fewest changes, then highest value).
    An unopened player gets an opening (rack-only melds worth at least the opening value, the
    table untouched) or no play; with ``open_then_extend`` the opening may go on to use the
    table. With ``time_limit`` (seconds) the best play found so far is returned when time runs
    out, with ``optimal=False``. ``fewest_changes=False`` skips the search for a play of the
    same tiles and value that changes fewer table melds (faster, for playouts).
    """
    ctx = _prepare(table, rack, rules, objective, time_limit)
    try:
        return _solve(ctx, opened, objective, fewest_changes)
    except SolverTimeout:
        return _nothing(ctx, optimal=False)


def _solve(ctx: _Ctx, opened: bool, objective: str, fewest_changes: bool = True) -> Solution:
    rules = ctx.rules
    if not opened:
        return _solve_opening(ctx)
    parts = table_parts(ctx.table, rules)
    t_grid, jt = parts.grid, parts.jokers
    # the rack's counts, and the numbers available in each colour (table and rack) as bits
    r_grid, jr = counts_grid(ctx.rack, rules)
    bits = list(parts.bits)
    for t in ctx.rack:
        if t.colour >= 0:
            bits[t.colour] |= 1 << (t.number - 1)
    # tiles that fit in no meld are left out (the three-tile test, :func:`placeable_grid`);
    # none left (the rack holds no joker then): no play (the test of ``can_place_any``)
    masks = fit_masks_of_bits(bits, jt + jr, rules)
    given = len(ctx.rack)
    ctx.rack = tuple(t for t in ctx.rack if t.colour < 0 or masks[t.colour] >> (t.number - 1) & 1)
    if not ctx.rack:
        return _nothing(ctx)
    if len(ctx.rack) != given:
        r_grid, jr = counts_grid(ctx.rack, rules)
    prob = _plain_problem(ctx, t_grid, jt, r_grid, jr)
    # only plays placing at least one tile are looked for: every one scores at least this
    # (each tile, a joker in any role included, is worth at least 1); most turns of a real
    # game place nothing, and this bound lets the kernel prove that quickly
    one = prob.w_tiles * (prob.jt + 1) + prob.w_value * (parts.real_value + prob.jt + 1)
    raw = run_raw(prob, ctx.deadline, at_least=one).get(0)
    if raw is None or decode(prob, raw[0])[0] == 0:
        return _nothing(ctx)
    full = trace(prob, raw[1], raw[0])
    best = _build_grid(ctx, full, parts.kept, t_grid, jt, True)
    if best.tiles == 0 or not parts.free_idx or not fewest_changes:
        return best
    exact = objective == "min-change"
    return fewer_changes(ctx, full, best, list(parts.kept), list(parts.free_idx), exact=exact)


def _solve_opening(ctx: _Ctx) -> Solution:
    rules = ctx.rules
    all_idx = list(range(len(ctx.table.melds)))
    if (rules.opening_value > 0 or not rules.open_then_extend) and opening_bound(
        ctx.rack, rules
    ) < max(rules.opening_value, 1):
        return _nothing(ctx)  # no rack-only melds can be worth the opening value
    if not rules.open_then_extend:
        ctx.rack = placeable((), ctx.rack, rules)  # tiles in no rack-only meld are left out
        res = _run(ctx, _problem(ctx, (), ctx.rack, floor=max(rules.opening_value, 1))).get(0)
        if res is None:
            return _nothing(ctx)
        return _build(ctx, res, all_idx, (), True)
    # open_then_extend: the placed tiles must contain rack-only melds worth the opening value;
    # try the unconstrained best first, then every minimal opening core forced in.
    locked = locked_melds(ctx.table, rules)
    kept = sorted(locked)
    free = _free_parts(ctx, [i for i in all_idx if i not in locked])
    best: Solution | None = None
    for core in [None, *opening_cores(ctx.rack, rules)]:
        if ctx.expired():
            raise SolverTimeout
        res = _run(ctx, _problem(ctx, free, ctx.rack, forced=core or ())).get(0)
        if res is None:
            continue
        sol = _build(ctx, res, kept, free, True)
        if not sol.play or not _opens(sol.play, rules):
            continue
        if best is None or _rank(sol, ctx) > _rank(best, ctx):
            best = sol
        if core is None:
            break
    return best if best is not None else _nothing(ctx)


def _opens(play: Sequence[Tile], rules: Rules) -> bool:
    from ..core.packing import max_meld_value

    return max_meld_value(play, rules, at_least=rules.opening_value) >= rules.opening_value


def _rank(sol: Solution, ctx: _Ctx) -> tuple[int, int, int]:
    wt, wv = ctx.weights
    return (wt * sol.tiles + wv * sol.value, -sol.changes, 0)


# --------------------------------------------------------------------- other queries
def arrangeable(tiles: Sequence[Tile], rules: Rules = _STANDARD) -> bool:
    """Whether the multiset ``tiles`` can be split into valid melds, every tile used."""
    tiles = tuple(tiles)
    for t in tiles:
        if not rules.is_valid_tile(t):
            text, params = rules.not_a_tile(t)
            raise RulesError(text, code=Code.NOT_A_TILE, params=params)
    from .counts import arrangeable_counts

    return arrangeable_counts(rules, *counts_grid(tiles, rules))


class PerCount:
    """:func:`per_count`'s answer: the numbers of rack tiles that can be placed (``counts``,
    ascending), known from its one search, and the best play placing each, traced back and laid
    out as melds the first time :meth:`solution` asks for it (a caller that uses one of the
    plays pays for one)."""

    __slots__ = ("_built", "_ctx", "_free", "_kept", "_prob", "_raw", "counts")

    def __init__(
        self,
        ctx: _Ctx,
        prob: Problem,
        raw: dict[int, tuple[int, Trail]],
        kept: Sequence[int],
        free: Sequence[Tile],
        built: dict[int, Solution] | None = None,
    ) -> None:
        self._ctx, self._prob, self._raw = ctx, prob, raw
        self._kept, self._free = kept, free
        self._built = {} if built is None else built
        self.counts: tuple[int, ...] = tuple(sorted(raw))

    def __contains__(self, tiles: object) -> bool:
        return tiles in self._raw

    def solution(self, tiles: int) -> Solution:
        """The best play placing exactly ``tiles`` rack tiles (highest value placed); a count
        not in :attr:`counts` raises ``KeyError``."""
        sol = self._built.get(tiles)
        if sol is None:
            score, steps = self._raw[tiles]
            res = trace(self._prob, steps, score)
            sol = self._built[tiles] = _build(self._ctx, res, self._kept, self._free, True)
        return sol

    def solutions(self) -> dict[int, Solution]:
        """Every count's play: :func:`best_per_count`'s answer."""
        return {n: self.solution(n) for n in self.counts}


def per_count(
    table: Table,
    rack: Rack | Sequence[Tile],
    *,
    opened: bool,
    rules: Rules = _STANDARD,
    time_limit: float | None = None,
) -> PerCount:
    """:func:`best_per_count` read lazily: the tile counts that can be placed at once, each
    count's play when asked for (:class:`PerCount`). For a player who has not opened under
    ``open_then_extend`` every play is built at once (whether it opens depends on its melds)."""
    ctx = _prepare(table, rack, rules, "tiles", time_limit)
    ctx.weights = (0, 1)
    if not opened and not rules.open_then_extend:
        free: list[Tile] = []
        kept = list(range(len(table.melds)))
        p = _problem(ctx, free, ctx.rack, floor=max(rules.opening_value, 1), per_count=True)
    else:
        locked = locked_melds(table, rules)
        kept = sorted(locked)
        free = _free_parts(ctx, [i for i in range(len(table.melds)) if i not in locked])
        p = _problem(ctx, free, ctx.rack, per_count=True)
    # a bucket counts the rack tiles placed and every joker in the new melds; all the freed
    # table's jokers (p.jt) are among those
    raw = {b - p.jt: r for b, r in run_raw(p, ctx.deadline).items() if b > p.jt}
    built: dict[int, Solution] = {}
    if not opened and rules.open_then_extend:  # only the plays that open are offered
        for n, (score, steps) in sorted(raw.items()):
            sol = _build(ctx, trace(p, steps, score), kept, free, True)
            if _opens(sol.play, rules):
                built[n] = sol
        raw = {n: raw[n] for n in built}
    return PerCount(ctx, p, raw, kept, free, built)


def best_per_count(
    table: Table,
    rack: Rack | Sequence[Tile],
    *,
    opened: bool,
    rules: Rules = _STANDARD,
    time_limit: float | None = None,
) -> dict[int, Solution]:
    """For every number of rack tiles that can be placed, the best play placing exactly that
    many (highest value placed, then fewest changes). Keys are tile counts (1..)."""
    return per_count(table, rack, opened=opened, rules=rules, time_limit=time_limit).solutions()


def all_best(
    table: Table,
    rack: Rack | Sequence[Tile],
    *,
    opened: bool,
    rules: Rules = _STANDARD,
    limit: int = 100,
    time_limit: float | None = None,
) -> list[Solution]:
    """All different plays (multisets of rack tiles) that place the maximum number of tiles,
    best value first, at most ``limit`` of them. Empty when nothing can be placed."""
    if limit < 1:
        raise RulesError(f"limit must be at least 1, got {limit}", field="limit")
    ctx = _prepare(table, rack, rules, "tiles", time_limit)
    best = solve(table, rack, opened=opened, rules=rules, time_limit=time_limit)
    if best.tiles == 0:
        return []
    opening_only = not opened and not rules.open_then_extend
    if opening_only:
        kept = list(range(len(table.melds)))
        free: list[Tile] = []
        floor = max(rules.opening_value, 1)
    else:
        locked = locked_melds(table, rules)
        kept = sorted(locked)
        free = _free_parts(ctx, [i for i in range(len(table.melds)) if i not in locked])
        floor = 0
    rack_counts = Counter(ctx.rack)
    items = sorted({(t.colour, t.number) if not t.is_joker else (-1, 0) for t in ctx.rack})
    full = {it: (0, rack_counts[Tile(*it)] if it[0] >= 0 else rack_counts[JOKER]) for it in items}
    queue: list[dict[tuple[int, int], tuple[int, int]]] = [full]
    found: list[Solution] = []
    seen: set[tuple[Tile, ...]] = set()
    while queue and len(found) < limit:
        if ctx.expired():
            break
        bounds = queue.pop()
        prob = _problem(ctx, free, ctx.rack, floor=floor, bounds=bounds)
        try:
            # cheap test first: does this part of the space still reach the maximum?
            if (
                best_score(prob, ctx.deadline, at_least=(best.tiles + prob.jt) * prob.w_tiles)
                is None
            ):
                continue
            res = _run(ctx, prob).get(0)
        except SolverTimeout:
            break
        if res is None:
            continue
        sol = _build(ctx, res, kept, free, True)
        if sol.tiles != best.tiles:
            continue
        opens = opened or not rules.open_then_extend or _opens(sol.play, rules)
        if opens and sol.play not in seen:
            seen.add(sol.play)
            found.append(sol)
        placed = Counter(sol.play)
        fixed = dict(bounds)
        for it in items:
            a, b = bounds[it]
            v = placed[Tile(*it)] if it[0] >= 0 else placed[JOKER]
            if a < v:
                queue.append({**fixed, it: (a, v - 1)})
            if v < b:
                queue.append({**fixed, it: (v + 1, b)})
            fixed[it] = (v, v)
    found.sort(key=lambda s: (-s.value, s.changes, [sort_key(t) for t in s.play]))
    return found


def suggest(obs: Observation, *, time_limit: float | None = None) -> Solution:
    """A hint for the player whose observation this is: the ``min-change`` optimum, the play a
    person most easily follows (what the terminal and web clients show)."""
    return solve(
        obs.table,
        obs.rack,
        opened=obs.has_opened,
        rules=obs.rules,
        objective="min-change",
        time_limit=time_limit,
    )
