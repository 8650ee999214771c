"""The compiled DP kernel (Numba): the layers of the dynamic program over 64-bit packed states,
the beam search that finds a bound first, and the path back from the best final states.

It runs on the tables of :mod:`rummikub.solver.tables`; :mod:`rummikub.solver.fast` feeds it a
problem and :mod:`rummikub.solver.walk` turns the path it returns into melds. Without Numba the
same functions run as plain Python (slowly; :mod:`rummikub.solver.dp` is used instead then).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

__all__ = ["KERNEL_FILES", "available", "compiled"]

try:  # pragma: no cover - depends on the environment
    from numba import njit

    _HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _HAVE_NUMBA = False


_F = TypeVar("_F", bound=Callable[..., Any])


def available() -> bool:
    """Whether the compiled kernel can be used (Numba is installed)."""
    return _HAVE_NUMBA


#: the solver's files that hold compiled kernels. Numba checks a cached kernel against its own
#: file only, so one that calls a kernel of another file (``counts._placed`` calls ``_drive``)
#: would be loaded with the other's old code after that file changed
KERNEL_FILES = ("counts.py", "kernel.py", "walk.py", "xpress.py")


def _drop_stale_kernels(here: Path) -> None:
    """Delete the cached kernels next to these files when any of them changed since they were
    cached (their digest is kept beside the cache). Installs are not concerned (pip writes fresh
    files, which Numba sees as changed); a source tree is, at the first import after a change.
    Best effort: where the folder cannot be written, Numba caches elsewhere or not at all."""
    try:
        digest = hashlib.sha256(b"".join((here / f).read_bytes() for f in KERNEL_FILES)).hexdigest()
        cache = here / "__pycache__"
        mark = cache / "kernels.sha256"
        if mark.is_file() and mark.read_text() == digest:
            return
        if cache.is_dir():
            for f in cache.iterdir():
                if f.suffix in (".nbi", ".nbc"):
                    f.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        part = cache / f"kernels.sha256.{os.getpid()}"
        part.write_text(digest)
        part.replace(mark)
    except OSError:  # pragma: no cover - a read-only install
        pass


if _HAVE_NUMBA:
    _drop_stale_kernels(Path(__file__).parent)


def compiled(fn: _F) -> _F:
    """``fn`` compiled by Numba (once, cached on disk next to its module: numba's
    ``cache=True``), or ``fn`` itself without Numba."""
    return cast(_F, njit(cache=True, nogil=True)(fn)) if _HAVE_NUMBA else fn


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


_dominated = compiled(_dominated_py)


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
    budget: int,
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
    work = 0  # states made so far (``budget``: at most this many, else cut: sizes[0] = -1)
    for n in range(1, N + 1):
        for step in range(C + 1):
            layer += 1
            # a hash table at least 8x the previous layer (larger when the layer outgrows it),
            # in the largest array made so far
            want = 1 << 6
            while want < 8 * (end - start):
                want <<= 1
            base = end
            # the layer's states, made from the previous layer's. No array is replaced inside
            # the loops over states and options: Numba would then count references to the
            # arrays at every turn of those loops (30% of the kernel's time until 2026-12-04).
            # When the state arrays or the hash table are too small the loops are left
            # (``full``) and the layer is made again with larger ones.
            while True:
                hcap = want
                if hcap > hkeys.shape[0]:
                    hkeys = np.full(hcap, -1, np.int64)
                    hidx = np.empty(hcap, np.int64)
                else:
                    hkeys[:hcap] = -1
                hmask = hcap - 1
                full = 0
                count = 0
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
                                    full = 2  # the hash table half full: a bigger one
                                    break
                                pos = base + count
                                if pos >= keys.shape[0]:
                                    full = 1  # the state arrays full: longer ones
                                    break
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
                        if full > 0:
                            break
                    if full > 0:
                        break
                if full == 0:
                    break
                # the layer is made again with larger arrays (doubled: rarely more than once)
                if full == 2:
                    want = hcap * 2
                else:
                    ncap2 = keys.shape[0] * 2
                    k2 = np.empty(ncap2, np.int64)
                    s2 = np.empty(ncap2, np.int64)
                    p2 = np.empty(ncap2, np.int64)
                    c2 = np.empty(ncap2, np.int64)
                    k2[:base] = keys[:base]
                    s2[:base] = scores[:base]
                    p2[:base] = parents[:base]
                    c2[:base] = choices[:base]
                    keys = k2
                    scores = s2
                    parents = p2
                    choices = c2
            work += count
            if budget > 0 and work > budget:
                sizes[0] = -1
                nothing = np.full(nb, -1, np.int64)
                return keys, parents, choices, nothing, np.zeros(nb, np.int64), sizes
            # dominance (the beam's at every step, the exact pass's after group steps) is
            # looked for in the colour just decided only (two states that differ in another
            # colour came from parents that differ there alike, already compared); after a
            # number's group step (group counts reset) in every colour
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
            elif step == C:
                # dominance: drop a state when one with a single slot better placed (same
                # jokers, same groups, same extras) scores at least as much. Looked for after a
                # number's group step only: after a colour step the tests cost more than the
                # states they drop save (without them the exact pass is 1.33-1.40x faster on
                # problems of real games, 2026-12-04; with none at all 1.15-1.35x slower)
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


_kernel = compiled(_kernel_py)


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
    budget: int,
) -> tuple[Any, Any, Any, Any]:  # pragma: no cover - compiled
    """The kernel inputs derived from the problem, the beam search (when ``beam``) and the
    exact pass, and the choice of every layer on the way to each best final state
    (``path[bucket, layer]``). ``grid`` holds the table, lo and hi counts. With ``budget``
    (> 0) each pass makes at most that many states: a pass cut short finds nothing and says
    so with ``sizes[0] == -1`` (the third result)."""
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
        risk, lb, beam, budget,
    )  # fmt: skip
    if beam > 0 and res[5][0] >= 0:
        bfinals = res[3]
        bscores = res[4]
        if bfinals[0] >= 0 and bscores[0] > lb:
            lb = bscores[0]
        if bfinals[0] < 0 or bscores[0] < ub_total:
            res = _kernel(
                C, N, K, S, pairs, tcnt, nexthi, jlo, jhi, floor, wt, wv, ptr, o_ns, o_x, o_g,
                o_jr, add, mask, closable, canon, strides, radices, nb, ub_after, jbonus,
                dom_ptr, dom_idx, risk, lb, 0, budget,
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


_drive = compiled(_drive_py)
