"""Puzzle measures (docs/puzzles.md).

``yield``: puzzles per 1,000 self-play games for each goal, and the time to make them::

    .venv/bin/python bench/puzzles.py yield --games 100 --seed 5000 -j 2

``calibrate``: the bot levels attempt a puzzle file, Glicko-2 rates levels and puzzles, and a
table shows each level's solve rate by puzzle rating band (by the calibrated rating and by the
starting rating the maker gave); ``--write`` writes the set with the calibrated ratings (what
``make puzzles`` ships)::

    .venv/bin/python bench/puzzles.py calibrate --file build/puzzles.jsonl.gz
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from collections.abc import Callable, Sequence

from rummikub.core import preset
from rummikub.puzzles import GOALS, Puzzle
from rummikub.puzzles.calibrate import LEVELS, calibrate
from rummikub.puzzles.make import MakeOptions, self_play_puzzles
from rummikub.puzzles.verify import load_puzzles, write_puzzles


def yield_cmd(args: argparse.Namespace) -> None:
    rules = preset("standard")
    for label, per_game in (
        ("every puzzle", 10_000),
        (f"at most {args.per_game} a goal a game", args.per_game),
    ):
        started = time.perf_counter()
        counts: Counter[str] = Counter()
        for _i, batch in self_play_puzzles(
            args.games,
            seed=args.seed,
            rules=rules,
            options=MakeOptions(per_game=per_game),
            jobs=args.jobs,
        ):
            counts.update(p.goal.value for p in batch)
        secs = time.perf_counter() - started
        per = {g.value: 1000 * counts[g.value] / args.games for g in GOALS}
        print(
            f"{label}: {args.games} games in {secs:.1f} s ({args.jobs} jobs), "
            f"{secs / args.games:.2f} s a game (playing included)"
        )
        print("  per 1,000 games: " + ", ".join(f"{g} {v:.0f}" for g, v in per.items()))


def _bands(
    puzzles: Sequence[Puzzle], rating: Callable[[Puzzle], float], solved: dict[str, dict[str, bool]]
) -> list[str]:
    edges = [0, 1200, 1500, 1800, 2100, 10_000]
    head = "| rating | puzzles | " + " | ".join(solved) + " |"
    lines = [head, "|" + "---|" * (2 + len(solved))]
    for lo, hi in itertools.pairwise(edges):
        band = [p for p in puzzles if lo <= rating(p) < hi]
        if not band:
            continue
        name = f"< {hi}" if lo == 0 else f">= {lo}" if hi == 10_000 else f"{lo}-{hi - 1}"
        rates = [100 * sum(solved[lv][p.id] for p in band) / len(band) for lv in solved]
        lines.append(f"| {name} | {len(band)} | " + " | ".join(f"{r:.0f}%" for r in rates) + " |")
    return lines


def calibrate_cmd(args: argparse.Namespace) -> None:
    puzzles = load_puzzles(args.file)
    levels = [lv.strip() for lv in args.levels.split(",")]
    started = time.perf_counter()
    cal = calibrate(puzzles, levels, passes=args.passes, time_limit=args.time_limit)
    secs = time.perf_counter() - started
    print(f"{len(puzzles)} puzzles, levels {', '.join(levels)}: {secs:.1f} s")
    print(
        "level ratings: "
        + ", ".join(f"{lv} {r.rating:.0f} (±{r.rd:.0f})" for lv, r in cal.levels.items())
    )
    print("\nsolve rate by calibrated rating:")
    print("\n".join(_bands(puzzles, lambda p: cal.puzzles[p.id].rating, cal.solved)))
    print("\nsolve rate by starting rating:")
    print("\n".join(_bands(puzzles, lambda p: p.rating, cal.solved)))
    print("\nsolve rate by goal:")
    for g in GOALS:
        ps = [p for p in puzzles if p.goal is g]
        if ps:
            rates = ", ".join(
                f"{lv} {100 * sum(cal.solved[lv][p.id] for p in ps) / len(ps):.0f}%"
                for lv in levels
            )
            print(f"  {g.value} ({len(ps)}): {rates}")
    if args.write:
        rated = [
            p.with_rating(round(cal.puzzles[p.id].rating), round(cal.puzzles[p.id].rd))
            for p in puzzles
        ]
        n = write_puzzles(rated, args.write)
        print(f"\nwrote {n} puzzles with the calibrated ratings to {args.write}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    y = sub.add_parser("yield", help="puzzles per 1,000 self-play games, and the time")
    y.add_argument("--games", type=int, default=100)
    y.add_argument("--seed", type=int, default=5000)
    y.add_argument("--per-game", type=int, default=2)
    y.add_argument("--jobs", "-j", type=int, default=1)
    y.set_defaults(run=yield_cmd)
    c = sub.add_parser("calibrate", help="bot levels attempt the set; ratings by Glicko-2")
    c.add_argument("--file", required=True)
    c.add_argument("--levels", default=",".join(LEVELS))
    c.add_argument("--passes", type=int, default=3)
    c.add_argument("--time-limit", type=float, default=None, help="per decision (the expert)")
    c.add_argument("--write", default=None, help="write the set with the calibrated ratings")
    c.set_defaults(run=calibrate_cmd)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
