"""The solver's best play as tile counts, for playouts: what :func:`rummikub.solver.solve`
(objective ``tiles``, without the tie-break on changed melds) places, from a table and a rack
given as count grids, without building a single meld.

Under rules that lock no table meld (no joker variant that makes the solver keep melds as they
are) the solver frees every table meld, so its answer depends on the table's tiles only, never
on how they are arranged: a playout may keep the table as counts. The answer is the same
optimum, found by the same dynamic program on the same problem, as :func:`solve` gives (the
same tiles, ties included); only the new table's melds are not built. With Numba the whole
question — the three-tile test, the problem, the compiled DP and the walk back — is one
compiled call (:func:`_placed_py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.rules import Rules
from ..core.table import Table
from ..core.tiles import JOKER, Tile
from .dp import decode, run_dp, run_raw, trace
from .fast import _BEAM, _BEAM_BOUNDED_FROM, _BEAM_FROM, available
from .groups import max_group_size
from .kernel import _drive, compiled
from .model import counts_grid
from .problem import Problem
from .quick import fit_masks, row_bits
from .tables import _consts, _fits_plain, _layout
from .walk import _walk, used_path

__all__ = ["arrangeable_counts", "counts_supported", "opening_counts", "placed_counts"]

_W_TILES, _W_VALUE = 100_000, 1  # the ``tiles`` objective's weights (api._weights)


def counts_supported(rules: Rules) -> bool:
    """Whether :func:`placed_counts` answers as :func:`solve` does under ``rules``: no table
    meld is ever locked, and an opening uses rack tiles only."""
    return (
        rules.joker_rule != "strict"
        and not rules.group_needs_both_colours
        and not rules.freed_joker_new_set
        and not rules.open_then_extend
    )


def placed_counts(
    rules: Rules,
    table: np.ndarray,
    table_jokers: int,
    table_value: int,
    rack: np.ndarray,
    rack_jokers: int,
) -> tuple[np.ndarray, int] | None:
    """The rack tiles the solver's best play places for an opened player (most tiles, then
    most value): their counts (``placed[c, n - 1]``, an int64 array like ``rack``) and jokers,
    or ``None`` when nothing can be placed. ``table[c, n - 1]``: the table's real tiles,
    ``table_value`` their value; ``rack`` likewise. Only for rules where
    :func:`counts_supported` holds."""
    C, K = rules.colours, rules.copies
    jhi = table_jokers + rack_jokers
    if available() and jhi < 63 and _fits_plain(C, K, jhi, 0):
        joker_real = jhi < 3
        consts = _consts(C, K, joker_real)
        _, strides, masks = _layout(C, K, jhi, 0, None)
        placed, jokers, found = _placed(
            C, rules.numbers, K, consts[1], table, rack, table_jokers, rack_jokers, table_value,
            _W_TILES, _W_VALUE, max_group_size(C) >= 3, joker_real, _BEAM, _BEAM_BOUNDED_FROM, 0,
            consts[0], consts[2], consts[3], consts[4], consts[5], consts[6], consts[7],
            consts[8], consts[9], consts[10], strides, masks, consts[11], consts[12],
            consts[13], consts[14],
        )  # fmt: skip
        return (placed, int(jokers)) if found else None
    return _placed_lists(rules, table, table_jokers, table_value, rack, rack_jokers)


def arrangeable_counts(rules: Rules, grid: Any, jokers: int) -> bool:
    """Whether the real tiles ``grid[c][n - 1]`` (counts, a nested sequence or an array) and
    ``jokers`` jokers can be laid out as valid melds, every one of them used (for an opened
    player under rules that lock no meld: whether table and rack together can go down, his
    whole rack placed). The dynamic program with every count fixed: far quicker than the
    biggest play (:func:`placed_counts`) on a rack of 30 tiles and more."""
    g = tuple(tuple(int(x) for x in row) for row in grid)
    p = Problem(rules.colours, rules.numbers, rules.copies, g, g, g, jokers, jokers, jokers)
    return bool(run_dp(p))


def opening_counts(
    rules: Rules, rack: np.ndarray, rack_jokers: int
) -> tuple[np.ndarray, int] | None:
    """The rack tiles of the solver's opening for a player who has not opened (rack-only
    melds worth at least the opening value; the most tiles, then the most value), as
    :func:`placed_counts` gives them, or ``None``. Only where :func:`counts_supported` holds
    (an opening there never touches the table)."""
    C, K = rules.colours, rules.copies
    floor = max(rules.opening_value, 1)
    if available() and rack_jokers < 63 and _fits_plain(C, K, rack_jokers, floor):
        joker_real = rack_jokers < 3
        consts = _consts(C, K, joker_real)
        _, strides, masks = _layout(C, K, rack_jokers, floor, None)
        placed, jokers, found = _placed(
            C, rules.numbers, K, consts[1], np.zeros_like(rack), rack, 0, rack_jokers, 0,
            _W_TILES, _W_VALUE, max_group_size(C) >= 3, joker_real, _BEAM, _BEAM_FROM, floor,
            consts[0], consts[2], consts[3], consts[4], consts[5], consts[6], consts[7],
            consts[8], consts[9], consts[10], strides, masks, consts[11], consts[12],
            consts[13], consts[14],
        )  # fmt: skip
        return (placed, int(jokers)) if found else None
    from . import solve

    tiles = [Tile(int(c), int(n) + 1) for c, n in zip(*np.nonzero(rack), strict=True)
             for _ in range(int(rack[c, n]))]  # fmt: skip
    sol = solve(Table(()), tiles + [JOKER] * rack_jokers, opened=False, rules=rules,
                fewest_changes=False)  # fmt: skip
    if not sol.play:
        return None
    grid, jokers = counts_grid(sol.play, rules)
    return np.array(grid, np.int64), jokers


def _placed_lists(
    rules: Rules,
    table_a: np.ndarray,
    table_jokers: int,
    table_value: int,
    rack_a: np.ndarray,
    rack_jokers: int,
) -> tuple[np.ndarray, int] | None:
    """:func:`placed_counts` in Python around the DP (without Numba, or for a problem too
    large for the compiled state encoding): the solver's own steps."""
    table: list[list[int]] = table_a.tolist()
    rack: list[list[int]] = rack_a.tolist()
    avail = [tuple(map(int.__add__, t, r)) for t, r in zip(table, rack, strict=True)]
    masks = fit_masks(avail, table_jokers + rack_jokers, rules)
    # rack tiles that fit in no meld are left out (the same problem as the solver's)
    hi: list[tuple[int, ...]] = []
    fitting = rack_jokers > 0
    for t_row, r_row, a_row, m in zip(table, rack, avail, masks, strict=True):
        held = row_bits(r_row)
        if held & m == held:  # every rack tile of this colour may be placed
            hi.append(a_row)
        else:
            pairs = enumerate(zip(t_row, r_row, strict=True))
            hi.append(tuple([t + r if r and m >> i & 1 else t for i, (t, r) in pairs]))
        fitting = fitting or held & m != 0
    if not fitting:
        return None
    t_grid = tuple(map(tuple, table))
    jt = table_jokers
    prob = Problem(
        rules.colours, rules.numbers, rules.copies, t_grid, t_grid, tuple(hi), jt, jt,
        jt + rack_jokers, 0, _W_TILES, _W_VALUE,
    )  # fmt: skip
    # every play places at least one tile, worth at least 1 (the solver's bound)
    one = _W_TILES * (jt + 1) + _W_VALUE * (table_value + jt + 1)
    raw = run_raw(prob, None, at_least=one).get(0)
    if raw is None or decode(prob, raw[0])[0] == 0:
        return None
    if isinstance(raw[1], list):  # the pure-Python DP's steps
        res = trace(prob, raw[1], raw[0])
        used = [[res.used.get((c, n + 1), 0) for n in range(rules.numbers)]
                for c in range(rules.colours)]  # fmt: skip
        jokers = res.jokers
    else:
        used, jokers = used_path(prob, raw[1])
    return np.array(used, np.int64) - table_a, jokers - jt


