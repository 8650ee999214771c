"""Train a small policy for the tile game with REINFORCE, on the CPU, in a few minutes, and
measure it against the ``random`` bot.

The policy is linear: it scores each candidate the environment offers (drawing, the solver's
plays) from a few features of the candidate — does it draw, how many tiles and how much value
it places (as shares of the rack), whether it empties the rack — and picks one by softmax.
Training plays episodes of the Gymnasium environment against ``greedy`` and follows the policy
gradient of the win/loss reward; the policy is then measured against ``random`` (which even the
untrained policy beats: the candidates are the solver's) and ``greedy`` (where training shows).
The solver's candidates do the hard part (a legal, strong action space), so a handful of
weights is all there is to learn.

    .venv/bin/python examples/train_policy.py [--episodes 300] [--eval 200] [--seed 1]

Needs the ``envs`` extra (numpy, PettingZoo, Gymnasium). See docs/learning.md.
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Any

import numpy as np
import numpy.typing as npt

from rummikub.envs import make_gym

Weights = npt.NDArray[np.float64]
FEATURES = 5


def candidate_features(candidate: dict[str, Any], rack_size: int) -> npt.NDArray[np.float64]:
    """What the policy sees of one candidate (the game's action JSON)."""
    if candidate["action"] != "play":
        return np.array([1.0, 0.0, 0.0, 0.0, 1.0])
    tiles = candidate["play"]
    value = sum(0 if t.startswith("J") else int(t[1:]) for t in tiles)
    return np.array(
        [0.0, len(tiles) / max(1, rack_size), value / 100.0, float(len(tiles) == rack_size), 1.0]
    )


def choose(
    w: Weights, info: dict[str, Any], rng: random.Random
) -> tuple[int, npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """A candidate drawn from the softmax policy: (index, features of all, probabilities)."""
    rack = len(info["observation"].rack.tiles)
    x = np.stack([candidate_features(c, rack) for c in info["candidates"]])
    z = x @ w
    p = np.exp(z - z.max())
    p /= p.sum()
    r, acc = rng.random(), 0.0
    for i, pi in enumerate(p):
        acc += float(pi)
        if r <= acc:
            return i, x, p
    return len(p) - 1, x, p


def episode(env: Any, w: Weights, seed: int, rng: random.Random) -> tuple[float, list[Any]]:
    """Play one round; the reward and every decision (features, probabilities, choice)."""
    _, info = env.reset(seed=seed)
    steps: list[Any] = []
    done, reward = False, 0.0
    while not done:
        i, x, p = choose(w, info, rng)
        steps.append((x, p, i))
        _, r, terminated, truncated, info = env.step(i)
        reward += float(r)
        done = terminated or truncated
    return reward, steps


def train(episodes: int, seed: int, lr: float = 2.0, opponent: str = "greedy") -> Weights:
    """REINFORCE with a running-mean baseline, against ``opponent``."""
    env = make_gym("tiles", players=2, seed=seed, opponent=opponent, reward="win")
    rng = random.Random(seed)
    w = np.zeros(FEATURES)
    baseline = 0.0
    for e in range(episodes):
        reward, steps = episode(env, w, seed * 100_000 + e, rng)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, p, i in steps:
            w += lr * advantage * (x[i] - p @ x) / max(1, len(steps))
    return w


def evaluate(w: Weights, episodes: int, seed: int, opponent: str = "random") -> float:
    """The share of rounds won against ``opponent`` (a round nobody wins counts half)."""
    env = make_gym("tiles", players=2, seed=seed, opponent=opponent, reward="win")
    rng = random.Random(seed)
    total = 0.0
    for e in range(episodes):
        reward, _ = episode(env, w, 1_000_000 + seed * 100_000 + e, rng)
        total += (reward + 1) / 2
    return total / episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--eval", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    w = train(args.episodes, args.seed)
    print(f"weights: {np.round(w, 2).tolist()}")
    for opponent in ("random", "greedy"):
        before = evaluate(np.zeros(FEATURES), args.eval, args.seed, opponent)
        after = evaluate(w, args.eval, args.seed, opponent)
        half = 1.96 * math.sqrt(after * (1 - after) / args.eval)
        print(f"vs {opponent}: untrained (uniform over the candidates) {before:.1%}, "
              f"trained {after:.1%} (± {half:.1%})")  # fmt: skip


if __name__ == "__main__":
    main()
