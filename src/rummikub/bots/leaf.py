"""A learned value of an unfinished round: each player's chance to win it if every player goes
on with ``greedy``'s policy.

The model is a conditional logit ("who wins"): every player gets a score, a dot product of
learned weights with :data:`FEATURES` of his own rack and standing, and his chance is his share
of the exponentials of the scores (a softmax over the seats), so the chances sum to 1 and the
seats are treated alike. It reads a *complete* state (every rack): the evaluation
(:mod:`rummikub.analysis.evaluation`) and the expert apply it at the end of short playouts of
sampled deals, where every rack is known. One weight vector per player count (2, 3, 4; the
nearest count serves others), fitted by ``bench/leaf_train.py`` on positions of greedy
self-play labelled with who won; the seeds, the command and the held-out figures are in
``leaf_model.json`` next to this module.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np

from rummikub.core import RoundState

if TYPE_CHECKING:
    from .grid_playout import GridRound

__all__ = [
    "FEATURES",
    "MODEL_VERSION",
    "LeafModel",
    "grid_features",
    "grid_shares",
    "learned_shares",
    "learned_value",
    "load_calibration",
    "load_model",
]

MODEL_VERSION = 2

#: what the model reads of each player (scaled to about 0..1; ``pool`` is the share of the
#: pool still to draw, 100 tiles = 1)
FEATURES = (
    "tiles",  # tiles on his rack / 14
    "tiles_x_pool",  # ... times the pool left
    "tiles_sq",  # (tiles / 14) squared
    "value",  # rack points / 100 (a joker counts the rules' joker penalty)
    "value_late",  # ... times (1 - pool left): the exhausted pool's lowest rack wins
    "unopened",  # 1 before his opening
    "unopened_x_pool",
    "jokers",  # jokers on his rack
    "near",  # tiles with a meld partner on his rack (same number other colour, same colour ±2)
    "lone",  # tiles without one
    "order",  # (his seat - the player to move) mod players, / players: how soon he plays
)


def grid_features(
    racks: np.ndarray,
    jokers: np.ndarray,
    opened: np.ndarray,
    current: int,
    pool_left: int,
    joker_penalty: int,
) -> np.ndarray:
    """The features (players × :data:`FEATURES`) of a complete position given as counts:
    ``racks[p, c, n - 1]`` tiles of colour ``c`` and number ``n`` on rack ``p``, ``jokers[p]``
    his jokers, ``opened[p]`` whether he has opened, ``current`` the player to move and
    ``pool_left`` the tiles still to draw."""
    players, _, numbers = racks.shape
    present = racks > 0
    partner = np.zeros_like(present)
    for shift in (1, 2):
        partner[:, :, shift:] |= present[:, :, :-shift]
        partner[:, :, :-shift] |= present[:, :, shift:]
    partner |= (present.sum(axis=1, keepdims=True) - present) > 0
    real = racks.sum(axis=(1, 2))
    near = (racks * partner).sum(axis=(1, 2))
    tiles = (real + jokers) / 14.0
    value = ((racks.sum(axis=1) @ np.arange(1, numbers + 1)) + joker_penalty * jokers) / 100.0
    pool = min(pool_left / 100.0, 1.0)
    unopened = 1.0 - opened
    order = ((np.arange(players) - current) % players) / players
    return np.stack(
        [
            tiles,
            tiles * pool,
            tiles * tiles,
            value,
            value * (1.0 - pool),
            unopened,
            unopened * pool,
            jokers.astype(np.float64),
            near / 14.0,
            (real - near) / 14.0,
            order,
        ],
        axis=1,
    )


class LeafModel:
    """The conditional logit's weights per player count (the nearest count is used)."""

    def __init__(self, data: dict[str, Any]) -> None:
        if int(data.get("version", 0)) != MODEL_VERSION or tuple(data["features"]) != FEATURES:
            raise ValueError("leaf model: its version or features do not match this code")
        self.version = MODEL_VERSION
        self.weights: dict[int, np.ndarray] = {
            int(k): np.array([float(w) for w in v]) for k, v in data["weights"].items()
        }

    def shares(self, features: np.ndarray) -> np.ndarray:
        """Each player's chance to win from his feature row."""
        players = features.shape[0]
        key = min(self.weights, key=lambda k: (abs(k - players), k))
        z = features @ self.weights[key]
        z = np.exp(np.clip(z - z.max(), -50.0, 0.0))
        out: np.ndarray = z / z.sum()
        return out


@cache
def load_model() -> LeafModel:
    """The model shipped with the package (``leaf_model.json``), loaded once."""
    text = resources.files("rummikub.bots").joinpath("leaf_model.json").read_text("utf-8")
    return LeafModel(json.loads(text))


@cache
def load_calibration() -> dict[int, tuple[float, float]]:
    """The evaluation's calibration map per player count (``leaf_model.json``,
    "calibration": ``[a, b]``; :func:`rummikub.bots.evaluation.calibrated`), empty without."""
    text = resources.files("rummikub.bots").joinpath("leaf_model.json").read_text("utf-8")
    table = json.loads(text).get("calibration", {}).get("map", {})
    return {int(k): (float(v[0]), float(v[1])) for k, v in table.items()}


def grid_shares(g: GridRound) -> np.ndarray:
    """Each player's chance to win the round from the position of a playout on counts: 1 for
    the winner of a finished round (an even share when it ended without one), the model's
    chances otherwise."""
    n = g.players
    if g.ended:
        if g.winner is None:
            return np.full(n, 1.0 / n)
        out = np.zeros(n)
        out[g.winner] = 1.0
        return out
    feats = grid_features(
        g.racks, np.array(g.jokers), np.array(g.opened, dtype=np.float64), g.current,
        len(g.pool) - g.drawn, g.rules.joker_penalty,
    )  # fmt: skip
    return load_model().shares(feats)


def learned_shares(state: RoundState) -> list[float]:
    """:func:`grid_shares` of a complete round state (any rules)."""
    from .grid_playout import GridRound

    if state.end is not None:
        n = state.players
        w = state.end.winner
        return [1.0 / n] * n if w is None else [float(i == w) for i in range(n)]
    return [float(x) for x in grid_shares(GridRound.of(state))]


def learned_value(state: RoundState, me: int) -> float:
    """The shipped model's chance that ``me`` wins from ``state``."""
    return learned_shares(state)[me]
