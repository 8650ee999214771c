"""``beginner``: the plays a beginner sees — new melds from the own rack and single tiles laid
at the ends of the melds on the table — and never a rearrangement of the table."""

from __future__ import annotations

from rummikub.core import JOKER, Action, Observation, Play, Table, read_meld

from .base import fallback_action
from .moves import extensions, is_legal, pack_rack, replace_meld

__all__ = ["BeginnerBot"]


class BeginnerBot:
    """Opens with the most valuable rack-only melds once they reach the opening value. After
    opening it lays as many rack tiles as it can in new melds, then adds single tiles to the
    table's melds as they stand (a run's ends, a group's missing colours), its own new melds
    included, until no tile fits. It never takes a meld apart or moves a tile between melds,
    and it plays its jokers like any tile — into the first meld they fit, even onto the table
    where the next player may take them (the beginner's way with jokers)."""

    name = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        rules = obs.rules
        opening = not obs.has_opened
        melds = pack_rack(obs.rack.tiles, rules, opening=opening, time_limit=time_limit)
        placed = [t for m in melds for t in m.tiles]
        new = tuple(read_meld(m, rules).meld for m in melds)
        table = Table(obs.table.melds + new)
        if opening:  # the opening is melds from the rack alone
            return Play(tuple(placed), table) if placed else fallback_action(obs)
        left = list(obs.rack.tiles)
        for t in placed:
            left.remove(t)
        while left:
            # the first tile that fits, numbered tiles before jokers (a joker is laid only
            # when nothing else fits: a beginner plays his tiles first)
            fits = sorted(extensions(table, left, rules), key=lambda e: e[0] == JOKER)
            if not fits:
                break
            tile, index, meld = fits[0]
            table = replace_meld(table, index, meld)
            left.remove(tile)
            placed.append(tile)
        if not placed:
            return fallback_action(obs)
        play = Play(tuple(placed), table)
        if is_legal(obs, play):
            return play
        only_melds = Play(tuple(t for m in melds for t in m.tiles), Table(obs.table.melds + new))
        if melds and is_legal(obs, only_melds):
            return only_melds
        return fallback_action(obs)
