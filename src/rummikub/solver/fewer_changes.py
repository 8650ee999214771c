"""The change-reducing search: among plays as good as the optimum, one that keeps more melds
of the old table intact (the ``min-change`` objective, and the tie-break of the others).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate, combinations
from math import comb

from .dp import best_score
from .model import counts_grid
from .problem import DPResult, Problem, SolverTimeout
from .quick import fit_masks
from .solution import Solution, _build_grid, _Ctx, _free_parts, _plain_problem, _run

__all__ = ["fewer_changes"]

_PREFIX_CAP = 8  # tiles/value objectives free at most this many nearest melds when trying


def fewer_changes(
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

    # the rack's tiles as (colour, number - 1, count): a rack holds a few of the grid's cells
    r_cells = [(c, i, k) for c, row in enumerate(r_grid) for i, k in enumerate(row) if k]

    def fit(
        avail: list[list[int]], jokers: int, t_grid: list[list[int]]
    ) -> tuple[int, int, list[list[int]]]:
        """:func:`fit_totals` for the rack, and the count grid of the table tiles and the rack
        tiles that pass the test (the others can never be placed: leaving them out keeps the
        optimum)."""
        masks = fit_masks(avail, jokers, rules)
        total = r_jokers
        value = r_jokers * width
        hi = [row.copy() for row in t_grid]
        for c, i, k in r_cells:
            if masks[c] >> i & 1:
                total += k
                value += k * (i + 1)
                hi[c][i] += k
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
        if len(sizes) > 1:
            order = _by_relevance(ctx, free_idx)
            # freeing more melds never loses a play: when the largest prefix misses the
            # optimum, every smaller one does too, freeing none included (usually the case;
            # one search, not several)
            if attempt(tuple(order[: sizes[-1]])) is None:
                sizes = []
        for size in sizes:
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
