"""The solver's best play as tile counts, for playouts: what :func:`rummikub.solver.solve`
(objective ``tiles``, without the tie-break on changed melds) places, from a table and a rack
given as count grids, without building a single meld.

Under rules that lock no table meld (no joker variant that makes the solver keep melds as they
are) the solver frees every table meld, so its answer depends on the table's tiles only, never
on how they are arranged: a playout may keep the table as counts. The answer is the same
optimum, found by the same dynamic program on the same problem, as :func:`solve` gives (the
same tiles, ties included); only the new table's melds are not built.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.rules import Rules
from .dp import decode, run_raw, trace
from .problem import Problem
from .quick import fit_masks, row_bits

__all__ = ["counts_supported", "placed_counts"]

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
    table: Sequence[Sequence[int]],
    table_jokers: int,
    table_value: int,
    rack: Sequence[Sequence[int]],
    rack_jokers: int,
) -> tuple[list[list[int]], int] | None:
    """The rack tiles the solver's best play places for an opened player (most tiles, then
    most value): their counts (``placed[c][n - 1]``) and jokers, or ``None`` when nothing can
    be placed. ``table[c][n - 1]``: the table's real tiles, ``table_value`` their value;
    ``rack`` likewise. Only for rules where :func:`counts_supported` holds."""
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
        from .walk import used_path

        used, jokers = used_path(prob, raw[1])
    placed = [
        list(map(int.__sub__, u_row, t_row)) for u_row, t_row in zip(used, table, strict=True)
    ]
    return placed, jokers - jt
