"""Self-play speed through the full match runner, as ``rummikub simulate`` plays: games of
seeded bots played by ``rummikub.bots.simulate.simulate`` (every move checked by the engine,
the complete record of every game made and serialised to JSON), one process.

    .venv/bin/python bench/selfplay.py --bots greedy,greedy --games 200
    .venv/bin/python bench/selfplay.py --bots greedy --players 4 --games 100 --rules standard

Prints the start-up (importing the package and playing one game of another seed, which loads
the solver's compiled kernels) apart, then games per second over the games: per CPU second of
this process (the figure "per core", which other jobs on the machine change less) and per wall
second, each with a 95% interval from the games' times (the mean time's normal interval,
inverted). ``--profile FILE`` writes a cProfile of the games to FILE.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time


def rate(times: list[float]) -> tuple[float, float, float]:
    """Games per second from each game's time: the rate and its 95% interval."""
    n = len(times)
    mean = statistics.fmean(times)
    se = statistics.stdev(times) / math.sqrt(n) if n > 1 else 0.0
    return 1 / mean, 1 / (mean + 1.96 * se), 1 / max(mean - 1.96 * se, 1e-12)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bots", default="greedy,greedy", help="levels cycled over the seats")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="standard", help="a preset name")
    ap.add_argument("--profile", help="write a cProfile of the games here")
    args = ap.parse_args()

    t0, c0 = time.perf_counter(), time.process_time()
    from rummikub.bots.simulate import simulate
    from rummikub.core import preset
    from rummikub.games import get_game

    rules = preset(args.rules)
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    # one game of another seed first: it loads every compiled kernel the games call
    for _ in simulate(get_game("tiles"), rules, levels, games=1, seed=args.seed - 1,
                      players=args.players):  # fmt: skip
        pass
    startup_wall, startup_cpu = time.perf_counter() - t0, time.process_time() - c0
    records = simulate(get_game("tiles"), rules, levels, games=args.games, seed=args.seed,
                       players=args.players)  # fmt: skip
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    wall: list[float] = []
    cpu: list[float] = []
    turns = 0
    size = 0
    w, c = time.perf_counter(), time.process_time()
    for rec in records:
        size += len(json.dumps(rec, separators=(",", ":")))  # as write_records does
        turns += sum(len(r["turns"]) for r in rec["rounds"])
        w2, c2 = time.perf_counter(), time.process_time()
        wall.append(w2 - w)
        cpu.append(c2 - c)
        w, c = w2, c2
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    r_cpu, lo_cpu, hi_cpu = rate(cpu)
    r_wall, lo_wall, hi_wall = rate(wall)
    print(f"command: {' '.join([sys.executable.split('/')[-1], *sys.argv])}")
    print(f"start-up (imports and a first game, which loads the solver's compiled kernels): "
          f"{startup_wall:.2f} s wall, {startup_cpu:.2f} s CPU")  # fmt: skip
    print(f"{args.games} games of {','.join(levels)}, {args.players} players, {args.rules}: "
          f"{turns} turns, {turns / args.games:.0f} a game, records {size / args.games / 1024:.1f} "
          "KiB a game")  # fmt: skip
    print(f"games per CPU second (per core): {r_cpu:.1f} (95% interval {lo_cpu:.1f}-{hi_cpu:.1f})")
    print(f"games per wall second: {r_wall:.1f} (95% interval {lo_wall:.1f}-{hi_wall:.1f}); "
          f"turns per CPU second {turns / sum(cpu):.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
