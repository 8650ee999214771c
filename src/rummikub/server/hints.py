"""Hints: the best play for the player to move, computed from his observation only.

Uses the optimal solver (``rummikub.solver.solve`` with ``objective="min-change"``) when it
is installed, else the strongest bot level available.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummikub.core import Observation, Play

__all__ = ["compute_hint"]


def _solver() -> Callable[..., Any] | None:
    try:
        from rummikub.solver import solve
    except ImportError:  # the solver's optional dependencies are missing
        return None
    return solve


def compute_hint(obs: Observation, time_limit: float = 3.0) -> dict[str, Any]:
    """``{"tiles": [...], "table": [[...]]}`` for the suggested play, or ``{"tiles": [],
    "table": None}`` when the best move is to draw."""
    play: Play | None = None
    solve = _solver()
    if solve is not None:
        sol = solve(
            obs.table,
            obs.rack,
            opened=obs.has_opened,
            rules=obs.rules,
            objective="min-change",
            time_limit=time_limit,
        )
        play = sol.as_play()
    else:
        from rummikub.bots import BOTS, get_bot

        level = next(
            (b for b in ("expert", "strategic", "greedy", "beginner") if b in BOTS), "beginner"
        )
        action = get_bot(level, seed=0).act(obs, time_limit)
        play = action if isinstance(action, Play) else None
    if play is None:
        return {"tiles": [], "table": None}
    return {"tiles": [str(t) for t in play.tiles], "table": play.table.to_json()}
