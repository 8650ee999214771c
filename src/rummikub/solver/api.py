"""The public solver API: :func:`solve`, :func:`best_per_count`, :func:`all_best`,
:func:`arrangeable` and the :class:`Solution` they return."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, combinations
from math import comb
from operator import itemgetter
from typing import Any, Literal

from ..core.actions import Play
from ..core.errors import RulesError
from ..core.melds import Meld, read_meld
from ..core.observation import Observation
from ..core.rules import Rules, preset
from ..core.table import Rack, Table
from ..core.tiles import JOKER, Tile, sort_key
from .dp import DPResult, Problem, SolverTimeout, best_score, decode, run_dp, run_raw, trace
from .model import _meld_of, check_position, counts_grid
from .opening import opening_cores
from .quick import fitting_rack, opening_bound, placeable, placeable_grid, rack_totals
from .strict import locked_melds

__all__ = [
    "OBJECTIVES",
    "Objective",
    "Solution",
    "all_best",
    "arrangeable",
    "best_per_count",
    "changes",
    "solve",
    "suggest",
]

Objective = Literal["tiles", "value", "min-change"]
OBJECTIVES: tuple[str, ...] = ("tiles", "value", "min-change")
_STANDARD = preset("standard")
_PREFIX_CAP = 8  # tiles/value objectives free at most this many nearest melds when trying

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


# ----------------------------------------------------------------------------- helpers
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
            self.old_keys = [
                tuple(
                    sorted([((t.colour if t.colour >= 0 else 99) << 20) + t.number for t in tiles])
                )
                for tiles in (m.tiles for m in self.table.melds)
            ]
        return self.old_keys

    def values(self) -> list[int]:
        """The value of every old table meld (computed once)."""
        if self.old_values is None:
            self.old_values = [read_meld(m, self.rules).value for m in self.table.melds]
        return self.old_values

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline


def _weights(objective: str) -> tuple[int, int]:
    if objective == "value":
        return (1, 1000)
    return (100_000, 1)


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
    t_grid: list[list[int]],
    jt: int,
    r_grid: list[list[int]],
    jr: int,
    *,
    floor: int = 0,
    per_count: bool = False,
) -> Problem:
    """The problem of placing rack tiles (counts ``r_grid``, ``jr`` jokers) with the free
    table tiles (``t_grid``, ``jt``), which must all be used: :func:`_problem` on grids."""
    table = tuple(map(tuple, t_grid))
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
    res: DPResult, t_grid: list[list[int]], jt: int, by_code: dict[int, Tile]
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
    t_grid: list[list[int]],
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
    items: list[tuple[tuple[int, ...], Meld]] = []
    tile_of = by_code.__getitem__
    for m in res.melds:
        codes = tuple([(c << 20) + n for c, n, j in m if not j])
        if len(codes) == len(m):
            # no joker: the DP writes runs ascending and groups by colour, the canonical order
            meld = _PLAIN_MELDS.get(codes)
            if meld is None:
                if len(_PLAIN_MELDS) > 100_000:  # never for real rules; a bound all the same
                    _PLAIN_MELDS.clear()
                meld = _PLAIN_MELDS[codes] = Meld(tuple(map(tile_of, codes)))
            items.append((codes, meld))
        else:
            meld = _meld_of(tuple(m), rules)
            items.append((tuple(map(_code, meld.tiles)), meld))
    items.sort(key=itemgetter(0))
    melds = [read_meld(ctx.table.melds[i], rules).meld for i in kept]
    keys = [ctx.meld_keys()[i] for i in kept]
    melds.extend(m for _, m in items)
    keys.extend(tuple(sorted(k)) for k, _ in items)
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
    Also how many old melds are unchanged (matched one to one, as :func:`changes` does).
    ``keys`` holds every meld's tiles as sorted :func:`_code` integers."""
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
) -> Solution:
    """The best play for the player to move.

    ``objective``: ``"tiles"`` (most rack tiles placed; ties: highest value, then fewest
    changes to the table), ``"value"`` (most value placed; ties: most tiles, then fewest
    changes) or ``"min-change"`` (most tiles; ties: fewest changes, then highest value).
    An unopened player gets an opening (rack-only melds worth at least the opening value, the
    table untouched) or no play; with ``open_then_extend`` the opening may go on to use the
    table. With ``time_limit`` (seconds) the best play found so far is returned when time runs
    out, with ``optimal=False``.
    """
    ctx = _prepare(table, rack, rules, objective, time_limit)
    try:
        return _solve(ctx, opened, objective)
    except SolverTimeout:
        return _nothing(ctx, optimal=False)


