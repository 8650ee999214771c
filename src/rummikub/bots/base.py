"""The bot interface: a bot sees only a player's :class:`Observation` and a time limit, and
answers with an action (a play with the complete new table, a draw, or a pass)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from rummikub.core import Action, Observation
from rummikub.core.tiles_game import fallback_action

__all__ = ["Bot", "fallback_action"]


@runtime_checkable
class Bot(Protocol):
    """Anything with a name and ``act``. ``act`` must not mutate the observation and should
    answer within ``time_limit`` seconds (``None``: no limit)."""

    name: str

    def act(self, obs: Observation, time_limit: float | None = None) -> Action: ...
