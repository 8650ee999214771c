"""The compiled DP kernel (Numba), the same algorithm as :func:`rummikub.solver.dp.run_python`.

States are packed into one 64-bit integer (mixed radix: each colour's slot multiset, jokers
used, the group histogram of the current number, the capped value, the tiles placed) and kept
in an open-addressing hash table per layer; every layer is stored flat with a back pointer and
the option chosen, so the best final state traces back to the new melds in Python.

Numba is optional (the ``solver`` extra). Without it, or when a rule set is too large for the
64-bit encoding, :mod:`rummikub.solver.dp` runs the pure-Python DP, which gives the same
answers.
"""

from __future__ import annotations

import time
from functools import cache
from itertools import chain, combinations_with_replacement
from typing import Any

import numpy as np

from .dp import DPResult, Problem, SolverTimeout, Trail, _options, canon_slots
from .groups import group_joker_range, group_sizes, max_group_size

__all__ = ["available", "fits", "run", "trace_path"]

try:  # pragma: no cover - depends on the environment
    from numba import njit

    _HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _HAVE_NUMBA = False

_CODES = (0, 2, 3, 4, 5, 6, 7)
_NO_BOUND = -(1 << 62)
last_sizes: np.ndarray | None = None  # states per layer of the last exact pass (diagnostics)
_BEAM = 20
_BEAM_FROM = 30  # tiles: smaller problems are solved directly
_BEAM_BOUNDED_FROM = 30  # the same when a bound is given


def available() -> bool:
    """Whether the compiled kernel can be used (Numba is installed)."""
    return _HAVE_NUMBA


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


def run(
    p: Problem,
    deadline: float | None = None,
    *,
    trace: bool = True,
    at_least: int | None = None,
    beam: bool = False,
) -> dict[int, tuple[int, Trail]]:
    """Solve ``p`` with the compiled kernel: {bucket: (best score, the choice of every layer
    as an array, which :func:`rummikub.solver.dp.trace` reads)} (an empty list without
    ``trace``). With ``at_least`` only solutions scoring that much are looked for
    (states that cannot reach it are pruned); the result is empty if there is none. The
    beam search that finds a bound first runs without ``at_least`` or with ``beam``."""
    if deadline is not None and time.monotonic() > deadline:
        raise SolverTimeout
    C, N, K = p.colours, p.numbers, p.copies
    joker_real = p.jhi < 3
    (pair_index, S, ptr, o_ns, o_x, o_g, o_jr, add, mask, closable, canon, dom_ptr, dom_idx,
     risk, _assigns) = _consts(C, K, joker_real)  # fmt: skip
    grid = _grid(p.table, p.lo, p.hi)
    count_max = None
    if p.per_count:
        count_max = int((grid[2] - grid[0]).sum()) + p.jhi + 1
    nb, strides, masks = _layout(C, K, p.jhi, p.floor, count_max)
    lb = _NO_BOUND if at_least is None else at_least
    total = sum(map(sum, p.hi))
    # a quick beam search gives a feasible score; the exact pass prunes every state that
    # cannot reach it even if all its remaining tiles were placed. When the beam reaches
    # the bound of the whole problem (every tile used, every joker at the top number: the
    # usual case on crowded tables) its answer is optimal and the exact pass is skipped.
    use_beam = nb == 1 and (
        (at_least is None and total > _BEAM_FROM) or (beam and total > _BEAM_BOUNDED_FROM)
    )
    finals, fscores, sizes, path = _drive(
        C,
        N,
        K,
        S,
        grid,
        pair_index,
        p.jlo,
        p.jhi,
        p.floor,
        p.w_tiles,
        p.w_value,
        ptr,
        o_ns,
        o_x,
        o_g,
        o_jr,
        add,
        mask,
        closable,
        canon,
        strides,
        masks,
        nb,
        dom_ptr,
        dom_idx,
        risk,
        lb,
        _BEAM if use_beam else 0,
        trace,
    )
    global last_sizes
    last_sizes = sizes
    out: dict[int, tuple[int, Trail]] = {}
    for bucket in range(nb):
        if finals[bucket] < 0:
            continue
        out[bucket if p.per_count else 0] = (int(fscores[bucket]), path[bucket] if trace else [])
    return out


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


def _dominated_py(
    key: int,
    sc: int,
    c_lo: int,
    c_hi: int,
    strides: Any,
    MS: int,
    dom_ptr: Any,
    dom_idx: Any,
    hkeys: Any,
    hidx: Any,
    hmask: int,
    scores: Any,
) -> bool:  # pragma: no cover - compiled
    """Whether the layer's hash table holds a state that differs from ``key`` in the slots of
    one colour of ``c_lo .. c_hi - 1`` only, dominates it there and scores at least ``sc``."""
    for c in range(c_lo, c_hi):
        s = (key >> strides[c]) & MS
        for d in range(dom_ptr[s], dom_ptr[s + 1]):
            uk = key + ((dom_idx[d] - s) << strides[c])
            hpos = ((uk * 0x9E3779B1) ^ (uk >> 17)) & hmask
            while True:
                hk = hkeys[hpos]
                if hk == -1:
                    break
                if hk == uk:
                    if scores[hidx[hpos]] >= sc:
                        return True
                    break
                hpos = (hpos + 1) & hmask
    return False


