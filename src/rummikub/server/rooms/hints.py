"""The tile game's hint as the client gets it: the best move for the player to move, from his
observation only (:func:`rummikub.bots.hints.hint`: the best move by the evaluation, the one
the analysis judges best)."""

from __future__ import annotations

from typing import Any

from rummikub.bots.hints import hint, most_placeable
from rummikub.core import Observation, Play
from rummikub.core.tiles_game import TILES

__all__ = ["compute_hint"]


def compute_hint(obs: Observation, time_limit: float = 3.0) -> dict[str, Any]:
    """``{"tiles": [...], "table": [[...]]}`` for the suggested play, or ``{"tiles": [],
    "table": None, "placeable": N}`` when the best move is to draw: ``N`` the most tiles a play
    could place now (0: nothing fits; more: keeping them is the better move)."""
    play = hint(TILES, obs, time_limit)
    if not isinstance(play, Play):
        return {"tiles": [], "table": None, "placeable": most_placeable(obs, time_limit)}
    return {"tiles": [str(t) for t in play.tiles], "table": play.table.to_json()}
