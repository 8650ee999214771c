"""The optimal solver: the best play from any rack on any table.

>>> from rummikub import Table, Rack
>>> from rummikub.solver import solve
>>> sol = solve(Table.parse("R1 R2 R3 | K5 B5 O5"), Rack.parse("R4 J K1"), opened=True)
>>> sol.tiles, sol.value
(2, 9)

See ``docs/solver.md`` for objectives, tie-breaks, the algorithm and the joker variants.
"""

from __future__ import annotations

from .api import (
    OBJECTIVES,
    Objective,
    PerCount,
    Solution,
    all_best,
    arrangeable,
    best_per_count,
    changes,
    per_count,
    solve,
    suggest,
)
from .model import Position, check_position

__all__ = [
    "OBJECTIVES",
    "Objective",
    "PerCount",
    "Position",
    "Solution",
    "all_best",
    "arrangeable",
    "best_per_count",
    "changes",
    "check_position",
    "per_count",
    "solve",
    "solve_position",
    "suggest",
]


def solve_position(
    position: Position, *, objective: str = "tiles", time_limit: float | None = None
) -> Solution:
    """:func:`solve` for a :class:`Position`."""
    return solve(
        position.table,
        position.rack,
        opened=position.opened,
        rules=position.rules,
        objective=objective,
        time_limit=time_limit,
    )
