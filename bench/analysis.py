"""Analysis benchmark: seconds to analyse whole 4-player games (target: a ~150-turn game in
under 10 s at the default depth), and whole Xpress matches (six rounds, throws judged too).

    .venv/bin/python bench/analysis.py [--games N] [--seed S]

Plays seeded 4-player games between mixed bots and Xpress matches (greedy against random),
then times :func:`rummikub.analysis.analyse` on each record; prints turns per game, seconds per
game (mean, worst) and turns per second.
"""

from __future__ import annotations

import argparse
import time

from rummikub.analysis import analyse
from rummikub.bots import get_bot, play_match
from rummikub.core import preset
from rummikub.core.tiles_game import TILES
from rummikub.games import AnyRecord, load_any
from rummikub.xpress import XpressRules
from rummikub.xpress.dice_game import XPRESS


def timed(records: list[AnyRecord]) -> tuple[list[float], list[int]]:
    """The seconds each record's analysis took, and its turns."""
    times: list[float] = []
    turns: list[int] = []
    for rec in records:
        started = time.perf_counter()
        result = analyse(rec)
        times.append(time.perf_counter() - started)
        turns.append(len(result.turns))
    return times, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="beginner,random,beginner,random", help="four levels")
    args = parser.parse_args()
    levels = args.bots.split(",")
    tiles = []
    for g in range(args.games):
        bots = [get_bot(level, args.seed * 100 + g * 10 + k) for k, level in enumerate(levels)]
        tiles.append(
            load_any(TILES.match_record(play_match(preset("standard"), bots, args.seed + g)))
        )
    times, turns = timed(tiles)
    print(
        f"{args.games} games of 4 players, {sum(turns) / len(turns):.0f} turns a game "
        f"(max {max(turns)}): {sum(times) / len(times):.2f} s a game, worst {max(times):.2f} s, "
        f"{sum(turns) / sum(times):.0f} turns/s"
    )
    dice = []
    for g in range(args.games):
        bots = [get_bot("greedy", g, game="xpress"), get_bot("random", g + 1, game="xpress")]
        dice.append(load_any(XPRESS.match_record(play_match(XpressRules(), bots, args.seed + g))))
    times, turns = timed(dice)
    print(
        f"{args.games} Xpress matches, {sum(turns) / len(turns):.0f} turns a match: "
        f"{sum(times) / len(times):.2f} s a match, worst {max(times):.2f} s, "
        f"{sum(turns) / sum(times):.0f} turns/s"
    )


if __name__ == "__main__":
    main()
