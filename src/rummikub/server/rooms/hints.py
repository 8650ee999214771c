"""The tile game's hint as the client gets it: the best move for the player to move, from his
observation only (:func:`rummikub.bots.hints.hint`: the best move by the evaluation, the one
the analysis judges best)."""

from __future__ import annotations

from typing import Any

from rummikub.bots.hints import hint
from rummikub.core import Observation, Play
from rummikub.core.tiles_game import TILES

__all__ = ["compute_hint"]


def compute_hint(obs: Observation, time_limit: float = 3.0) -> dict[str, Any]:
    """``{"tiles": [...], "table": [[...]]}`` for the suggested play, or ``{"tiles": [],
    "table": None}`` when the best move is to draw."""
    play = hint(TILES, obs, time_limit)
    if not isinstance(play, Play):
        return {"tiles": [], "table": None}
    return {"tiles": [str(t) for t in play.tiles], "table": play.table.to_json()}
