"""Learning environments: steps per second per core with random legal actions, for both games
and both APIs (the PettingZoo AEC environment, every seat played by the random policy; the
Gymnasium environment, one agent against ``greedy`` bots, whose moves are not counted as
steps), 2 players.

    .venv/bin/python bench/envs_steps.py [--episodes 8] [--seed 1]
    .venv/bin/python bench/envs_steps.py --only aec-tiles --episodes 40 --parts

A step is one action of the policy: the environment carries it out and offers the next
candidates with their exact mask. Times are CPU seconds of this process (per core, whatever
else runs on the machine); each figure is the mean rate over the episodes' blocks with a 95%
interval (episodes are independent, so their steps-per-second vary around the mean).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

import numpy as np

from rummikub.envs import make, make_gym


def aec_episode(env: object, pick: random.Random, seed: int) -> tuple[int, float]:
    started = time.process_time()
    env.reset(seed=seed)  # type: ignore[attr-defined]
    steps = 0
    for _ in env.agent_iter():  # type: ignore[attr-defined]
        obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        if term or trunc:
            env.step(None)  # type: ignore[attr-defined]
            continue
        env.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
        steps += 1
    return steps, time.process_time() - started


def gym_episode(env: object, pick: random.Random, seed: int) -> tuple[int, float]:
    started = time.process_time()
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    steps = 0
    done = False
    while not done:
        action = int(pick.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, term, trunc, _ = env.step(action)  # type: ignore[attr-defined]
        steps += 1
        done = bool(term or trunc)
    return steps, time.process_time() - started


def measure(api: str, game: str, episodes: int, seed: int) -> str:
    env = make(game, players=2, seed=seed) if api == "AEC" else make_gym(game, seed=seed)
    run = aec_episode if api == "AEC" else gym_episode
    pick = random.Random(seed)
    run(env, pick, seed - 1)  # warm-up: loads the compiled kernels
    rates: list[float] = []
    steps = 0
    seconds = 0.0
    for e in range(episodes):
        n, s = run(env, pick, seed + e)
        steps += n
        seconds += s
        rates.append(n / s)
    mean = steps / seconds
    half = 1.96 * statistics.stdev(rates) / math.sqrt(len(rates)) if len(rates) > 1 else 0.0
    return (f"{api:4} {game:6}: {mean:7.0f} steps/s (95% interval {max(mean - half, 0):.0f}-"
            f"{mean + half:.0f}), {steps} steps in {episodes} rounds")  # fmt: skip


#: the parts ``--parts`` times: (module, function, label)
PARTS = (
    ("rummikub.solver.fast", "_drive", "the compiled kernel (the search)"),
    ("rummikub.solver.dp", "trace", "tracing the plays"),
    ("rummikub.solver.api", "_build", "building the plays"),
)


def time_parts() -> dict[str, list[float]]:
    """Wrap each of :data:`PARTS` to add up its CPU seconds and calls (``{label: [s, n]}``)."""
    import importlib

    spent: dict[str, list[float]] = {}
    for module, name, label in PARTS:
        mod = importlib.import_module(module)
        inner = getattr(mod, name)
        spent[label] = [0.0, 0]

        def timed(*a: object, _f: object = inner, _s: list[float] = spent[label]) -> object:
            t = time.process_time()
            try:
                return _f(*a)  # type: ignore[operator]
            finally:
                _s[0] += time.process_time() - t
                _s[1] += 1

        setattr(mod, name, timed)
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--episodes", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="one of aec-tiles, aec-xpress, gym-tiles, gym-xpress")
    ap.add_argument(
        "--parts",
        action="store_true",
        help="also time the solver's parts of a step (the kernel, tracing, building)",
    )
    args = ap.parse_args()
    print("command:", " ".join(["python", *sys.argv]))
    if args.parts:
        spent = time_parts()
        only = args.only or "aec-tiles"
        api, game = only.split("-")
        print(measure("AEC" if api == "aec" else "Gym", game, args.episodes, args.seed))
        print("(the first round, a warm-up, is timed in the parts too)")
        for label, (sec, calls) in spent.items():
            print(f"  {label}: {sec:.2f} s CPU in {int(calls)} calls")
        return
    for api in ("AEC", "Gym"):
        for game in ("tiles", "xpress"):
            if args.only and args.only != f"{api.lower()}-{game}":
                continue
            print(measure(api, game, args.episodes, args.seed), flush=True)


if __name__ == "__main__":
    main()
