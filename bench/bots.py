"""Bot benchmarks: ``greedy`` vs ``greedy`` complete games per second on one core, and the
``expert``'s seconds per decision at its default budget.

Run: ``.venv/bin/python bench/bots.py [--games 20] [--expert-games 3] [--seed 1]``.
Targets (issue 4): greedy >= 10 games/s per core; expert <= 1 s per decision on average.
The strength tables come from ``rummikub tournament`` (see docs/bots.md).
"""

from __future__ import annotations

import argparse
import statistics
import time

from rummikub.bots import get_bot
from rummikub.bots.expert import ExpertBot
from rummikub.bots.play import TurnEvent, play_match
from rummikub.core import preset


def greedy_games(games: int, seed: int) -> tuple[float, list[float]]:
    """Games per second of greedy vs greedy, and the seconds of every decision."""
    rules = preset("standard")
    decisions: list[float] = []

    def watch(ev: TurnEvent) -> None:
        decisions.append(ev.seconds)

    started = time.process_time()
    for g in range(games):
        play_match(rules, [get_bot("greedy", g), get_bot("greedy", g + 1)], seed + g,
                   on_turn=watch)  # fmt: skip
    return games / (time.process_time() - started), decisions


def expert_decisions(games: int, seed: int) -> tuple[list[float], ExpertBot]:
    """The wall-clock seconds of every expert decision in games against greedy."""
    rules = preset("standard")
    seconds: list[float] = []
    expert = ExpertBot(seed)

    def watch(ev: TurnEvent) -> None:
        if ev.player == seat:
            seconds.append(ev.seconds)

    for g in range(games):
        seat = g % 2
        bots = [expert, get_bot("greedy", g)] if seat == 0 else [get_bot("greedy", g), expert]
        play_match(rules, bots, seed + g, on_turn=watch)
    return seconds, expert


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="greedy vs greedy games")
    ap.add_argument("--expert-games", type=int, default=3, help="expert vs greedy games")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    # load (or compile) the solver kernel first: a one-off cost of the process, not of a game
    started = time.perf_counter()
    play_match(preset("standard"), [get_bot("greedy", 0), get_bot("greedy", 1)], -1)
    print(f"warm-up game (kernel load): {time.perf_counter() - started:.2f} s")
    rate, decisions = greedy_games(args.games, args.seed)
    print(f"greedy vs greedy: {rate:.2f} games/s per core (CPU time, {args.games} games; "
          f"target >= 10)")  # fmt: skip
    print(
        f"  greedy decision: median {1000 * statistics.median(decisions):.1f} ms, "
        f"mean {1000 * statistics.mean(decisions):.1f} ms, max {1000 * max(decisions):.0f} ms"
    )
    if args.expert_games:
        seconds, expert = expert_decisions(args.expert_games, args.seed)
        print(
            f"expert: {statistics.mean(seconds):.3f} s per decision on average "
            f"(median {statistics.median(seconds):.3f}, max {max(seconds):.2f}; "
            f"{len(seconds)} decisions, {expert.searched} searched; target <= 1 s)"
        )


if __name__ == "__main__":
    main()
