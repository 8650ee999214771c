"""The walk back from the compiled kernel's answer: the option chosen at every layer becomes
the runs and groups of the new table, exactly as the Python trace
(:func:`rummikub.solver.dp.trace`) builds them from its steps.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from .groups import group_sizes, max_group_size
from .kernel import compiled
from .problem import DPResult, Problem
from .tables import _consts, problem_grid

__all__ = ["trace_path", "used_path"]

_TABLE_AND_HI = [0, 2]  # of a problem's grid (table, lo, hi)


def trace_path(p: Problem, path: Any, score: int) -> DPResult:
    """The :class:`DPResult` of a final state reached by ``path`` (the option chosen at
    every layer, from :func:`rummikub.solver.fast.run`): the compiled walk gives the runs and
    each number's group counts, which become melds here (the same melds, in the same order, as
    the Python :func:`rummikub.solver.dp.trace` builds from the steps)."""
    events, gcounts, used, jokers, placed, value = _walked(p, path)
    gmax = max_group_size(p.colours)
    melds: list[list[tuple[int, int, bool]]] = []
    for kind, c, first, last, jmask in events.tolist():
        if kind == 0:
            melds.append([(c, m, bool(jmask >> m & 1)) for m in range(first, last + 1)])
        else:  # the groups at number ``first``; ``c`` jokers join them
            counts = tuple(gcounts[first - 1].tolist())
            for colours, nj in _groups(counts, c, gmax):
                melds.append([(k, first, False) for k in colours] + [(-1, first, True)] * nj)
    used_d = {(c, n + 1): x for c, row in enumerate(used.tolist()) for n, x in enumerate(row) if x}
    return DPResult(score, int(placed) - p.jt, int(value), melds, used_d, int(jokers))


def used_path(p: Problem, path: Any) -> tuple[list[list[int]], int]:
    """The real tiles of every kind (``used[c][n - 1]``, table tiles included) and the jokers
    in the new melds that ``path`` reaches, without building the melds."""
    _, _, used, jokers, _, _ = _walked(p, path)
    return used.tolist(), int(jokers)


def _walked(p: Problem, path: Any) -> tuple[Any, Any, Any, int, int, int]:
    C, K = p.colours, p.copies
    joker_real = p.jhi < 3
    consts = _consts(C, K, joker_real)
    grid = problem_grid(p)[_TABLE_AND_HI]  # a copy: the layout the walk is compiled for
    return _walk(
        C, p.numbers, K, path, grid, p.jhi, joker_real, consts[4], consts[5], consts[6],
        consts[14],
    )  # fmt: skip


@cache
def _groups(counts: tuple[int, ...], jokers: int, gmax: int) -> list[tuple[list[int], int]]:
    return group_sizes(counts, jokers, gmax)


def _walk_py(
    C: int,
    N: int,
    K: int,
    path: Any,
    grid: Any,
    jhi: int,
    joker_real: bool,
    o_x: Any,
    o_g: Any,
    o_jr: Any,
    assigns: Any,
) -> tuple[Any, Any, Any, int, int, int]:  # pragma: no cover - compiled
    """Replay ``path`` (see :func:`rummikub.solver.dp.trace`, which this mirrors step for
    step): events ``(0, colour, first, last, joker bits)`` for each run as it closes and
    ``(1, jokers, number, 0, 0)`` for each number's groups, the group counts per number, the
    real tiles used per (colour, number), and the jokers, tiles and value placed."""
    tcnt = grid[0]
    hi = grid[1]
    codes = np.zeros((C, K), np.int64)
    starts = np.zeros((C, K), np.int64)
    jbits = np.zeros((C, K), np.int64)
    ncode = np.zeros(K, np.int64)
    nstart = np.zeros(K, np.int64)
    nbits = np.zeros(K, np.int64)
    order = np.zeros(K, np.int64)
    events = np.zeros((N * C * K + C * K + N, 5), np.int64)
    ne = 0
    gcounts = np.zeros((N, C), np.int64)
    used = np.zeros((C, N), np.int64)
    jokers = 0
    placed = 0
    value = 0
    layer = 0
    for n in range(1, N + 1):
        for c in range(C):
            o = path[layer]
            layer += 1
            x = o_x[o]
            jr = o_jr[o]
            idle = True
            for k in range(K):
                if codes[c, k] != 0:
                    idle = False
            if idle and x == 0 and jr == 0:
                continue
            used[c, n - 1] = x
            placed += x - tcnt[c, n - 1] + jr
            jokers += jr
            value += n * (x + jr)
            gcounts[n - 1, c] = o_g[o]
            # the slots in a stable order of their codes (as the steps' assignments are)
            for k in range(K):
                order[k] = k
            for k in range(1, K):
                v = order[k]
                m = k - 1
                while m >= 0 and codes[c, order[m]] > codes[c, v]:
                    order[m + 1] = order[m]
                    m -= 1
                order[m + 1] = v
            for k in range(K):
                sl = order[k]
                code = codes[c, sl]
                a = assigns[o, k]
                length = code >> 1
                real = code & 1
                if a == 0:
                    if code == 7:
                        events[ne, 0] = 0
                        events[ne, 1] = c
                        events[ne, 2] = starts[c, sl]
                        events[ne, 3] = n - 1
                        events[ne, 4] = jbits[c, sl]
                        ne += 1
                    ncode[k] = 0
                    nstart[k] = 0
                    nbits[k] = 0
                else:
                    nl = length + 1 if length < 3 else 3
                    nr = 1 if (a == 1 or joker_real) else (real if length > 0 else 0)
                    ncode[k] = nl * 2 + nr
                    if length == 0:
                        nstart[k] = n
                        nbits[k] = 0
                    else:
                        nstart[k] = starts[c, sl]
                        nbits[k] = jbits[c, sl]
                    if a == 2:
                        nbits[k] |= 1 << n
            cap = jhi - jokers
            if cap > K:
                cap = K
            cap += hi[c, n] if n < N else 0
            if cap > K:
                cap = K
            must = 0
            for k in range(K):
                if ncode[k] != 0 and ncode[k] != 7:
                    must += 1
            keep = cap - must
            for k in range(K):
                if ncode[k] == 7:
                    if keep > 0:
                        keep -= 1
                    else:
                        events[ne, 0] = 0
                        events[ne, 1] = c
                        events[ne, 2] = nstart[k]
                        events[ne, 3] = n
                        events[ne, 4] = nbits[k]
                        ne += 1
                        ncode[k] = 0
                        nstart[k] = 0
                        nbits[k] = 0
                codes[c, k] = ncode[k]
                starts[c, k] = nstart[k]
                jbits[c, k] = nbits[k]
        jg = path[layer]
        layer += 1
        jokers += jg
        placed += jg
        value += n * jg
        any_group = jg > 0
        for c in range(C):
            if gcounts[n - 1, c] > 0:
                any_group = True
        if any_group:
            events[ne, 0] = 1
            events[ne, 1] = jg
            events[ne, 2] = n
            ne += 1
    for c in range(C):
        for k in range(K):
            if codes[c, k] == 7:
                events[ne, 0] = 0
                events[ne, 1] = c
                events[ne, 2] = starts[c, k]
                events[ne, 3] = N
                events[ne, 4] = jbits[c, k]
                ne += 1
    return events[:ne], gcounts, used, jokers, placed, value


_walk = compiled(_walk_py)
