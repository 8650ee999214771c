"""Hints: the best play for the player to move, computed from his observation only
(``rummikub.solver.suggest``, the solver's ``min-change`` optimum)."""

from __future__ import annotations

from typing import Any

from rummikub.core import Observation
from rummikub.solver import suggest

__all__ = ["compute_hint"]


def compute_hint(obs: Observation, time_limit: float = 3.0) -> dict[str, Any]:
    """``{"tiles": [...], "table": [[...]]}`` for the suggested play, or ``{"tiles": [],
    "table": None}`` when the best move is to draw."""
    play = suggest(obs, time_limit=time_limit).as_play()
    if play is None:
        return {"tiles": [], "table": None}
    return {"tiles": [str(t) for t in play.tiles], "table": play.table.to_json()}
