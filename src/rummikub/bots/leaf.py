"""A learned value of a position for one player: the chance that he wins the round if every
player goes on with ``greedy``'s policy, from what he could see (tile counts, not the tiles of
other racks).

The model is a logistic regression over :func:`features` fitted by ``bench/leaf_train.py`` on
positions of greedy self-play labelled with who won (one model per player count; the seeds and
the command are in the JSON file, ``leaf_model.json`` next to this module). It needs no
library: the features are a few counts and the model a dot product.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

from rummikub.core import RoundState

__all__ = ["FEATURES", "LeafModel", "features", "learned_value", "load_model"]

FEATURES = (
    "bias",
    "my_tiles",
    "my_value",
    "my_unopened",
    "my_jokers",
    "my_near",
    "my_lone",
    "closest_tiles",
    "closest_unopened",
    "lead",
    "lead_x_pool",
    "mean_other_tiles",
    "others_unopened",
    "pool",
    "table",
    "to_move",
)


def _near(tiles: list[tuple[int, int]]) -> tuple[int, int]:
    """How many of the tiles (colour, number; jokers left out) have a partner on the same rack
    that could make a meld with them (the same number in another colour, or the same colour one
    or two numbers away), and how many have none."""
    have = set(tiles)
    near = 0
    for c, n in tiles:
        if (
            (c, n - 1) in have
            or (c, n + 1) in have
            or (c, n - 2) in have
            or (c, n + 2) in have
            or any((k, n) in have for k in range(8) if k != c)
        ):
            near += 1
    return near, len(tiles) - near


def features(state: RoundState, me: int) -> list[float]:
    """The features of ``state`` for player ``me`` (in the order of :data:`FEATURES`), scaled
    to about 0..1."""
    rules = state.rules
    n = state.players
    rack = state.racks[me].tiles
    plain = [(t.colour, t.number) for t in rack if not t.is_joker]
    jokers = len(rack) - len(plain)
    value = sum(rules.tile_value(t) for t in rack)
    near, lone = _near(plain)
    others = [i for i in range(n) if i != me]
    sizes = [len(state.racks[i]) for i in others]
    closest = min(others, key=lambda i: len(state.racks[i]) + (0 if state.opened[i] else 3))
    lead = (len(state.racks[closest]) - len(rack)) / 14
    pool = len(state.pool) / 100
    return [
        1.0,
        len(rack) / 14,
        value / 100,
        0.0 if state.opened[me] else 1.0,
        float(jokers),
        near / 14,
        lone / 14,
        len(state.racks[closest]) / 14,
        0.0 if state.opened[closest] else 1.0,
        lead,
        lead * (1.0 - min(pool, 1.0)),
        sum(sizes) / len(sizes) / 14,
        sum(1 for i in others if not state.opened[i]) / len(others),
        pool,
        len(state.table.tiles()) / 100,
        ((me - state.current) % n) / n,
    ]


class LeafModel:
    """Logistic regression weights per player count (the nearest count is used)."""

    def __init__(self, data: dict[str, Any]) -> None:
        if tuple(data["features"]) != FEATURES:
            raise ValueError("leaf model features do not match this version")
        self.version: int = int(data["version"])
        self.weights: dict[int, list[float]] = {
            int(k): [float(w) for w in v] for k, v in data["weights"].items()
        }

    def value(self, state: RoundState, me: int) -> float:
        players = min(self.weights, key=lambda k: (abs(k - state.players), k))
        w = self.weights[players]
        z = sum(a * b for a, b in zip(w, features(state, me), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@cache
def load_model() -> LeafModel:
    """The model shipped with the package (``leaf_model.json``), loaded once."""
    text = resources.files("rummikub.bots").joinpath("leaf_model.json").read_text("utf-8")
    return LeafModel(json.loads(text))


def learned_value(state: RoundState, me: int) -> float:
    """The shipped model's chance that ``me`` wins from the unfinished ``state``."""
    return load_model().value(state, me)
