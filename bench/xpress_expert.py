"""The Xpress expert against greedy: paired six-round matches (each deal played again with the
seats swapped), the share the expert wins with its 95% interval, and the time of its decisions
(mean and the longest), for a number of sampled futures a decision.

    .venv/bin/python bench/xpress_expert.py --samples 32 --deals 100 --limit 1.0 --workers 2

``--limit`` is the time limit a decision is given (as ``rummikub tournament --time-limit``);
the expert stops sampling before 0.8 of it. A tie of a match counts half. ``--out FILE``
keeps every match's record (JSON lines, as ``rummikub simulate --out``) to study the expert's
games. ``--set NAME=VALUE`` (repeatable) sets one of the ranking's constants
(``rummikub.xpress.ranking``, e.g. ``--set SEARCHED_THROWS=2``) in every worker, to measure a
variant without editing the code. The same figure without the decision times: ``rummikub
tournament --game xpress --bots expert,greedy --games 200 --seed 1 --time-limit 1``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from typing import Any

from rummikub.bots.registry import register_bot
from rummikub.bots.simulate import simulate, write_records
from rummikub.bots.tournament.stats import wilson
from rummikub.xpress import XpressAction, XpressObservation, XpressRules, ranking
from rummikub.xpress.bots import ExpertBot
from rummikub.xpress.dice_game import XPRESS

_times: list[float] = []


class TimedExpert(ExpertBot):
    """The expert, keeping the time of each of its decisions."""

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        started = time.perf_counter()
        action = super().act(obs, time_limit)
        _times.append(time.perf_counter() - started)
        return action


def _match(
    task: tuple[int, int, int, int, float, dict[str, float]],
) -> tuple[float, float, float, int, dict[str, Any]]:
    """One match of deal ``seed + deal``: (the expert's result, its longest decision, the
    time of its decisions, their number, the match's record)."""
    deal, rotation, seed, samples, limit, constants = task
    for name, value in constants.items():
        setattr(ranking, name, type(getattr(ranking, name))(value))
    register_bot(
        "expert", lambda s: TimedExpert(s or 0, samples=samples, max_seconds=limit), game="xpress"
    )
    seats = ["expert", "greedy"] if rotation == 0 else ["greedy", "expert"]
    _times.clear()
    (record,) = list(simulate(XPRESS, XpressRules(), seats, games=1, seed=seed + deal, players=2))
    me = seats.index("expert")
    mine, theirs = record["totals"][me], record["totals"][1 - me]
    result = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return result, max(_times, default=0.0), sum(_times), len(_times), record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--samples", type=int, default=ExpertBot.SAMPLES)
    ap.add_argument("--deals", type=int, default=100, help="deals, each played twice")
    ap.add_argument("--seed", type=int, default=1, help="deal d uses seed+d")
    ap.add_argument("--limit", type=float, default=1.0, help="seconds a decision")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="write each match's record to this JSONL file")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="set a constant of rummikub.xpress.ranking (repeatable)")  # fmt: skip
    args = ap.parse_args()
    constants: dict[str, float] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(ranking, name) or not name.isupper():
            ap.error(f"--set {item}: rummikub.xpress.ranking has no constant {name!r}")
        constants[name] = float(value)
    tasks = [(d, r, args.seed, args.samples, args.limit, constants)
             for d in range(args.deals) for r in (0, 1)]  # fmt: skip
    started = time.perf_counter()
    with mp.get_context("spawn").Pool(args.workers) as pool:
        results = pool.map(_match, tasks, chunksize=1)
    if args.out:
        write_records((r[4] for r in results), args.out)
    n = len(results)
    won = sum(r[0] for r in results)
    p = won / n
    lo, hi = wilson(won, n)  # as the tournament's table gives it (Wald's went past 100%)
    decisions = sum(r[3] for r in results)
    print(f"command: {' '.join([sys.executable.split('/')[-1], *sys.argv])}")
    print(
        f"expert ({args.samples} samples, {args.limit} s a decision) against greedy: "
        f"{won:g} of {n} matches = {100 * p:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f}%)"
    )
    print(
        f"decisions: {decisions}, mean {1000 * sum(r[2] for r in results) / decisions:.0f} ms, "
        f"longest {max(r[1] for r in results):.3f} s; {time.perf_counter() - started:.0f} s wall"
    )


if __name__ == "__main__":
    main()
