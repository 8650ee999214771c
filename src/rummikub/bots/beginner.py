"""``beginner``: plays only new melds from its own rack and never touches the table."""

from __future__ import annotations

from rummikub.core import Action, Observation, Play, Table, read_meld

from .base import fallback_action
from .moves import pack_rack

__all__ = ["BeginnerBot"]


class BeginnerBot:
    """Opens with the most valuable rack-only melds once they reach the opening value; after
    opening, lays down as many rack tiles as it can in new melds. Never rearranges the table."""

    name = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        rules = obs.rules
        melds = pack_rack(obs.rack.tiles, rules, opening=not obs.has_opened, time_limit=time_limit)
        if not melds:
            return fallback_action(obs)
        placed = tuple(t for m in melds for t in m.tiles)
        new = tuple(read_meld(m, rules).meld for m in melds)
        return Play(placed, Table(obs.table.melds + new))