_dominated = njit(cache=True, nogil=True)(_dominated_py) if _HAVE_NUMBA else _dominated_py


def _kernel_py(
    C: int,
    N: int,
    K: int,
    S: int,
    pairs: Any,
    tcnt: Any,
    nexthi: Any,
    jlo: int,
    jhi: int,
    floor: int,
    wt: int,
    wv: int,
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
    radices: Any,
    nb: int,
    ub_after: Any,
    jbonus: int,
    dom_ptr: Any,
    dom_idx: Any,
    risk: Any,
    lb: int,
    beam: int,
) -> tuple[Any, Any, Any, Any, Any, Any]:  # pragma: no cover - compiled
    st_j = strides[C]
    st_h = strides[C + 1]
    st_v = strides[C + 2]
    st_n = strides[C + 3]
    MS = radices[0]
    MH = radices[C + 1]
    MJ = radices[C]
    MV = radices[C + 2]
    MN = radices[C + 3]
    cap = 1 << 11
    keys = np.empty(cap, np.int64)
    scores = np.empty(cap, np.int64)
    parents = np.empty(cap, np.int64)
    choices = np.empty(cap, np.int64)
    keys[0] = 0
    scores[0] = 0
    parents[0] = -1
    choices[0] = -1
    start = 0
    end = 1
    hcap = 1 << 6
    hkeys = np.full(hcap, -1, np.int64)
    hidx = np.empty(hcap, np.int64)
    layer = -1
    sizes = np.zeros(N * (C + 1), np.int64)
    for n in range(1, N + 1):
        for step in range(C + 1):
            layer += 1
            count = 0
            # make sure the hash table is at least 4x the previous layer
            want = 1 << 6
            while want < 8 * (end - start):
                want <<= 1
            if want != hcap:
                hcap = want
                hkeys = np.full(hcap, -1, np.int64)
                hidx = np.empty(hcap, np.int64)
            else:
                hkeys[:] = -1
            hmask = hcap - 1
            base = end
            for i in range(start, end):
                key = keys[i]
                sc0 = scores[i]
                j = (key >> st_j) & MJ
                if step < C:
                    c = step
                    s = (key >> strides[c]) & MS
                    pr = pairs[c, n - 1]
                    t = tcnt[c, n - 1]
                    o_lo = ptr[pr, s]
                    o_hi = ptr[pr, s + 1]
                    nopt = o_hi - o_lo
                else:
                    h = (key >> st_h) & MH
                    m = mask[h]
                    nopt = jhi - j + 1
                    o_lo = 0
                for q in range(nopt):
                    if step < C:
                        o = o_lo + q
                        jr = o_jr[o]
                        if j + jr > jhi:
                            continue
                        x = o_x[o]
                        g = o_g[o]
                        placed = x - t + jr
                        gained = n * (x + jr)
                        cap = jhi - j - jr
                        if cap > K:
                            cap = K
                        cap += nexthi[c, n - 1]
                        if cap > K:
                            cap = K
                        ns = canon[o_ns[o], cap]
                        if ns < 0:
                            continue
                        nk = key + ((ns - s) << strides[c]) + (jr << st_j)
                        if g > 0:
                            hh = (key >> st_h) & MH
                            h2 = add[hh, g]
                            if h2 < 0:
                                continue
                            nk += (h2 - hh) << st_h
                        ch = o
                    else:
                        jg = q
                        if (m >> jg) & 1 == 0:
                            continue
                        placed = jg
                        gained = n * jg
                        nk = key - (h << st_h) + (jg << st_j)
                        ch = jg
                    if floor > 0:
                        v = (key >> st_v) & MV
                        v2 = v + gained
                        if v2 > floor:
                            v2 = floor
                        nk += (v2 - v) << st_v
                    if nb > 1:
                        nk += placed << st_n
                    sc = sc0 + wt * placed + wv * gained
                    if sc + ub_after[layer] + (jhi - ((nk >> st_j) & MJ)) * jbonus < lb:
                        continue
                    # insert
                    hpos = ((nk * 0x9E3779B1) ^ (nk >> 17)) & hmask
                    while True:
                        hk = hkeys[hpos]
                        if hk == -1:
                            # new entry
                            if 2 * (count + 1) > hcap:
                                # grow hash table
                                ncap = hcap * 2
                                nkeys = np.full(ncap, -1, np.int64)
                                nidx = np.empty(ncap, np.int64)
                                nmask = ncap - 1
                                for e in range(base, base + count):
                                    kk = keys[e]
                                    pp = ((kk * 0x9E3779B1) ^ (kk >> 17)) & nmask
                                    while nkeys[pp] != -1:
                                        pp = (pp + 1) & nmask
                                    nkeys[pp] = kk
                                    nidx[pp] = e
                                hkeys = nkeys
                                hidx = nidx
                                hcap = ncap
                                hmask = nmask
                                hpos = ((nk * 0x9E3779B1) ^ (nk >> 17)) & hmask
                                while hkeys[hpos] != -1:
                                    hpos = (hpos + 1) & hmask
                            pos = base + count
                            if pos >= keys.shape[0]:
                                ncap2 = keys.shape[0] * 2
                                k2 = np.empty(ncap2, np.int64)
                                s2 = np.empty(ncap2, np.int64)
                                p2 = np.empty(ncap2, np.int64)
                                c2 = np.empty(ncap2, np.int64)
                                k2[:pos] = keys[:pos]
                                s2[:pos] = scores[:pos]
                                p2[:pos] = parents[:pos]
                                c2[:pos] = choices[:pos]
                                keys = k2
                                scores = s2
                                parents = p2
                                choices = c2
                            keys[pos] = nk
                            scores[pos] = sc
                            parents[pos] = i
                            choices[pos] = ch
                            hkeys[hpos] = nk
                            hidx[hpos] = pos
                            count += 1
                            break
                        if hk == nk:
                            e = hidx[hpos]
                            if sc > scores[e]:
                                scores[e] = sc
                                parents[e] = i
                                choices[e] = ch
                            break
                        hpos = (hpos + 1) & hmask
            # dominance is looked for in the colour just decided only (two states that differ
            # in another colour came from parents that differ there alike, already compared);
            # after a number's group step (group counts reset) in every colour
            d_lo = step if step < C else 0
            d_hi = step + 1 if step < C else C
            if beam > 0 and count > beam:
                # heuristic pass: keep the best ``beam`` states that no other state dominates,
                # ranked by score plus what the unused jokers could still add (ranking by
                # score alone spends the jokers at the first numbers, at their lowest value);
                # ties: fewer tiles owed by open runs first (fewer dead ends ahead)
                pot = scores[base : base + count].copy()
                for e in range(count):
                    kk = keys[base + e]
                    owed = 0
                    for c in range(C):
                        owed += risk[(kk >> strides[c]) & MS]
                    pot[e] = (pot[e] + (jhi - ((kk >> st_j) & MJ)) * jbonus) * 64 - owed
                order = np.argsort(-pot)
                sel = np.empty(beam, np.int64)
                kept = 0
                for oi in order:
                    e = base + oi
                    if not _dominated(
                        keys[e],
                        scores[e],
                        d_lo,
                        d_hi,
                        strides,
                        MS,
                        dom_ptr,
                        dom_idx,
                        hkeys,
                        hidx,
                        hmask,
                        scores,
                    ):
                        sel[kept] = e
                        kept += 1
                        if kept == beam:
                            break
                k2 = keys[sel[:kept]]
                s2 = scores[sel[:kept]]
                p2 = parents[sel[:kept]]
                c2 = choices[sel[:kept]]
                keys[base : base + kept] = k2
                scores[base : base + kept] = s2
                parents[base : base + kept] = p2
                choices[base : base + kept] = c2
                count = kept
            else:
                # dominance: drop a state when one with a single slot better placed (same
                # jokers, same groups, same extras) scores at least as much
                dead = 0
                alive = np.ones(count, np.bool_)
                for e in range(base, base + count):
                    if _dominated(
                        keys[e],
                        scores[e],
                        d_lo,
                        d_hi,
                        strides,
                        MS,
                        dom_ptr,
                        dom_idx,
                        hkeys,
                        hidx,
                        hmask,
                        scores,
                    ):
                        alive[e - base] = False
                        dead += 1
                if dead > 0:
                    w = base
                    for e in range(base, base + count):
                        if alive[e - base]:
                            keys[w] = keys[e]
                            scores[w] = scores[e]
                            parents[w] = parents[e]
                            choices[w] = choices[e]
                            w += 1
                    count = w - base
            start = base
            end = base + count
            sizes[layer] = count
    finals = np.full(nb, -1, np.int64)
    fscores = np.zeros(nb, np.int64)
    for i in range(start, end):
        key = keys[i]
        ok = True
        for c in range(C):
            if not closable[(key >> strides[c]) & MS]:
                ok = False
                break
        if not ok:
            continue
        if ((key >> st_j) & MJ) < jlo:
            continue
        if floor > 0 and ((key >> st_v) & MV) < floor:
            continue
        b = 0
        if nb > 1:
            b = (key >> st_n) & MN
        if finals[b] < 0 or scores[i] > fscores[b]:
            finals[b] = i
            fscores[b] = scores[i]
    return keys, parents, choices, finals, fscores, sizes