def _placed_py(
    C: int,
    N: int,
    K: int,
    S: int,
    table: Any,
    rack: Any,
    tj: int,
    rj: int,
    tv: int,
    wt: int,
    wv: int,
    groups: bool,
    joker_real: bool,
    beam_width: int,
    beam_from: int,
    floor: int,
    pair_index: Any,
    ptr: Any,
    o_ns: Any,
    o_x: Any,
    o_g: Any,
    o_jr: Any,
    add: Any,
    mask: Any,
    closable: Any,
    canon: Any,
    strides: Any,
    masks: Any,
    dom_ptr: Any,
    dom_idx: Any,
    risk: Any,
    assigns: Any,
) -> tuple[Any, int, bool]:  # pragma: no cover - compiled
    """The compiled :func:`placed_counts` and :func:`opening_counts`: the steps of
    :func:`rummikub.solver.api.solve` on count grids. The three-tile test of
    :func:`.quick.fit_masks` (real rack tiles that fit in no group or run window are left
    out), the problem (every table tile used, rack tiles up to their counts), the bound of
    one placed tile, the beam for a bound on large problems (as :func:`.fast.run`), the DP
    and the walk back (as :func:`.walk.trace_path`); returns (placed counts, placed jokers,
    whether anything is placed). With a ``floor`` (an opening: the table is empty), the
    opening's value bound of :func:`.quick.opening_bound` first, and no bound on the
    score."""
    jokers = tj + rj
    placed = np.zeros((C, N), np.int64)
    grid = np.empty((3, C, N), np.int64)
    fitting = rj > 0
    total = 0
    for n in range(N):
        present = 0
        for c in range(C):
            if table[c, n] + rack[c, n] > 0:
                present += 1
        in_group = groups and present + jokers >= 3
        for c in range(C):
            t = table[c, n]
            grid[0, c, n] = t
            grid[1, c, n] = t
            r = rack[c, n]
            ok = False
            if r > 0:
                if in_group or (N >= 3 and jokers >= 2):
                    ok = True
                elif N >= 3:
                    lo = n - 2 if n >= 2 else 0
                    hi = n if n <= N - 3 else N - 3
                    for start in range(lo, hi + 1):
                        missing = 0
                        for m in range(start, start + 3):
                            if m != n and table[c, m] + rack[c, m] == 0:
                                missing += 1
                        if missing <= jokers:
                            ok = True
                            break
            if ok:
                fitting = True
                grid[2, c, n] = t + r
            else:
                grid[2, c, n] = t
            total += grid[2, c, n]
    if not fitting:
        return placed, 0, False
    if floor > 0:  # an opening: what the fitting tiles are worth must reach the opening value
        bound = rj * N
        for c in range(C):
            for n in range(N):
                bound += (n + 1) * (grid[2, c, n] - grid[0, c, n])
        if bound < floor:
            return placed, 0, False
        lb = -(1 << 62)  # fast._NO_BOUND: the solver looks for any opening
    else:
        lb = wt * (tj + 1) + wv * (tv + tj + 1)
    beam = beam_width if total > beam_from else 0
    finals, fscores, _, path = _drive(
        C, N, K, S, grid, pair_index, tj, jokers, floor, wt, wv, ptr, o_ns, o_x, o_g, o_jr,
        add, mask, closable, canon, strides, masks, 1, dom_ptr, dom_idx, risk, lb, beam, True, 0,
    )  # fmt: skip
    if finals[0] < 0:
        return placed, 0, False
    score = fscores[0]
    if score // wt - tj == 0:  # (tiles placed, the tiles objective's weights)
        return placed, 0, False
    table_hi = np.empty((2, C, N), np.int64)  # the walk's layout (walk.trace_path)
    table_hi[0] = grid[0]
    table_hi[1] = grid[2]
    walked = _walk(C, N, K, path[0], table_hi, jokers, joker_real, o_x, o_g, o_jr, assigns)
    used = walked[2]
    for c in range(C):
        for n in range(N):
            placed[c, n] = used[c, n] - table[c, n]
    return placed, walked[3] - tj, True


_placed = compiled(_placed_py)