def _solve(ctx: _Ctx, opened: bool, objective: str) -> Solution:
    rules = ctx.rules
    if not opened:
        return _solve_opening(ctx)
    locked = locked_melds(ctx.table, rules)
    free_idx = [i for i in range(len(ctx.table.melds)) if i not in locked]
    free = _free_parts(ctx, free_idx)
    t_grid, jt = counts_grid(free, rules)
    r_grid, jr = counts_grid(ctx.rack, rules)
    avail = [list(map(int.__add__, a, b)) for a, b in zip(t_grid, r_grid, strict=True)]
    # tiles that fit in no meld are left out; none left (the rack holds no joker then): no
    # play (the test of ``can_place_any``)
    given = len(ctx.rack)
    ctx.rack = placeable_grid(avail, jt + jr, ctx.rack, rules)
    if not ctx.rack:
        return _nothing(ctx)
    if len(ctx.rack) != given:
        r_grid, jr = counts_grid(ctx.rack, rules)
    prob = _plain_problem(ctx, t_grid, jt, r_grid, jr)
    # only plays placing at least one tile are looked for: every one scores at least this
    # (each tile, a joker in any role included, is worth at least 1); most turns of a real
    # game place nothing, and this bound lets the kernel prove that quickly
    real = sum(sum(map(int.__mul__, row, range(1, rules.numbers + 1))) for row in t_grid)
    one = prob.w_tiles * (prob.jt + 1) + prob.w_value * (real + prob.jt + 1)
    raw = run_raw(prob, ctx.deadline, at_least=one).get(0)
    if raw is None or decode(prob, raw[0])[0] == 0:
        return _nothing(ctx)
    full = trace(prob, raw[1], raw[0])
    best = _build_grid(ctx, full, sorted(locked), t_grid, jt, True)
    if best.tiles == 0 or not free_idx:
        return best
    exact = objective == "min-change"
    return _fewer_changes(ctx, full, best, sorted(locked), free_idx, exact=exact)


