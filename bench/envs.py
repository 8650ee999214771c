"""Learning-environment benchmark: environment steps per second per core (a random policy over
the masked candidates), for both games and a vector of Gymnasium environments, and greedy
self-play games per second per core (the figure docs/learning.md reports).

    .venv/bin/python bench/envs.py [--episodes N] [--games N] [--seed S]

Times are CPU seconds of this process (``time.process_time``), so the figures are per core even
on a busy machine.
"""

from __future__ import annotations

import argparse
import random
import time

import gymnasium
import numpy as np

from rummikub.bots import get_bot, play_match
from rummikub.core import preset
from rummikub.envs import greedy_selfplay, make, make_gym


def aec_steps(game: str, players: int, episodes: int, seed: int) -> tuple[float, float]:
    """(steps per second, mean steps per episode) of random masked play."""
    env = make(game, players=players, seed=seed)
    pick = random.Random(seed)
    steps = 0
    started = time.process_time()
    for e in range(episodes):
        env.reset(seed=seed + e)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(pick.choice(list(np.flatnonzero(obs["action_mask"])))))
            steps += 1
    return steps / (time.process_time() - started), steps / episodes


def vector_steps(game: str, envs: int, steps: int, seed: int) -> float:
    """Steps per second (summed over the environments) of a synchronous vector of Gymnasium
    environments against greedy, the agent taking the play of the most tiles when there is one
    (its second candidate) and drawing otherwise."""
    vec = gymnasium.vector.SyncVectorEnv(
        [lambda k=k: make_gym(game, seed=seed + k) for k in range(envs)]  # type: ignore[misc]
    )
    _, info = vec.reset(seed=seed)
    started = time.process_time()
    for _ in range(steps):
        mask = np.stack(info["action_mask"])
        _, _, _, _, info = vec.step(mask[:, 1].astype(np.int64))
    vec.close()
    return envs * steps / (time.process_time() - started)


def greedy_games(games: int, seed: int) -> float:
    rules = preset("standard")
    play_match(rules, [get_bot("greedy", 1), get_bot("greedy", 2)], seed)  # load the kernels
    started = time.process_time()
    for g in range(games):
        play_match(rules, [get_bot("greedy", 1), get_bot("greedy", 2)], seed + 1 + g)
    return games / (time.process_time() - started)


def counts_games(games: int, seed: int, rules: object = "standard") -> float:
    """Greedy self-play on tile counts (``rummikub.envs.greedy_selfplay``): games/s."""
    greedy_selfplay(rules=rules, games=1, seed=seed)  # load the kernels
    started = time.process_time()
    greedy_selfplay(rules=rules, games=games, seed=seed + 1)
    return games / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"greedy self-play (2 players): {greedy_games(args.games, args.seed):.1f} games/s")
    n = 5 * args.games
    print(
        f"greedy self-play on counts (2 players): {counts_games(n, args.seed):.1f} games/s; "
        f"no jokers {counts_games(n, args.seed, {'preset': 'standard', 'jokers': 0}):.1f}"
    )
    for game, players in (("tiles", 2), ("tiles", 4), ("xpress", 2)):
        rate, length = aec_steps(game, players, args.episodes, args.seed)
        print(f"AEC {game} {players}p, random policy: {rate:.0f} steps/s ({length:.0f} a round)")
    print(f"Gymnasium SyncVectorEnv x8, tiles vs greedy: {vector_steps('tiles', 8, 50, 1):.0f} "
          "steps/s")  # fmt: skip


if __name__ == "__main__":
    main()
