"""What the opponents have shown: an opened opponent who draws instead of playing most likely
holds no tile that would simply extend the table he saw (lengthen a run, complete a group).
Sampled deals give those tiles to him less often.

The bot sees the game only on its own turns, so the tracker compares consecutive
observations: an opponent whose rack grew by one tile drew. The table he saw is taken as the
tiles that fit both the table the bot left and the table it sees now (with two players they are
the same table).
"""

from __future__ import annotations

import random

from rummikub.core import Observation, Rack, RoundState, Table, Tile

from .moves import extensions

__all__ = ["OpponentModel", "weighted_deal"]


class OpponentModel:
    """Per opponent, the tiles he showed he most likely does not hold. With ``plays``, also
    the tiles that would simply extend the table the player before the bot left him: had he
    held one, he would most likely have laid it (the table the bot sees is the one he left)."""

    def __init__(self, plays: bool = False) -> None:
        self.plays = plays
        self.avoid: dict[int, set[Tile]] = {}
        self._sizes: tuple[int, ...] | None = None
        self._opened: tuple[bool, ...] = ()
        self._left: Table | None = None
        self._round: tuple[int, int] = (-1, -1)

    def observe(self, obs: Observation) -> None:
        """Update from the observation of a new turn of the bot."""
        if obs.round != self._round[0] or obs.turn < self._round[1]:
            self.avoid = {}
            self._sizes = None
            self._left = None
        self._round = (obs.round, obs.turn)
        if self._sizes is not None and self._left is not None:
            sizes = self._sizes
            drew = [
                p
                for p, size in enumerate(obs.rack_sizes)
                if p != obs.player and obs.opened[p] and size == sizes[p] + 1
            ]
            before = (obs.player - 1) % obs.players
            laid = self.plays and self._opened[before]
            if drew or laid:
                now = _fitting(obs.table, obs)  # the tiles that would extend the table seen now
                if drew:
                    fit = _fitting(self._left, obs) & now
                    for p in drew:
                        self.avoid.setdefault(p, set()).update(fit)
                if laid:
                    self.avoid.setdefault(before, set()).update(now)
        self._sizes = obs.rack_sizes
        self._opened = obs.opened

    def left(self, table: Table) -> None:
        """The bot's move left ``table`` for the next player."""
        self._left = table


def _fitting(table: Table, obs: Observation) -> set[Tile]:
    kinds = {Tile(c, n) for c in range(obs.rules.colours) for n in range(1, obs.rules.numbers + 1)}
    return {tile for tile, _, _ in extensions(table, kinds, obs.rules)}


def weighted_deal(
    obs: Observation,
    rng: random.Random,
    unseen: list[Tile],
    avoid: dict[int, set[Tile]],
    weight: float,
) -> RoundState:
    """Like :func:`.sampling.determinize`, but each opponent gets a tile of his ``avoid`` set
    with ``weight`` times the odds of another (weighted sampling without replacement)."""
    left = list(unseen)
    rng.shuffle(left)
    racks: list[Rack] = []
    for p, size in enumerate(obs.rack_sizes):
        if p == obs.player:
            racks.append(obs.rack)
            continue
        bad = avoid.get(p)
        if not bad:
            racks.append(Rack(tuple(left[:size])))
            left = left[size:]
            continue
        keys = [
            (rng.random() ** (1.0 / weight) if t in bad else rng.random(), i)
            for i, t in enumerate(left)
        ]
        keys.sort(reverse=True)
        take = {i for _, i in keys[:size]}
        racks.append(Rack(tuple(left[i] for i in sorted(take))))
        left = [t for i, t in enumerate(left) if i not in take]
    pool = tuple(left[: obs.pool_size])
    return RoundState(
        obs.rules, tuple(racks), obs.table, pool, obs.opened, obs.player, obs.passes, obs.turn
    )
