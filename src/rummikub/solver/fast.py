"""The compiled DP kernel (Numba), the same algorithm as :func:`rummikub.solver.dp.run_python`.

States are packed into one 64-bit integer (mixed radix: each colour's slot multiset, jokers
used, the group histogram of the current number, the capped value, the tiles placed) and kept
in an open-addressing hash table per layer; every layer is stored flat with a back pointer and
the option chosen, so the best final state traces back to the new melds in Python.

The work is split: :mod:`rummikub.solver.tables` builds the rules' tables,
:mod:`rummikub.solver.kernel` holds the compiled kernel and :mod:`rummikub.solver.walk` turns
its answer into melds; this module puts a problem through them.

Numba is optional (the ``solver`` extra). Without it, or when a rule set is too large for the
64-bit encoding, :mod:`rummikub.solver.dp` runs the pure-Python DP, which gives the same
answers.
"""

from __future__ import annotations

import time

import numpy as np

from .kernel import _drive, available
from .problem import Problem, SolverTimeout, Trail
from .tables import _consts, _layout, fits, problem_grid
from .walk import trace_path

__all__ = ["available", "fits", "run", "trace_path"]

_NO_BOUND = -(1 << 62)
last_sizes: np.ndarray | None = None  # states per layer of the last exact pass (diagnostics)
_BEAM = 20
_BEAM_FROM = 30  # tiles: smaller problems are solved directly
# the same when a bound is given: below this the bound alone prunes well, and most positions of
# real games have no play at all, where a beam finds nothing and costs as much as the exact pass
# (greedy self-play 9-14% faster than with 30; bench/solver.py's random positions: mid-game
# median 1.2 ms instead of 1.1, dense 1.2 instead of 1.4)
_BEAM_BOUNDED_FROM = 70


#: states the kernel makes in a second (measured on the positions that take it longest: racks
#: of over 100 tiles under three copies and four jokers, bench/solver.py --huge), so that a
#: time limit becomes a number of states and a search under a limit ends near it whatever the
#: position (the kernel cannot read a clock)
STATES_PER_SECOND = 1_500_000
#: the least budget: a search on a nearly spent limit still answers the easy positions
MIN_STATES = 20_000


def state_budget(seconds: float) -> int:
    """The states the kernel may make in ``seconds``."""
    return max(MIN_STATES, int(seconds * STATES_PER_SECOND))


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
    grid = problem_grid(p)
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
        0 if deadline is None else state_budget(deadline - time.monotonic()),
    )
    if sizes.shape[0] and sizes[0] < 0:  # cut at the budget of the time left
        raise SolverTimeout
    global last_sizes
    last_sizes = sizes
    out: dict[int, tuple[int, Trail]] = {}
    for bucket in range(nb):
        if finals[bucket] < 0:
            continue
        out[bucket if p.per_count else 0] = (int(fscores[bucket]), path[bucket] if trace else [])
    return out
