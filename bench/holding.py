"""Holding the tiles as a whole strategy: a bot that, once opened, draws every turn until its
whole rack can go down at once (it goes out then) or the pool is empty, against a level.

Run: ``.venv/bin/python bench/holding.py --opponent greedy --rules standard --players 4
--deals 100 [--limit 0.1] [--plain] [--workers 2]``.

The holder opens and goes out as ``strategic`` plays (its joker policy, no reserve); between
the two it only draws. ``--plain`` plays ``strategic``'s play instead of holding (the same bot
without the hold, for comparison). ``--opponent expert`` plays the expert at ``--limit``
seconds a decision (default 1). Deal ``d`` uses the seed ``20_000 + d`` (as
``bench/expert_search.py``); every deal is played with the holder in each seat in turn against
copies of the opponent. Prints the holder's win rate with a Wilson 95% interval.
docs/bots.md ("Holding the tiles") lists the figures.
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool
from typing import Any

from expert_search import RULES
from rummikub.bots import get_bot
from rummikub.bots.base import fallback_action
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.play import play_match
from rummikub.bots.strategic import StrategyParams, policy_play
from rummikub.bots.tournament.stats import wilson
from rummikub.core import Action, Draw, Observation


class HoldingBot:
    """Opens and goes out as ``strategic`` (no reserve); in between, draws while the pool has
    tiles (``hold=False``: plays ``strategic``'s play instead)."""

    name = "holding"

    def __init__(self, hold: bool = True) -> None:
        self.hold = hold

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        best, _ = policy_play(obs, StrategyParams(reserve=0), time_limit)
        if best is None:
            return fallback_action(obs)
        if len(best.tiles) == len(obs.rack) or not obs.has_opened:
            return best
        if self.hold and obs.pool_size > 0:
            return Draw()
        return best


def _game(job: tuple[bool, str, float, str, int, int, int]) -> float:
    hold, opponent, limit, rules, players, deal, seat = job
    bots: list[Any]
    if opponent == "expert":
        bots = [ExpertBot(k, ExpertParams(limit=limit)) for k in range(players)]
    else:
        bots = [get_bot(opponent, 100 * deal + k) for k in range(players)]
    bots[seat] = HoldingBot(hold)
    match = play_match(RULES[rules](), bots, 20_000 + deal, time_limit=None)
    winners = match.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--opponent", default="greedy", help="a level, or expert (at --limit)")
    ap.add_argument("--limit", type=float, default=1.0, help="the expert's seconds a decision")
    ap.add_argument("--rules", choices=sorted(RULES), default="standard")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="number of the first deal")
    ap.add_argument("--plain", action="store_true", help="play instead of holding")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    started = time.perf_counter()
    jobs = [
        (not args.plain, args.opponent, args.limit, args.rules, args.players, d, s)
        for d in range(args.first, args.first + args.deals)
        for s in range(args.players)
    ]
    with Pool(args.workers) as pool:
        results = pool.map(_game, jobs, chunksize=1)
    n = len(results)
    won = sum(results)
    low, high = wilson(won, n)
    who = "plain" if args.plain else "holding"
    against = f"expert at {args.limit} s" if args.opponent == "expert" else args.opponent
    print(
        f"{who} vs {against} ({args.rules}, {args.players}p): {won:g}/{n} = "
        f"{100 * won / n:.1f}% ({100 * low:.1f}-{100 * high:.1f}%); "
        f"{time.perf_counter() - started:.0f}s",
        flush=True,
    )


if __name__ == "__main__":
    main()
