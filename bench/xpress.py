"""Xpress benchmark: placement-search speed and bot strength (run on demand).

    .venv/bin/python bench/xpress.py [--games N] [--seed S]

Prints the mean and worst time of the exact placement search on positions from real games,
the speed of greedy-vs-greedy matches as the reference, and the expert's results against
greedy (matches won, points) with its cost as a ratio to the greedy reference.
"""

from __future__ import annotations

import argparse
import time

from rummikub.bots.simulate import simulate as simulate_games
from rummikub.xpress import XpressRules, best_placement, load_xpress, replay_xpress
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.solver import _solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()

    started = time.perf_counter()
    records = list(
        simulate_games(
            XPRESS, XpressRules(), ["greedy", "greedy"], games=args.games, seed=args.seed, players=2
        )
    )
    greedy_s = (time.perf_counter() - started) / args.games
    positions = []
    for rec in records:
        for step in replay_xpress(load_xpress(rec)):
            if step.after.phase == "place" and step.after.end is None:
                state = step.after
                positions.append((state.table, [d.face for d in state.hand]))
    _solve.cache_clear()
    times = []
    for table, hand in positions:
        t0 = time.perf_counter()
        best_placement(table, hand)
        times.append(time.perf_counter() - t0)
    print(
        f"placement search: {len(times)} positions, mean {1000 * sum(times) / len(times):.2f} "
        f"ms, worst {1000 * max(times):.1f} ms"
    )
    print(f"greedy vs greedy: {greedy_s:.2f} s per 6-round match (reference)")

    started = time.perf_counter()
    won = {"greedy": 0, "expert": 0, "draw": 0}
    points = {"greedy": 0, "expert": 0}
    for rec in simulate_games(
        XPRESS, XpressRules(), ["greedy", "expert"], games=args.games, seed=args.seed, players=2
    ):
        names = [p["bot"] for p in rec["players"]]
        totals = rec["totals"]
        for name, total in zip(names, totals, strict=True):
            points[name] += total
        won["draw" if totals[0] == totals[1] else names[totals.index(max(totals))]] += 1
    expert_s = (time.perf_counter() - started) / args.games
    print(f"expert vs greedy: won {won}, points {points}")
    print(f"expert match cost: {expert_s:.2f} s per match = {expert_s / greedy_s:.1f}x greedy")


if __name__ == "__main__":
    main()