def _fewer_changes(
    ctx: _Ctx,
    full: DPResult,
    best: Solution,
    locked: list[int],
    free_idx: list[int],
    *,
    exact: bool,
) -> Solution:
    """Among plays as good as ``full``, one keeping more old melds intact.

    Old melds are ordered by how closely they relate to the rack tiles. First the melds
    nearest the rack are freed in growing prefixes (1, 2, 4, ... of them; the rest kept as
    they are) until the same optimum is reached — cheap, and what the ``tiles`` and ``value``
    objectives use. For ``min-change`` (``exact``) every set of 0, 1, 2, ... freed melds is
    then tried, up to the best size found, so the fewest changes are guaranteed (the tiles
    must match; the value is the last tie-break)."""
    target_tiles = full.tiles
    values = ctx.values()
    old_value = {i: values[i] for i in free_idx}
    full_gain = full.value - sum(old_value.values())
    rules = ctx.rules
    width = rules.numbers
    r_grid, r_jokers = counts_grid(ctx.rack, rules)
    r_flat = [x for row in r_grid for x in row]
    colours = rules.colours
    # each free meld's tiles as (flat grid index, count) pairs, and its jokers (when needed)
    sparse: dict[int, tuple[list[tuple[int, int]], int]] = {}

    def parts(i: int) -> tuple[list[tuple[int, int]], int]:
        got = sparse.get(i)
        if got is None:
            cnt: dict[int, int] = {}
            jokers = 0
            for t in ctx.table.melds[i].tiles:
                if t.colour < 0:
                    jokers += 1
                else:
                    k = t.colour * width + t.number - 1
                    cnt[k] = cnt.get(k, 0) + 1
            got = sparse[i] = (list(cnt.items()), jokers)
        return got

    def fit(
        avail: list[list[int]], jokers: int, t_grid: list[list[int]]
    ) -> tuple[int, int, list[list[int]]]:
        """:func:`fit_totals` for the rack, and the count grid of the table tiles and the rack
        tiles that pass the test (the others can never be placed: leaving them out keeps the
        optimum)."""
        fitting = fitting_rack(avail, jokers, r_grid, rules)
        total, value = rack_totals(fitting, r_jokers, rules)
        hi = [list(map(int.__add__, t, f)) for t, f in zip(t_grid, fitting, strict=True)]
        return total, value, hi

    def full_new_value(subset: Sequence[int]) -> int:
        """Value of the new melds when only ``subset`` is freed and the optimum is reached."""
        return full_gain + sum(old_value[i] for i in subset)

    tried: dict[frozenset[int], int | None] = {}

    def attempt(subset: Sequence[int]) -> int | None:
        """The value gained when only ``subset`` is freed, if the optimum is reached (each
        set of melds is tried once)."""
        key = frozenset(subset)
        if key not in tried:
            tried[key] = attempt_new(subset)
        return tried[key]

    def attempt_new(subset: Sequence[int]) -> int | None:
        if ctx.expired():
            raise SolverTimeout
        t_flat = [0] * len(r_flat)
        jt = 0
        for i in subset:
            pairs, j = parts(i)
            jt += j
            for k, x in pairs:
                t_flat[k] += x
        a_flat = list(map(int.__add__, t_flat, r_flat))
        t_grid = [t_flat[c * width : (c + 1) * width] for c in range(colours)]
        avail = [a_flat[c * width : (c + 1) * width] for c in range(colours)]
        # cheap exact tests first: enough rack tiles that fit in some meld with these tiles,
        # and (tiles, value: the same gain) enough value in them — a freed table joker
        # can gain at most N - 1 by a new role
        count, value_bound, hi = fit(avail, jt + r_jokers, t_grid)
        if count < target_tiles:
            return None
        if not exact and value_bound + jt * (rules.numbers - 1) < full_gain:
            return None
        table = tuple(map(tuple, t_grid))
        prob = Problem(
            rules.colours,
            rules.numbers,
            rules.copies,
            table,
            table,
            tuple(map(tuple, hi)),  # only the rack tiles that can be placed: the same optimum
            jt,
            jt,
            jt + r_jokers,
            0,
            ctx.weights[0],
            ctx.weights[1],
        )
        # prune with the score to reach: the optimum itself, or (min-change, which ranks
        # tiles first) any play with the same number of tiles
        value = 0 if exact else full_new_value(subset)
        need = (target_tiles + prob.jt) * prob.w_tiles + value * prob.w_value
        res = best_score(prob, ctx.deadline, at_least=need)
        if res is None or res[0] != target_tiles:
            return None
        gain = res[1] - sum(old_value[i] for i in subset)
        if not exact and gain != full_gain:
            return None
        return gain

    chosen: tuple[int, tuple[int, ...]] | None = None
    try:
        order: list[int] = []  # sorted when first needed (freeing nothing often settles it)
        size = 0
        cap = len(free_idx) if exact else _PREFIX_CAP
        sizes: list[int] = []
        while size < len(free_idx) and size < best.changes and size <= cap:
            sizes.append(size)
            size = 1 if size == 0 else size * 2
        for size in sizes:
            if size and not order:
                order = _by_relevance(ctx, free_idx)
                # freeing more melds never loses a play: when the largest prefix misses the
                # optimum, every smaller one does too (usually the case; one DP, not several)
                if size != sizes[-1] and attempt(tuple(order[: sizes[-1]])) is None:
                    break
            subset = tuple(order[:size])
            gain = attempt(subset)
            if gain is not None:
                chosen = (gain, subset)
                break
        limit = len(chosen[1]) if chosen is not None else len(free_idx)
        if exact:
            order = order or _by_relevance(ctx, free_idx)
            upper = min(limit, best.changes)  # sizes below this are still to be tried
            essential: list[int] = []
            if upper > 1 and comb(len(order), upper - 1) > 4 * len(order):
                # a meld that must be freed: keeping it alone already misses the optimum
                # (freeing fewer melds never helps), so every answer contains it
                essential = [i for i in order if attempt([j for j in order if j != i]) is None]
            rest = [i for i in order if i not in essential]
            for k in range(len(essential), upper):
                found: tuple[int, tuple[int, ...]] | None = None
                for extra in combinations(rest, k - len(essential)):
                    subset = (*essential, *extra)
                    gain = attempt(subset)
                    if gain is not None and (found is None or gain > found[0]):
                        found = (gain, subset)
                if found is not None:
                    chosen = found
                    break
    except SolverTimeout:
        if chosen is None:
            return Solution(best.play, best.table, best.tiles, best.value, False, best.changes)
        return _build_subset(ctx, chosen[1], locked, free_idx, False)
    if chosen is None:
        return best
    sol = _build_subset(ctx, chosen[1], locked, free_idx, True)
    return sol if sol.changes <= best.changes or exact else best


