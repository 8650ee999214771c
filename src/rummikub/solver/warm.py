"""Loading the solver's compiled kernels ahead of the first real question.

The kernels are compiled by Numba on their first use after an install (several seconds, more on
a busy machine) and loaded from the on-disk cache after that (a fraction of a second). A program
that answers under a time limit (the server's bots and hints, the terminal game) calls
:func:`warm_up` when it starts, so no player's first hint or bot move pays for it.
"""

from __future__ import annotations

import time

import numpy as np

from rummikub.core import Rack, Table, preset

from . import fast, xpress
from .api import arrangeable, best_per_count, solve
from .counts import opening_counts, placed_counts
from .model import counts_grid

__all__ = ["warm_up"]

_TABLE = "R1 R2 R3 | K5 B5 O5 | B9 B10 B11 B12 | K7 K8 J=K9"
_RACK = "R4 J K1 O9 R9 B13 K6 O10 O11"


def warm_up() -> float:
    """Run every compiled kernel once (compiling or loading it); the seconds it took.

    Without the compiled kernels (no Numba) there is nothing to load and this returns 0.
    """
    if not fast.available():
        return 0.0
    start = time.perf_counter()
    table, rack = Table.parse(_TABLE), Rack.parse(_RACK)
    for objective in ("tiles", "value", "min-change"):
        solve(table, rack, opened=True, objective=objective)
    solve(table, rack, opened=False)
    best_per_count(table, rack, opened=True)
    rules = preset("standard")
    arrangeable(list(rack), rules)
    # the kernel of the playouts on tile counts (the evaluation's, the bots' playouts)
    on_table = table.tiles()
    grid, jokers = counts_grid(on_table, rules)
    hand, hand_jokers = counts_grid(rack.tiles, rules)
    counts = np.array(hand, np.int64)
    value = sum(t.number for t in on_table if not t.is_joker)
    placed_counts(rules, np.array(grid, np.int64), jokers, value, counts, hand_jokers)
    opening_counts(rules, counts, hand_jokers)
    xpress.warm_up()  # the dice game's playouts (its evaluation, the expert and the hint)
    return time.perf_counter() - start
