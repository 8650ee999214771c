"""Joker variants: which table melds the solver must leave alone.

Under ``joker_rule: strict`` a meld holding a joker may only be added to, or have its joker
replaced by the tile it stands for. Under ``group_needs_both_colours`` a joker may leave a group
of three only when both missing colours are added. Under ``freed_joker_new_set`` a joker
replaced in a run must leave that run's set. The solver handles all of them conservatively:
such melds are *locked* — kept exactly as they are, and never used as a source of tiles. Every
play it returns is therefore legal under these rules (it may miss plays that extend a locked
meld or swap out its joker). A locked meld keeps its joker, so ``joker_swap_from_rack`` never
comes into play either.
"""

from __future__ import annotations

from ..core.melds import read_meld
from ..core.rules import Rules
from ..core.table import Table

__all__ = ["locked_melds"]


def locked_melds(table: Table, rules: Rules) -> set[int]:
    """Indices of the table melds the solver keeps untouched under these joker rules."""
    strict = rules.joker_rule == "strict"
    if not strict and not rules.group_needs_both_colours and not rules.freed_joker_new_set:
        return set()
    out: set[int] = set()
    for i, meld in enumerate(table.melds):
        if not any(t.is_joker for t in meld.tiles):
            continue
        if strict:
            out.add(i)
            continue
        reading = read_meld(meld, rules)
        if rules.group_needs_both_colours and reading.kind == "group" and len(reading.tiles) == 3:
            out.add(i)
        if rules.freed_joker_new_set and reading.kind == "run":
            out.add(i)
    return out
