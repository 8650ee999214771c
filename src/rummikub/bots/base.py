"""The bot interface: a bot sees only a player's :class:`Observation` and a time limit, and
answers with an action (a play with the complete new table, a draw, or a pass)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from rummikub.core import Action, Draw, Observation, Pass

__all__ = ["Bot", "fallback_action"]


@runtime_checkable
class Bot(Protocol):
    """Anything with a name and ``act``. ``act`` must not mutate the observation and should
    answer within ``time_limit`` seconds (``None``: no limit)."""

    name: str

    def act(self, obs: Observation, time_limit: float | None = None) -> Action: ...


def fallback_action(obs: Observation) -> Action:
    """Draw while the pool has tiles, else pass: always legal when it is the player's turn."""
    return Draw() if obs.pool_size > 0 else Pass()
