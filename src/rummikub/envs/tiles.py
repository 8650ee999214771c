"""The tile game for the environments: its features and its candidate plays.

Features (all ``float32``), for ``K = colours × numbers + 1`` kinds (53 in the standard set)
and ``P`` players, seen from the observing player (seat order starting with him):

=================  ======  ==========================================================
part               length  what
=================  ======  ==========================================================
rack               K       how many of each kind his rack holds
table              K       how many of each kind lie on the table
rack sizes         P       tiles in each rack
opened             P       1 for a player who has made his opening
scores             P       match totals so far
pool               1       tiles left in the pool
=================  ======  ==========================================================

Candidates: draw (pass once the pool is empty) first, then the best play for every number of
tiles that can be placed (``best_per_count``: the highest value, then the fewest changes), most
tiles first — the first is the play of the most tiles, the play of the most value is among
them — and the most tiles keeping every rack joker, each play once, at most ``limit`` in all:
one search of the solver a step (two with a joker on the rack). The search tells how many
candidates there are; each play is laid out as melds when first read (:class:`.lazy.Lazy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from rummikub.core import Action, Draw, Observation, Pass, Play, Rules

from .layout import counts, kinds
from .lazy import Lazy
from .spec import Features

if TYPE_CHECKING:
    from rummikub.solver import PerCount

__all__ = ["TilesSpec"]


def _rotate(values: Sequence[float], player: int) -> list[float]:
    return list(values[player:]) + list(values[:player])


class TilesSpec:
    """The tile game's features and candidates."""

    game = "tiles"

    def __init__(self, limit: int = 24, time_limit: float | None = None) -> None:
        self.limit = limit
        self.time_limit = time_limit

    def feature_size(self, rules: Rules, players: int) -> int:
        return 2 * kinds(rules.colours, rules.numbers) + 3 * players + 1

    def features(self, obs: Observation) -> Features:
        r = obs.rules
        p = obs.player
        parts = [
            counts(obs.rack.tiles, r.colours, r.numbers),
            counts(obs.table.tiles(), r.colours, r.numbers),
            np.array(_rotate(obs.rack_sizes, p), dtype=np.float32),
            np.array(_rotate([float(o) for o in obs.opened], p), dtype=np.float32),
            np.array(_rotate(obs.scores or (0,) * len(obs.rack_sizes), p), dtype=np.float32),
            np.array([obs.pool_size], dtype=np.float32),
        ]
        return np.concatenate(parts)

    def candidates(self, obs: Observation) -> Lazy[Action]:
        from rummikub.solver import per_count, solve

        first: Action = Draw() if obs.pool_size > 0 else Pass()
        makers: list[Callable[[], Action]] = [lambda: first]
        table, rack, opened, rules = obs.table, obs.rack.tiles, obs.has_opened, obs.rules
        # one search gives the tile counts that can be placed (all the mask needs) and the best
        # play of each (highest value), built only when read: the first is the play of the
        # most tiles (ties: value, as greedy's), and the play of the most value is among them
        found = per_count(table, rack, opened=opened, rules=rules, time_limit=self.time_limit)
        for n in sorted(found.counts, reverse=True)[: self.limit - 1]:
            makers.append(_play_of(found, n))
        plain = tuple(t for t in rack if not t.is_joker)
        if len(plain) < len(rack) and found.counts and len(makers) < self.limit:
            sol = solve(table, plain, opened=opened, rules=rules, time_limit=self.time_limit)
            play = sol.as_play()
            same = sol.tiles in found and _key(play) == _key(found.solution(sol.tiles).as_play())
            if play is not None and not same:
                makers.append(lambda: play)
        return Lazy(makers)


def _play_of(found: PerCount, tiles: int) -> Callable[[], Action]:
    def make() -> Action:
        play = found.solution(tiles).as_play()
        assert play is not None  # a count of ``found`` places tiles
        return play

    return make


def _key(play: Play | None) -> object:
    """What tells two plays apart: the tiles placed and the melds of the table they leave."""
    if play is None:
        return None
    return (
        tuple(sorted(play.tiles, key=lambda t: (t.colour, t.number))),
        tuple(sorted(m.key() for m in play.table.melds)),
    )