def _build_subset(
    ctx: _Ctx, subset: Sequence[int], locked: list[int], free_idx: list[int], optimal: bool
) -> Solution:
    kept = sorted(locked + [i for i in free_idx if i not in subset])
    rules = ctx.rules
    t_grid, jt = counts_grid(_free_parts(ctx, subset), rules)
    r_grid, jr = counts_grid(ctx.rack, rules)
    traced = _run(ctx, _plain_problem(ctx, t_grid, jt, r_grid, jr)).get(0)
    assert traced is not None
    return _build_grid(ctx, traced, kept, t_grid, jt, optimal)


def _by_relevance(ctx: _Ctx, free_idx: list[int]) -> list[int]:
    """The free melds, those most related to the rack first: by how many rack tiles could
    join or reshape each (a search-order heuristic): the rack's jokers, its tiles of the
    meld's colours from one below its lowest number to its highest number plus its length plus
    one, and for a meld of one number (a group) the rack's tiles of that number."""
    rules = ctx.rules
    numbers = rules.numbers
    grid, jokers = counts_grid(ctx.given_rack, rules)
    # prefix sums per colour: pre[c][n] = rack tiles of colour c with number <= n
    pre = [[0, *accumulate(row)] for row in grid]
    colours = range(rules.colours)
    score: dict[int, int] = {}
    for i in free_idx:
        tiles = ctx.table.melds[i].tiles
        low, high, cmask = numbers + 1, 0, 0
        for t in tiles:
            c = t.colour
            if c >= 0:
                x = t.number
                cmask |= 1 << c
                if x < low:
                    low = x
                if x > high:
                    high = x
        lo = max(low - 1, 1)
        hi = min(high + 1 + len(tiles), numbers)
        total = jokers
        for c in colours:
            if cmask >> c & 1:
                if lo <= hi:
                    total += pre[c][hi] - pre[c][lo - 1]
            elif low == high:
                # a group's number (always inside lo..hi): rack tiles of the other colours
                total += grid[c][low - 1]
        score[i] = total
    return sorted(free_idx, key=lambda i: -score[i])


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
    from ..core.melds import max_meld_value

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
            raise RulesError(f"{t} is not a tile of these rules")
    grid, jokers = counts_grid(tiles, rules)
    g = tuple(map(tuple, grid))
    p = Problem(rules.colours, rules.numbers, rules.copies, g, g, g, jokers, jokers, jokers)
    return bool(run_dp(p))


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
    out: dict[int, Solution] = {}
    for _, res in sorted(_run(ctx, p).items()):
        sol = _build(ctx, res, kept, free, True)
        if sol.tiles and (opened or not rules.open_then_extend or _opens(sol.play, rules)):
            out[sol.tiles] = sol
    return out


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