# compiled once and cached on disk next to this module (numba's ``cache=True``)
_kernel = njit(cache=True, nogil=True)(_kernel_py) if _HAVE_NUMBA else _kernel_py


def _drive_py(
    C: int,
    N: int,
    K: int,
    S: int,
    grid: Any,
    pair_index: Any,
    jlo: int,
    jhi: int,
    floor: int,
    wt: int,
    wv: int,
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
    radices: Any,
    nb: int,
    dom_ptr: Any,
    dom_idx: Any,
    risk: Any,
    lb: int,
    beam: int,
    want_path: bool,
) -> tuple[Any, Any, Any, Any]:  # pragma: no cover - compiled
    """The kernel inputs derived from the problem, the beam search (when ``beam``) and the
    exact pass, and the choice of every layer on the way to each best final state
    (``path[bucket, layer]``). ``grid`` holds the table, lo and hi counts."""
    tcnt = grid[0]
    lo = grid[1]
    hi = grid[2]
    layers = N * (C + 1)
    pairs = np.empty((C, N), np.int64)
    nexthi = np.zeros((C, N), np.int64)
    gains = np.zeros(layers, np.int64)
    for c in range(C):
        for i in range(N):
            pr = pair_index[lo[c, i], hi[c, i]]
            if pr < 0:
                return (
                    np.full(nb, -1, np.int64),
                    np.zeros(nb, np.int64),
                    np.zeros(layers, np.int64),
                    np.full((nb, 0), -1, np.int64),
                )
            pairs[c, i] = pr
            if i + 1 < N:
                nexthi[c, i] = hi[c, i + 1]
            gains[i * (C + 1) + c] = wt * (hi[c, i] - tcnt[c, i]) + wv * (i + 1) * hi[c, i]
    # upper bound on the score still to come after each step (jokers apart): every tile used
    ub_after = np.zeros(layers, np.int64)
    acc = 0
    for layer in range(layers - 1, 0, -1):
        acc += gains[layer]
        ub_after[layer - 1] = acc
    jbonus = wt + wv * N
    ub_total = acc + gains[0] + jhi * jbonus  # every tile used, every joker at N
    res = _kernel(
        C, N, K, S, pairs, tcnt, nexthi, jlo, jhi, floor, wt, wv, ptr, o_ns, o_x, o_g, o_jr,
        add, mask, closable, canon, strides, radices, nb, ub_after, jbonus, dom_ptr, dom_idx,
        risk, lb, beam,
    )  # fmt: skip
    if beam > 0:
        bfinals = res[3]
        bscores = res[4]
        if bfinals[0] >= 0 and bscores[0] > lb:
            lb = bscores[0]
        if bfinals[0] < 0 or bscores[0] < ub_total:
            res = _kernel(
                C, N, K, S, pairs, tcnt, nexthi, jlo, jhi, floor, wt, wv, ptr, o_ns, o_x, o_g,
                o_jr, add, mask, closable, canon, strides, radices, nb, ub_after, jbonus,
                dom_ptr, dom_idx, risk, lb, 0,
            )  # fmt: skip
    parents = res[1]
    choices = res[2]
    finals = res[3]
    path = np.full((nb, layers if want_path else 0), -1, np.int64)
    if want_path:
        for b in range(nb):
            idx = finals[b]
            if idx < 0:
                continue
            for layer in range(layers - 1, -1, -1):
                path[b, layer] = choices[idx]
                idx = parents[idx]
    return finals, res[4], res[5], path


_drive = njit(cache=True, nogil=True)(_drive_py) if _HAVE_NUMBA else _drive_py


def trace_path(p: Problem, path: Any, score: int) -> DPResult:
    """The :class:`DPResult` of a final state reached by ``path`` (the option chosen at
    every layer, from :func:`run`): the compiled walk gives the runs and each number's group
    counts, which become melds here (the same melds, in the same order, as the Python
    :func:`rummikub.solver.dp.trace` builds from the steps)."""
    C, N, K = p.colours, p.numbers, p.copies
    joker_real = p.jhi < 3
    consts = _consts(C, K, joker_real)
    grid = _grid(p.table, p.hi)
    events, gcounts, used, jokers, placed, value = _walk(
        C, N, K, path, grid, p.jhi, joker_real, consts[4], consts[5], consts[6], consts[14]
    )
    gmax = max_group_size(C)
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


_walk = njit(cache=True, nogil=True)(_walk_py) if _HAVE_NUMBA else _walk_py
