"""``random``: picks uniformly among a sample of legal actions."""

from __future__ import annotations

import random as _random

from rummikub.core import Action, Observation, Play, Table, read_meld

from .base import fallback_action
from .moves import extensions, is_legal, pack_rack, rack_melds, replace_meld

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly between drawing (or passing) and each simple legal play it finds: one
    new meld from the rack, or one rack tile laid onto a table meld. Before opening, its only
    play is the most valuable rack-only opening, when it reaches the opening value."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = _random.Random(seed)

    def candidates(self, obs: Observation, time_limit: float | None = None) -> list[Play]:
        rules = obs.rules
        table = obs.table
        plays: list[Play] = []
        if not obs.has_opened:
            melds = pack_rack(obs.rack.tiles, rules, opening=True, time_limit=time_limit)
            if melds:
                placed = tuple(t for m in melds for t in m.tiles)
                new = tuple(read_meld(m, rules).meld for m in melds)
                plays.append(Play(placed, Table(table.melds + new)))
            return plays
        for meld in rack_melds(obs.rack.tiles, rules, max_jokers=1):
            plays.append(Play(meld.tiles, Table((*table.melds, meld))))
        for tile, index, meld in extensions(table, obs.rack.tiles, rules):
            plays.append(Play((tile,), replace_meld(table, index, meld)))
        return plays

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        options: list[Action] = [fallback_action(obs)]
        options.extend(self.candidates(obs, time_limit))
        while len(options) > 1:
            i = self.rng.randrange(len(options))
            choice = options[i]
            if not isinstance(choice, Play) or is_legal(obs, choice):
                return choice
            options.pop(i)  # e.g. a joker rule forbids this one
        return options[0]
