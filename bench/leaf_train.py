"""Train the expert's learned leaf value (``src/rummikub/bots/leaf_model.json``).

Run: ``.venv/bin/python bench/leaf_train.py [--games 1500] [--players 2,3,4] [--workers 2]
[--out src/rummikub/bots/leaf_model.json]``.

Positions come from greedy self-play (the expert's playout policy for every player): game
``g`` of ``p`` players deals with ``random.Random(f"leaf/{p}/{g}")`` under the ``standard``
preset when ``g`` is even and the same without jokers when it is odd. Every position of every
game gives one example per player: :func:`rummikub.bots.leaf.features` labelled 1 if that
player won the round, 0 if another did (1/p if nobody did). Games whose number ends in 0..1
(mod 10) are held out to report the log loss of the fitted model and of the hand-made
``leaf_value``. One logistic regression per player count, fitted by Newton's method with a
small L2 penalty (numpy).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from rummikub.bots.leaf import FEATURES, features
from rummikub.bots.playout import _step, leaf_value
from rummikub.core import RoundState, Rules, preset
from rummikub.core.game import deal

VERSION = 1
Job = tuple[int, int]


def _game(job: Job) -> tuple[int, list[list[float]], list[float], list[float]]:
    players, g = job
    nojokers = Rules.from_dict({"preset": "standard", "jokers": 0})
    rules = preset("standard") if g % 2 == 0 else nojokers
    rng = random.Random(f"leaf/{players}/{g}")
    racks, pool = deal(rng, rules, players)
    state = RoundState.start(rules, racks, pool, rng.randrange(players))
    seen: list[tuple[list[float], int, float]] = []
    for _ in range(400):
        if state.end is not None:
            break
        for me in range(players):
            seen.append((features(state, me), me, leaf_value(state, me)))
        state = _step(state)
    winner = state.end.winner if state.end is not None else None
    xs, ys, hand = [], [], []
    for x, me, h in seen:
        xs.append(x)
        ys.append(1.0 / players if winner is None else float(winner == me))
        hand.append(h)
    return g, xs, ys, hand


def _fit(x: NDArray[np.float64], y: NDArray[np.float64], l2: float = 1e-3) -> NDArray[np.float64]:
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x / len(y) + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def _logloss(p: NDArray[np.float64], y: NDArray[np.float64]) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1500, help="self-play games per player count")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="src/rummikub/bots/leaf_model.json")
    args = ap.parse_args()
    weights: dict[str, list[float]] = {}
    report: dict[str, dict[str, float]] = {}
    for players in (int(p) for p in args.players.split(",")):
        started = time.perf_counter()
        with Pool(args.workers) as pool:
            games = pool.map(_game, [(players, g) for g in range(args.games)], chunksize=8)
        train = [r for r in games if r[0] % 10 >= 2]
        test = [r for r in games if r[0] % 10 < 2]
        x = np.array([v for r in train for v in r[1]])
        y = np.array([v for r in train for v in r[2]])
        w = _fit(x, y)
        tx = np.array([v for r in test for v in r[1]])
        ty = np.array([v for r in test for v in r[2]])
        th = np.array([v for r in test for v in r[3]])
        fitted = _logloss(1.0 / (1.0 + np.exp(-(tx @ w))), ty)
        base = _logloss(np.full(len(ty), float(np.mean(y))), ty)
        hand = _logloss(th, ty)
        weights[str(players)] = [round(float(v), 5) for v in w]
        report[str(players)] = {
            "positions": len(y),
            "held_out": len(ty),
            "log_loss": round(fitted, 4),
            "log_loss_constant": round(base, 4),
            "log_loss_hand_leaf": round(hand, 4),
        }
        print(players, report[str(players)], f"{time.perf_counter() - started:.0f}s", flush=True)
        print(dict(zip(FEATURES, weights[str(players)], strict=True)), flush=True)
    doc = {
        "version": VERSION,
        "features": list(FEATURES),
        "weights": weights,
        "trained": {
            "command": f"bench/leaf_train.py --games {args.games} --players {args.players}",
            "deals": "random.Random(f'leaf/{players}/{game}'); even games standard, odd no jokers",
            "held_out": report,
        },
    }
    Path(args.out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if not all(math.isfinite(v) for ws in weights.values() for v in ws):
        raise SystemExit("the fit diverged")


if __name__ == "__main__":
    main()
