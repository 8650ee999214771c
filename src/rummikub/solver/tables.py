"""The compiled kernel's precomputed tables: every input of :mod:`rummikub.solver.kernel` that
depends on the rules only (the per-colour options, slot dominance, group histograms), built
once per rule set, and the 64-bit state layout of a problem.
"""

from __future__ import annotations

from functools import cache
from itertools import chain, combinations_with_replacement
from typing import Any

import numpy as np

from .groups import group_joker_range, max_group_size
from .problem import Problem, _options, canon_slots

__all__ = ["fits", "problem_grid"]

_CODES = (0, 2, 3, 4, 5, 6, 7)


@cache
def _slot_sets(k: int) -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, ...], int]]:
    sets = tuple(combinations_with_replacement(_CODES, k))
    return sets, {s: i for i, s in enumerate(sets)}


def _radices(p: Problem, count_max: int | None = None) -> list[int] | None:
    sets, _ = _slot_sets(p.copies)
    if count_max is None and p.per_count:
        count_max = (
            sum(p.hi[c][i] - p.table[c][i] for c in range(p.colours) for i in range(p.numbers))
            + p.jhi
            + 1
        )
    radices = [len(sets)] * p.colours + [
        p.jhi + 1,
        (p.colours + 1) ** p.copies,
        p.floor + 1,
        (count_max or 0) + 1 if p.per_count else 1,
    ]
    bits = sum((r - 1).bit_length() for r in radices)
    return radices if bits <= 62 else None


def fits(p: Problem) -> bool:
    """Whether ``p`` fits the kernel's 64-bit state encoding."""
    if p.jhi >= 63:
        return False
    if not p.per_count:
        return _fits_plain(p.colours, p.copies, p.jhi, p.floor)
    return _radices(p) is not None


@cache
def _fits_plain(colours: int, copies: int, jhi: int, floor: int) -> bool:
    """:func:`fits` for a problem without ``per_count`` (it depends on these only)."""
    t = ((0,),)
    return _radices(Problem(colours, 1, copies, t, t, t, 0, 0, jhi, floor)) is not None


