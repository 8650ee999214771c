"""The exact core: a dynamic program over the numbers 1..N (van Rijn, Takes & Vis 2015).

Tiles are processed number by number and, within a number, colour by colour. The state holds,
for every colour, the open runs ("slots", one per copy of a tile: at most ``copies`` runs of a
colour can hold the same number) by length 0, 1, 2 or 3+ and whether they already hold a real
tile; the jokers used so far; the group tiles chosen at the current number (as a histogram);
and optional extras (the value placed so far, capped at the opening value; the tiles placed).

A slot of length 1 or 2 must be continued; a slot of length 3+ may be continued or closed. At
each (colour, number) the DP chooses how many real tiles are used (between the tiles that must
be used — those from the table — and all available), how many of them go to groups, and how
many jokers extend runs of that colour. After the last colour of a number, jokers may join the
number's groups, if the histogram with that many jokers splits into valid groups.

The objective is a weighted sum of tiles placed and value placed (a tile or joker at number
``n`` is worth ``n``); it is separable, so the DP is exact. The best final state is traced back
to the melds of the new table.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import cast

from .groups import group_joker_range, group_sizes, max_group_size
from .problem import (
    _CLOSABLE,
    DPResult,
    Problem,
    SolverTimeout,
    Step,
    Trail,
    _closable,
    _options,
    canon_slots,
    next_cap,
)

__all__ = [
    "DPResult",
    "Problem",
    "SolverTimeout",
    "Step",
    "Trail",
    "best_score",
    "decode",
    "run_dp",
    "run_python",
    "run_raw",
    "small_in_python",
    "trace",
]

#: the size up to which :func:`small_in_python` solves a problem without the compiled kernel
#: (0: no problem, outside it)
_PYTHON_UP_TO: ContextVar[int] = ContextVar("rummikub_solver_python_up_to", default=0)


@contextmanager
def small_in_python(tiles: int = 20) -> Iterator[None]:
    """In this block, a problem of at most ``tiles`` tiles that may end in the melds (table
    and rack, jokers included) is solved by the pure-Python DP even when the compiled kernel is
    available: a program that asks one small question (``rummikub solve``) answers in
    milliseconds instead of loading the kernels first (a second or more). The answer is as
    good (the same tiles, value and objective); the melds may be arranged otherwise. Which
    path a problem takes depends only on the problem, never on the time."""
    token = _PYTHON_UP_TO.set(tiles)
    try:
        yield
    finally:
        _PYTHON_UP_TO.reset(token)


def _use_kernel(p: Problem) -> bool:
    """Whether ``p`` goes to the compiled kernel (imported here, not before: loading it is
    what :func:`small_in_python` saves)."""
    limit = _PYTHON_UP_TO.get()
    if limit and sum(map(sum, p.hi)) + p.jhi <= limit:
        return False
    from . import fast

    return fast.available() and fast.fits(p)


def run_dp(p: Problem, deadline: float | None = None) -> dict[int, DPResult]:
    """Solve ``p``. Returns {0: best} or, with ``per_count``, {tiles placed: best}; an empty
    dict when no arrangement exists (e.g. table tiles that fit nowhere).

    Uses the compiled kernel (:mod:`rummikub.solver.fast`, needs Numba) when available and
    the problem fits its state encoding; otherwise the pure-Python DP below."""
    return {b: trace(p, steps, score) for b, (score, steps) in run_raw(p, deadline).items()}


def run_raw(
    p: Problem, deadline: float | None = None, *, at_least: int | None = None
) -> dict[int, tuple[int, Trail]]:
    """Solve ``p`` without building the melds: {bucket: (best score, the choices of every
    step)}; :func:`decode` reads a score, :func:`trace` builds the :class:`DPResult`. With
    ``at_least`` only solutions scoring that much are looked for (the result is empty when
    there is none); the kernel prunes with it."""
    if _use_kernel(p):
        from . import fast

        return fast.run(p, deadline, at_least=at_least, beam=True)
    finals: dict[int, tuple[int, Trail]] = {b: f for b, f in run_python(p, deadline).items()}
    if at_least is None:
        return finals
    return {b: f for b, f in finals.items() if f[0] >= at_least}


def decode(p: Problem, score: int) -> tuple[int, int]:
    """(rack tiles placed, value of the new melds) of a final score of ``p`` (not for
    ``per_count`` problems with zero weights)."""
    if p.w_tiles >= p.w_value:
        total = score // p.w_tiles
        value = (score - total * p.w_tiles) // p.w_value
    else:
        value = score // p.w_value
        total = (score - value * p.w_value) // p.w_tiles
    return total - p.jt, value


def best_score(
    p: Problem, deadline: float | None = None, *, at_least: int | None = None
) -> tuple[int, int] | None:
    """(tiles placed, value of the new melds) of the optimum, without building the melds;
    ``None`` when no arrangement exists (or none scores ``at_least``, a pruning hint). Not for
    ``per_count`` problems."""
    finals: dict[int, tuple[int, Trail]]
    if _use_kernel(p):
        from . import fast

        finals = fast.run(p, deadline, trace=False, at_least=at_least)
    else:
        finals = {b: f for b, f in run_python(p, deadline).items()}
    if 0 not in finals or (at_least is not None and finals[0][0] < at_least):
        return None
    return decode(p, finals[0][0])


def run_python(p: Problem, deadline: float | None = None) -> dict[int, tuple[int, list[Step]]]:
    """The pure-Python DP: {bucket: (best score, the choices of every step)}."""
    C, N, K = p.colours, p.numbers, p.copies
    gmax = max_group_size(C)
    joker_real = p.jhi < 3  # with fewer than 3 jokers no run can be jokers only
    start_slots = (0,) * K
    # key: (slots per colour..., jokers used, hist, vcap, count)
    zero_hist = (0,) * (K + 1)
    layer: dict[tuple[object, ...], int] = {(*([start_slots] * C), 0, zero_hist, 0, 0): 0}
    back: list[dict[tuple[object, ...], tuple[tuple[object, ...], tuple[object, ...]]]] = []
    floor = p.floor
    wt, wv = p.w_tiles, p.w_value
    ji = C  # index of jokers in key
    hi_idx = C + 1
    for n in range(1, N + 1):
        if deadline is not None and time.monotonic() > deadline:
            raise SolverTimeout
        for c in range(C):
            t = p.table[c][n - 1]
            lo = p.lo[c][n - 1]
            hi = p.hi[c][n - 1]
            nxt: dict[tuple[object, ...], int] = {}
            bp: dict[tuple[object, ...], tuple[tuple[object, ...], tuple[object, ...]]] = {}
            for key, score in layer.items():
                slots = cast(tuple[int, ...], key[c])
                j = cast(int, key[ji])
                jmax = min(K, p.jhi - j)
                for ns0, x, g, jr, assign in _options(slots, lo, hi, jmax, joker_real):
                    ns = canon_slots(ns0, next_cap(p, c, n, j + jr))
                    if ns is None:
                        continue
                    placed = x - t + jr
                    gained = n * (x + jr)
                    lst = list(key)
                    lst[c] = ns
                    lst[ji] = j + jr
                    if g:
                        h = list(key[hi_idx])  # type: ignore[call-overload]
                        h[g] += 1
                        lst[hi_idx] = tuple(h)
                    if floor:
                        lst[C + 2] = min(floor, key[C + 2] + gained)  # type: ignore[operator]
                    if p.per_count:
                        lst[C + 3] = key[C + 3] + placed  # type: ignore[operator]
                    nk = tuple(lst)
                    sc = score + wt * placed + wv * gained
                    old = nxt.get(nk)
                    if old is None or sc > old:
                        nxt[nk] = sc
                        bp[nk] = (key, ("c", c, x, g, jr, assign))
            layer = nxt
            back.append(bp)
        # jokers into this number's groups
        nxt = {}
        bp = {}
        for key, score in layer.items():
            hist = key[hi_idx]
            counts = tuple(
                sorted(
                    (g for g in range(1, K + 1) for _ in range(hist[g])),  # type: ignore[index]
                    reverse=True,
                )
            )
            j = cast(int, key[ji])
            for jg in group_joker_range(counts, gmax):
                if j + jg > p.jhi:
                    break
                lst = list(key)
                lst[ji] = j + jg
                lst[hi_idx] = zero_hist
                gained = n * jg
                if floor:
                    lst[C + 2] = min(floor, key[C + 2] + gained)  # type: ignore[operator]
                if p.per_count:
                    lst[C + 3] = key[C + 3] + jg  # type: ignore[operator]
                nk = tuple(lst)
                sc = score + wt * jg + wv * gained
                old = nxt.get(nk)
                if old is None or sc > old:
                    nxt[nk] = sc
                    bp[nk] = (key, ("g", n, jg))
        layer = nxt
        back.append(bp)
    finals: dict[int, tuple[int, tuple[object, ...]]] = {}
    for key, score in layer.items():
        if not all(_closable(key[c]) for c in range(C)):  # type: ignore[arg-type]
            continue
        j = cast(int, key[ji])
        if j < p.jlo:
            continue
        if floor and key[C + 2] < floor:  # type: ignore[operator]
            continue
        bucket = cast(int, key[C + 3]) if p.per_count else 0
        best = finals.get(bucket)
        if best is None or score > best[0]:
            finals[bucket] = (score, key)
    return {b: (score, _steps(back, key)) for b, (score, key) in finals.items()}


def _steps(
    back: list[dict[tuple[object, ...], tuple[tuple[object, ...], Step]]], key: tuple[object, ...]
) -> list[Step]:
    steps: list[Step] = []
    for bp in reversed(back):
        prev, choice = bp[key]
        steps.append(choice)
        key = prev
    steps.reverse()
    return steps


def trace(p: Problem, steps: Trail, score: int) -> DPResult:
    """The :class:`DPResult` (melds, tiles and value) of the final state reached by
    ``steps``."""
    if not isinstance(steps, list):
        from . import fast

        return fast.trace_path(p, steps, score)
    C, K = p.colours, p.copies
    gmax = max_group_size(C)
    melds: list[list[tuple[int, int, bool]]] = []
    # per colour: list of (code, tiles) for each slot
    slots: list[list[tuple[int, list[tuple[int, int, bool]]]]] = [
        [(0, []) for _ in range(K)] for _ in range(C)
    ]
    used: dict[tuple[int, int], int] = {}
    group_counts = [0] * C
    jokers = 0
    placed_tiles = 0
    value = 0
    i = 0
    joker_real = p.jhi < 3
    idle = [True] * C  # colours with no open run (nothing to do when nothing is used)
    for n in range(1, p.numbers + 1):
        group_counts = [0] * C
        for c in range(C):
            choice = steps[i]
            i += 1
            _, _, x, g, jr, assign = choice
            assert isinstance(x, int) and isinstance(g, int) and isinstance(jr, int)
            assert isinstance(assign, tuple)
            if idle[c] and not x and not jr:
                continue
            if x:
                used[(c, n)] = x
            placed_tiles += x - p.table[c][n - 1] + jr
            jokers += jr
            value += n * (x + jr)
            group_counts[c] = g
            cur = sorted(slots[c], key=lambda s: s[0])
            new: list[tuple[int, list[tuple[int, int, bool]]]] = []
            for (code, tiles), a in zip(cur, assign, strict=True):
                length, real = code >> 1, code & 1
                if a == 0:
                    if code == 7:
                        melds.append(tiles)
                    new.append((0, []))
                else:
                    nl = min(length + 1, 3)
                    nr = 1 if (a == 1 or joker_real) else (real if length else 0)
                    new.append((nl * 2 + nr, [*tiles, (c, n, a == 2)]))
            cap = next_cap(p, c, n, jokers)
            must = sum(1 for code, _ in new if code not in _CLOSABLE)
            keep = cap - must
            assert keep >= 0
            canon: list[tuple[int, list[tuple[int, int, bool]]]] = []
            for code, tiles in new:
                if code == 7:
                    if keep > 0:
                        keep -= 1
                    else:
                        melds.append(tiles)
                        code, tiles = 0, []
                canon.append((code, tiles))
            slots[c] = canon
            idle[c] = all(code == 0 for code, _ in canon)
        choice = steps[i]
        i += 1
        _, _, jg = choice
        assert isinstance(jg, int)
        jokers += jg
        placed_tiles += jg
        value += n * jg
        if any(group_counts) or jg:
            for colours, nj in group_sizes(tuple(group_counts), jg, gmax):
                melds.append([(c, n, False) for c in colours] + [(-1, n, True)] * nj)
    for c in range(C):
        for code, tiles in slots[c]:
            if code == 7:
                melds.append(tiles)
            else:
                assert code == 0
    return DPResult(score, placed_tiles - p.jt, value, melds, used, jokers)
