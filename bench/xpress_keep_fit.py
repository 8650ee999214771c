"""Fit the Xpress playouts' keep model (rummikub.xpress.keeping) to the expert's own throws, and
measure a keep model as a bot against greedy.

Fitting (expert iteration): the expert plays ``--deals`` deals against greedy, each twice with
the seats swapped; at every throw with a choice, each of its dice is a row (its features, kept
or thrown again); a logistic regression (Newton's method, a small ridge) fits the weights,
printed as the ``KEEP_MODEL`` to paste into rummikub/xpress/keeping.py:

    .venv/bin/python bench/xpress_keep_fit.py --deals 100 --workers 2

Checking: ``--check N`` plays N paired deals of greedy against a bot that places as greedy and
keeps dice by the model (the fitted one, else ``KEEP_MODEL``), and against one that keeps the
low dice alone, and prints both shares of matches won with their 95% intervals:

    .venv/bin/python bench/xpress_keep_fit.py --deals 0 --check 1000 --check-seed 3000
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from typing import Any

import numpy as np

from rummikub.bots.registry import register_bot
from rummikub.bots.simulate import simulate
from rummikub.bots.tournament.stats import wilson
from rummikub.xpress import Throw, XpressAction, XpressObservation, XpressRules
from rummikub.xpress.bots import ExpertBot, place_best
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.keeping import FEATURES, KEEP_MODEL, KeepModel, die_features, thrown_dice
from rummikub.xpress.ranking import low_dice

_rows: list[tuple[tuple[float, ...], bool]] = []


def _features(obs: XpressObservation) -> list[tuple[float, ...]]:
    melds = tuple(m.tiles for m in obs.table.melds)
    return die_features(obs.hand, len(obs.other), melds, obs.idle, obs.layout,
                        obs.rules.joker_value)  # fmt: skip


class RecordingExpert(ExpertBot):
    """The expert, keeping each die of its throws with a choice: (features, kept)."""

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        action = super().act(obs, time_limit)
        if isinstance(action, Throw) and len(obs.hand) > 1:
            thrown = set(action.dice)
            for d, row in zip(obs.hand, _features(obs), strict=True):
                _rows.append((row, d.die not in thrown))
        return action


class KeeperBot:
    """Places as greedy; keeps its dice by a keep model (or, with none, the low dice)."""

    name = "keeper"

    def __init__(self, model: KeepModel | None) -> None:
        self.model = model

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        if obs.phase != "throw":
            return place_best(obs)
        jv = obs.rules.joker_value
        if self.model is None:
            low = low_dice(obs.hand, obs.layout, jv)
            thrown = {d.die for d in obs.hand if d.die not in low}
            if not thrown:
                thrown = {max(obs.hand, key=lambda d: jv if d.face.is_joker else d.face.number).die}
        else:
            melds = tuple(m.tiles for m in obs.table.melds)
            thrown = thrown_dice(obs.hand, len(obs.other), melds, obs.idle, obs.layout, jv,
                                 self.model)  # fmt: skip
        return Throw(tuple(sorted(thrown)))


def _match(seats: list[str], seed: int, me: str) -> float:
    (record,) = list(simulate(XPRESS, XpressRules(), seats, games=1, seed=seed, players=2))
    i = seats.index(me)
    mine, theirs = record["totals"][i], record["totals"][1 - i]
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _expert_match(task: tuple[int, int, int, float]) -> list[tuple[tuple[float, ...], bool]]:
    deal, rotation, samples, limit = task
    register_bot(
        "expert", lambda s: RecordingExpert(s or 0, samples=samples, max_seconds=limit),
        game="xpress",
    )  # fmt: skip
    _rows.clear()
    _match(["expert", "greedy"] if rotation == 0 else ["greedy", "expert"], deal, "expert")
    return list(_rows)


def _keeper_match(task: tuple[int, int, Any]) -> float:
    deal, rotation, model = task
    register_bot("keeper", lambda s: KeeperBot(model), game="xpress")
    return _match(["keeper", "greedy"] if rotation == 0 else ["greedy", "keeper"], deal, "keeper")


def fit(rows: list[tuple[tuple[float, ...], bool]], ridge: float = 1e-3) -> tuple[KeepModel, float]:
    """The logistic regression of kept on the features (standardised while fitting), and the
    share of the rows it predicts."""
    x = np.array([r for r, _ in rows], dtype=float)
    y = np.array([k for _, k in rows], dtype=float)
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = ridge * np.r_[np.ones(len(FEATURES)), 0.0]
    for _ in range(100):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (p - y) / len(y) + penalty * w
        hess = (z.T * (p * (1 - p))) @ z / len(y) + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    accuracy = float((((z @ w) > 0) == (y > 0.5)).mean())
    raw = w[:-1] / sd
    bias = float(w[-1] - (w[:-1] * mu / sd).sum())
    return KeepModel(round(bias, 4), tuple(round(float(c), 4) for c in raw)), accuracy


def _share(pool: Any, tasks: list[Any]) -> str:
    results = pool.map(_keeper_match, tasks, chunksize=10)
    won, n = sum(results), len(results)
    lo, hi = wilson(won, n)
    return f"{won:g} of {n} = {100 * won / n:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", type=int, default=100, help="expert deals to fit to, each twice")
    ap.add_argument("--seed", type=int, default=1, help="expert deal d uses seed+d")
    ap.add_argument("--samples", type=int, default=ExpertBot.SAMPLES)
    ap.add_argument("--limit", type=float, default=1.0, help="seconds an expert decision")
    ap.add_argument("--check", type=int, default=0, help="paired deals to check the model on")
    ap.add_argument("--check-seed", type=int, default=3000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    started = time.perf_counter()
    print(f"command: {' '.join([sys.executable.split('/')[-1], *sys.argv])}")
    model = KEEP_MODEL
    with mp.get_context("spawn").Pool(args.workers) as pool:
        if args.deals:
            tasks = [(args.seed + d, r, args.samples, args.limit)
                     for d in range(args.deals) for r in (0, 1)]  # fmt: skip
            rows = [row for part in pool.map(_expert_match, tasks, chunksize=1) for row in part]
            model, accuracy = fit(rows)
            kept = sum(k for _, k in rows) / len(rows)
            agree = sum((KEEP_MODEL.score(r) > 0) == k for r, k in rows) / len(rows)
            print(f"{len(rows)} dice of the expert's throws in {2 * args.deals} matches, "
                  f"{100 * kept:.1f}% kept")  # fmt: skip
            print(
                f"fitted: predicts {100 * accuracy:.1f}% of them (KEEP_MODEL: {100 * agree:.1f}%)"
            )
            print(f"KEEP_MODEL = KeepModel(bias={model.bias}, weights={model.weights})")
            print(
                "  "
                + ", ".join(f"{n} {w:+.4f}" for n, w in zip(FEATURES, model.weights, strict=True))
            )
        if args.check:
            pairs = [(args.check_seed + d, r) for d in range(args.check) for r in (0, 1)]
            print(f"keep model against greedy: {_share(pool, [(*p, model) for p in pairs])}")
            print(f"low dice alone against greedy: {_share(pool, [(*p, None) for p in pairs])}")
    print(f"{time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
