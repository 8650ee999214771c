"""Determinization: deals of the hidden tiles consistent with what a player has seen.

A player sees his own rack, the table and how many tiles every other rack and the pool hold.
The unseen tiles are the full set minus his rack and the table; a determinization shuffles them
into racks of the right sizes and a pool, giving a complete :class:`RoundState` to search in.
"""

from __future__ import annotations

import random
from collections import Counter

from rummikub.core import Observation, Rack, RoundState, Tile

__all__ = ["determinize", "unseen_tiles", "weighted_deal"]


def unseen_tiles(obs: Observation) -> list[Tile]:
    """The tiles ``obs``'s player cannot see: the full set minus his rack and the table, in
    canonical order."""
    left = Counter(obs.rules.all_tiles())
    left.subtract(obs.rack.tiles)
    left.subtract(obs.table.tiles())
    return sorted(left.elements(), key=lambda t: (t.colour, t.number))


def determinize(obs: Observation, rng: random.Random,
                unseen: list[Tile] | None = None) -> RoundState:  # fmt: skip
    """A full round state consistent with ``obs``: the unseen tiles shuffled into the other
    players' racks (of their known sizes) and the pool (of its known size). If the counts do
    not add up (a custom observation), the pool takes what is left."""
    tiles = list(unseen if unseen is not None else unseen_tiles(obs))
    rng.shuffle(tiles)
    racks: list[Rack] = []
    pos = 0
    for p, size in enumerate(obs.rack_sizes):
        if p == obs.player:
            racks.append(obs.rack)
            continue
        racks.append(Rack(tuple(tiles[pos : pos + size])))
        pos += size
    pool = tuple(tiles[pos : pos + obs.pool_size])
    return RoundState(
        obs.rules, tuple(racks), obs.table, pool, obs.opened, obs.player, obs.passes, obs.turn
    )


def weighted_deal(
    obs: Observation,
    rng: random.Random,
    unseen: list[Tile],
    avoid: dict[int, set[Tile]],
    weight: float,
) -> RoundState:
    """Like :func:`determinize`, but each opponent gets a tile of his ``avoid`` set with
    ``weight`` times the odds of another (weighted sampling without replacement; ``weight``
    above 0)."""
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
