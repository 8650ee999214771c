"""Engine benchmark: validating a play on a ~100-tile table, and simulate games per second.

Run: ``.venv/bin/python bench/engine.py`` (or ``make bench``). Prints medians and rates.
"""

from __future__ import annotations

import argparse
import statistics
import time

from rummikub.bots import get_bot
from rummikub.bots.play import play_match
from rummikub.core import (
    Meld,
    Play,
    Rack,
    RoundState,
    Table,
    Tile,
    preset,
    read_meld,
    validate,
)
from rummikub.core.melds import _READINGS
from rummikub.core.state import _LastLegal


def big_position() -> tuple[RoundState, Play]:
    """A table of 96 tiles (eight runs 1..12) and a play that places R13 and K13 and
    rearranges: every run is split into 1..6 and 7..12(13)."""
    rules = preset("standard")
    melds = [Meld(tuple(Tile(c, n) for n in range(1, 13))) for c in range(4) for _ in range(2)]
    table = Table(tuple(read_meld(m, rules).meld for m in melds))
    rack = Rack((Tile(1, 13), Tile(0, 13), Tile(2, 5), Tile(3, 9), Tile(-1, 0)))
    state = RoundState(rules, (rack, Rack()), table, (), (True, True), 0)
    new_melds: list[Meld] = []
    for c in range(4):
        for copy in range(2):
            new_melds.append(Meld(tuple(Tile(c, n) for n in range(1, 7))))
            top = 13 if copy == 0 and c in (0, 1) else 12
            new_melds.append(Meld(tuple(Tile(c, n) for n in range(7, top + 1))))
    play = Play((Tile(1, 13), Tile(0, 13)), Table(tuple(new_melds)))
    return state, play


def time_validate(repeats: int) -> list[float]:
    state, play = big_position()
    assert len(state.table.tiles()) == 96
    validate(state, play)
    samples = []
    for _ in range(repeats):
        # forget the meld readings and the last verdict so they do not hide the work
        _READINGS.clear()
        _LastLegal.entry = None
        t0 = time.perf_counter()
        validate(state, play)
        samples.append(time.perf_counter() - t0)
    return samples


def time_validate_cached(repeats: int) -> list[float]:
    state, play = big_position()
    samples = []
    for _ in range(repeats):
        _LastLegal.entry = None  # the readings stay cached; the verdict is made again
        t0 = time.perf_counter()
        validate(state, play)
        samples.append(time.perf_counter() - t0)
    return samples


def simulate_rate(games: int, players: int, bot: str) -> tuple[float, int]:
    rules = preset("standard")
    t0 = time.perf_counter()
    turns = 0
    for i in range(games):
        match = play_match(rules, [get_bot(bot, seed=i * 10 + k) for k in range(players)], i)
        turns += sum(len(r.turns) for r in match.rounds)
    return games / (time.perf_counter() - t0), turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bot", default="beginner")
    args = parser.parse_args()

    cold = time_validate(args.repeats)
    warm = time_validate_cached(args.repeats)
    print("validate a play on a 96-tile table (16 melds out, 8 runs in):")
    print(
        f"  uncached melds: median {statistics.median(cold) * 1e6:8.1f} us   "
        f"p99 {sorted(cold)[int(len(cold) * 0.99)] * 1e6:8.1f} us"
    )
    print(
        f"  cached melds:   median {statistics.median(warm) * 1e6:8.1f} us   "
        f"p99 {sorted(warm)[int(len(warm) * 0.99)] * 1e6:8.1f} us"
    )
    rate, turns = simulate_rate(args.games, 4, args.bot)
    print(
        f"simulate, 4 players, {args.bot} bots: {rate:.1f} games/s "
        f"({turns / args.games:.0f} turns per game, {args.games} games, one core)"
    )


if __name__ == "__main__":
    main()
