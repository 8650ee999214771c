"""Train the learned leaf value (``src/rummikub/bots/leaf_model.json``): each player's chance to
win a round from a complete position, a conditional logit over the seats (:mod:`rummikub.bots.
leaf`).

Run: ``.venv/bin/python bench/leaf_train.py [--games 3000] [--players 2,3,4] [--workers 2]
[--out src/rummikub/bots/leaf_model.json]``.

Positions come from greedy self-play on tile counts (the playout policy of the evaluation and
the expert, :class:`rummikub.bots.grid_playout.GridRound`): game ``g`` of ``p`` players is
``Match(rules, p players, seed=700_000 + 1000 * p + g)``'s first round under the ``standard``
preset when ``g`` is even and the same without jokers when it is odd. Every position before a
move of every game is one example: the feature rows of all players
(:func:`rummikub.bots.leaf.grid_features`) and the seat that won the round (rounds without a
winner are left out). Games whose number ends in 0 or 1 (mod 10) are held out: the file records
the fitted model's log loss on them, a constant model's, and the calibration of the chance of
the player to move (expected calibration error over 10 bins). One model per player count,
fitted by Newton's method with a small L2 penalty (numpy); deterministic for given arguments.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from rummikub.bots.grid_playout import GridRound
from rummikub.bots.leaf import FEATURES, MODEL_VERSION, grid_features
from rummikub.core import Rules, preset
from rummikub.core.game import Match

SEED_BASE = 700_000
Job = tuple[int, int]
Example = tuple[np.ndarray, int, int]  # features (players x F), the winner, the player to move


def _rules(g: int) -> Rules:
    return (
        preset("standard") if g % 2 == 0 else Rules.from_dict({"preset": "standard", "jokers": 0})
    )


def _game(job: Job) -> tuple[int, list[Example]]:
    players, g = job
    rules = _rules(g)
    state = Match(rules, [f"p{i}" for i in range(players)], SEED_BASE + 1000 * players + g).state
    r = GridRound.of(state)
    seen: list[tuple[np.ndarray, int]] = []
    for _ in range(400):
        if r.ended:
            break
        feats = grid_features(
            r.racks, np.array(r.jokers), np.array(r.opened, dtype=np.float64), r.current,
            len(r.pool) - r.drawn, rules.joker_penalty,
        )  # fmt: skip
        seen.append((feats, r.current))
        r.step()
    if not r.ended or r.winner is None:
        return g, []
    return g, [(f, r.winner, cur) for f, cur in seen]


def fit(xs: np.ndarray, ys: np.ndarray, l2: float = 1e-3, steps: int = 30) -> np.ndarray:
    """The conditional logit's weights: ``xs`` (examples × players × F), ``ys`` the winners."""
    n, _, f = xs.shape
    w = np.zeros(f)
    idx = np.arange(n)
    for _ in range(steps):
        z = xs @ w
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        pr = e / e.sum(axis=1, keepdims=True)  # n x p
        mean = np.einsum("np,npf->nf", pr, xs)
        grad = (xs[idx, ys] - mean).sum(axis=0) - l2 * n * w
        second = np.einsum("np,npf,npg->fg", pr, xs, xs) - mean.T @ mean
        hess = -second - l2 * n * np.eye(f)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-7:
            break
    return w


def shares(xs: np.ndarray, w: np.ndarray) -> np.ndarray:
    z = xs @ w
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def ece(pred: np.ndarray, won: np.ndarray, bins: int = 10) -> float:
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        mask = (pred >= lo) & ((pred < hi) if b < bins - 1 else (pred <= hi))
        if mask.any():
            total += mask.sum() * abs(pred[mask].mean() - won[mask].mean())
    return total / len(pred)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="src/rummikub/bots/leaf_model.json")
    args = ap.parse_args()
    started = time.perf_counter()
    weights: dict[str, list[float]] = {}
    report: dict[str, dict[str, float]] = {}
    for players in [int(x) for x in args.players.split(",")]:
        jobs = [(players, g) for g in range(args.games)]
        with Pool(args.workers) as pool:
            results = pool.map(_game, jobs, chunksize=20)
        train = [e for g, ex in results if g % 10 >= 2 for e in ex]
        held = [e for g, ex in results if g % 10 < 2 for e in ex]
        xs = np.stack([e[0] for e in train])
        ys = np.array([e[1] for e in train])
        w = fit(xs, ys)
        hx = np.stack([e[0] for e in held])
        hy = np.array([e[1] for e in held])
        hp = shares(hx, w)
        log_loss = float(-np.log(np.maximum(hp[np.arange(len(hy)), hy], 1e-12)).mean())
        movers = np.array([e[2] for e in held])
        pm = hp[np.arange(len(hy)), movers]
        report[str(players)] = {
            "positions": len(train),
            "held_out": len(held),
            "log_loss": round(log_loss, 4),
            "log_loss_constant": round(math.log(players), 4),
            "mover_ece": round(ece(pm, (movers == hy).astype(float)), 4),
        }
        weights[str(players)] = [round(float(x), 5) for x in w]
        print(players, report[str(players)], flush=True)
    data = {
        "version": MODEL_VERSION,
        "features": list(FEATURES),
        "weights": weights,
        "trained": {
            "command": f"bench/leaf_train.py --games {args.games} --players {args.players}",
            "deals": f"Match(rules, players, seed={SEED_BASE} + 1000 * players + game), first "
            "round; even games standard, odd games without jokers; greedy self-play on counts",
            "held_out_games": "game % 10 in (0, 1)",
            "held_out": report,
            "seconds": round(time.perf_counter() - started),
        },
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