def _grid(*rows: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """Count grids (tuples of rows) as one int64 array of shape (len(rows), colours,
    numbers)."""
    flat = [r for g in rows for r in g]
    return np.fromiter(chain.from_iterable(flat), np.int64, len(flat) * len(flat[0])).reshape(
        len(rows), len(rows[0]), len(flat[0])
    )


class _LastGrid:
    """The grid of the last problem given to the kernel: its answer is then traced back on
    the same problem (problems are immutable; the grid is only read)."""

    entry: tuple[Problem, np.ndarray] | None = None


def problem_grid(p: Problem) -> np.ndarray:
    """:func:`_grid` of ``p.table``, ``p.lo`` and ``p.hi`` (that of the last problem is given
    again for the same object)."""
    last = _LastGrid.entry  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is p:
        return last[1]
    grid = _grid(p.table, p.lo, p.hi)
    _LastGrid.entry = (p, grid)
    return grid


@cache
def _option_tables(k: int, joker_real: bool) -> tuple[np.ndarray, ...]:
    """Per (lo, hi) pair and slot multiset, the per-colour options as flat arrays."""
    sets, index = _slot_sets(k)
    pairs = [(lo, hi) for lo in range(k + 1) for hi in range(lo, k + 1)]
    ptr = np.zeros((len(pairs), len(sets) + 1), dtype=np.int64)
    ns_l: list[int] = []
    x_l: list[int] = []
    g_l: list[int] = []
    jr_l: list[int] = []
    assign_l: list[tuple[int, ...]] = []
    for pi, (lo, hi) in enumerate(pairs):
        for si, slots in enumerate(sets):
            ptr[pi, si] = len(ns_l)
            for ns, x, g, jr, assign in _options(slots, lo, hi, k, joker_real):
                ns_l.append(index[ns])
                x_l.append(x)
                g_l.append(g)
                jr_l.append(jr)
                assign_l.append(assign)
        ptr[pi, len(sets)] = len(ns_l)
    pair_index = np.full((k + 1, k + 1), -1, dtype=np.int64)
    for pi, (lo, hi) in enumerate(pairs):
        pair_index[lo, hi] = pi
    assigns = np.array(assign_l, dtype=np.int64).reshape(len(assign_l), k)
    closable = np.array([all(c in (0, 7) for c in s) for s in sets], dtype=np.bool_)
    canon = np.full((len(sets), k + 1), -1, dtype=np.int64)
    for si, slots in enumerate(sets):
        for cap in range(k + 1):
            new = canon_slots(slots, cap)
            if new is not None:
                canon[si, cap] = index[new]
    return (
        ptr,
        np.array(ns_l, dtype=np.int64),
        np.array(x_l, dtype=np.int64),
        np.array(g_l, dtype=np.int64),
        np.array(jr_l, dtype=np.int64),
        assigns,
        pair_index,
        closable,
        canon,
    )


def _dominates(b: int, a: int) -> bool:
    """Whether slot code ``b`` can do everything slot code ``a`` can (and end up at least as
    well placed): an open run of 3+ with a real tile can close or go on; a longer run beats a
    shorter one that must go on anyway; a run with a real tile beats one of jokers only."""
    if a == b:
        return True
    if b == 7:
        return True
    if a == 0 or b == 0:
        return False
    return (b >> 1) >= (a >> 1) and (b & 1) >= (a & 1)


def _multiset_dominates(big: tuple[int, ...], small: tuple[int, ...]) -> bool:
    """Whether the slots ``big`` can be matched one to one onto ``small``, each dominating."""

    def rec(i: int, used: int) -> bool:
        if i == len(small):
            return True
        for j, b in enumerate(big):
            if not used >> j & 1 and _dominates(b, small[i]) and rec(i + 1, used | 1 << j):
                return True
        return False

    return rec(0, 0)


@cache
def _dominance_tables(k: int) -> tuple[np.ndarray, np.ndarray]:
    """For each slot multiset, every other multiset that dominates it slot by slot
    (CSR: pointers, indices)."""
    sets, _ = _slot_sets(k)
    ptr = np.zeros(len(sets) + 1, dtype=np.int64)
    out: list[int] = []
    for si, slots in enumerate(sets):
        out.extend(
            ti for ti, other in enumerate(sets) if ti != si and _multiset_dominates(other, slots)
        )
        ptr[si + 1] = len(out)
    return ptr, np.array(out, dtype=np.int64)


@cache
def _risk_table(k: int) -> np.ndarray:
    """Per slot multiset, how many tiles its open runs still need before they may close (the
    beam prefers states that owe fewer: they are less likely to reach a dead end)."""
    sets, _ = _slot_sets(k)
    need = {0: 0, 2: 2, 3: 2, 4: 1, 5: 1, 6: 0, 7: 0}
    return np.array([sum(need[c] for c in s) for s in sets], dtype=np.int64)


@cache
def _hist_tables(colours: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """hist index arithmetic: add[h, g] (-1 if impossible) and the feasible-joker bit mask."""
    radix = colours + 1
    size = radix**k
    add = np.full((size, k + 1), -1, dtype=np.int64)
    mask = np.zeros(size, dtype=np.int64)
    gmax = max_group_size(colours)
    for h in range(size):
        digits = [(h // radix**i) % radix for i in range(k)]  # digits[g-1] = colours with g
        if sum(digits) > colours:
            continue
        for g in range(1, k + 1):
            if digits[g - 1] + 1 <= colours and sum(digits) + 1 <= colours:
                add[h, g] = h + radix ** (g - 1)
        counts = tuple(
            sorted((g for g in range(1, k + 1) for _ in range(digits[g - 1])), reverse=True)
        )
        m = 0
        for jg in group_joker_range(counts, gmax):
            if jg < 63:
                m |= 1 << jg
        mask[h] = m
    return add, mask


@cache
def _consts(colours: int, k: int, joker_real: bool) -> tuple[Any, ...]:
    """The problem-independent kernel inputs for these rules (built once)."""
    ptr, o_ns, o_x, o_g, o_jr, assigns, pair_index, closable, canon = _option_tables(k, joker_real)
    add, mask = _hist_tables(colours, k)
    dom_ptr, dom_idx = _dominance_tables(k)
    return (
        pair_index,
        len(_slot_sets(k)[0]),
        ptr,
        o_ns,
        o_x,
        o_g,
        o_jr,
        add,
        mask,
        closable,
        canon,
        dom_ptr,
        dom_idx,
        _risk_table(k),
        assigns,
    )


@cache
def _layout(
    colours: int, k: int, jhi: int, floor: int, count_max: int | None
) -> tuple[int, np.ndarray, np.ndarray]:
    """The state encoding: (buckets, bit offset and mask of every field)."""
    radices = [len(_slot_sets(k)[0])] * colours + [
        jhi + 1,
        (colours + 1) ** k,
        floor + 1,
        (count_max or 0) + 1 if count_max is not None else 1,
    ]
    widths = [(r - 1).bit_length() for r in radices]
    strides = np.cumsum(np.array([0, *widths[:-1]], dtype=np.int64))  # bit offsets
    masks = np.array([(1 << w) - 1 for w in widths], dtype=np.int64)
    return radices[-1], strides, masks
