"""The search expert against another level on paired deals, with its decision times.

Run: ``.venv/bin/python bench/expert_search.py --opponent greedy --rules nojokers --players 2
--deals 100 --limit 0.1 [--max-samples N] [--variant NAME] [--first 0] [--workers 2]``.

Deal ``d`` uses the seed ``20_000 + d``. With 2 players every deal is played twice (the expert
in each seat); with more, the expert sits in every seat in turn against copies of the
opponent. Prints the expert's win rate with a Wilson 95% interval, its mean score per game, and
the median / 99th percentile / maximum of its decision times (every decision, searched or not)
and of its searched decisions alone. Variants (``--variant``) change one knob of the search, so
an idea is measured on the same deals as the default. ``--limit`` is the whole budget: no cap
on the deals per decision unless ``--max-samples`` sets one (the bot's default is 1000).
docs/bots.md lists the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from rummikub.bots import get_bot
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.play import TurnEvent, play_match
from rummikub.bots.tournament.stats import wilson
from rummikub.core import Rules, preset

RULES: dict[str, Callable[[], Rules]] = {
    "standard": lambda: preset("standard"),
    "nojokers": lambda: Rules.from_dict({"preset": "standard", "jokers": 0}),
}

VARIANTS: dict[str, Callable[[ExpertParams], ExpertParams]] = {
    "default": lambda p: p,
    "no-search": lambda p: replace(p, rollout_search=False),
    "uniform": lambda p: p,  # the evaluation's deals uniform (FIT_WEIGHT 1): set in _game
}


def _game(job: tuple[str, str, str, int, int, int, float, int]) -> dict[str, Any]:
    variant, opponent, rules_name, players, deal, seat, limit, cap = job
    params = ExpertParams(limit=limit, max_samples=cap)
    if "uniform" in variant.split("+"):
        from rummikub.bots import evaluation

        evaluation.FIT_WEIGHT = 1.0
    for name in variant.split("+"):
        params = VARIANTS[name](params)
    expert = ExpertBot(1000 * deal + seat, params)
    bots: list[Any] = [get_bot(opponent, 100 * deal + k) for k in range(players)]
    bots[seat] = expert
    times: list[float] = []
    searched: list[float] = []
    before = 0

    def watch(event: TurnEvent) -> None:
        nonlocal before
        if event.player != seat:
            return
        times.append(event.seconds)
        if expert.searched != before:
            searched.append(event.seconds)
            before = expert.searched

    match = play_match(RULES[rules_name](), bots, 20_000 + deal, time_limit=None, on_turn=watch)
    winners = match.winners
    return {
        "win": 1.0 / len(winners) if seat in winners else 0.0,
        "score": match.totals[seat],
        "times": times,
        "searched": searched,
    }


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--rules", choices=sorted(RULES), default="nojokers")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--first", type=int, default=0, help="number of the first deal")
    ap.add_argument("--limit", type=float, default=0.1, help="expert's seconds per decision")
    ap.add_argument("--max-samples", type=int, default=10_000,
                    help="deals per decision at most (the bot's default is 1000)")  # fmt: skip
    ap.add_argument(
        "--variant",
        default="default",
        help="comma-separated; each NAME or NAME+NAME...: " + ",".join(VARIANTS),
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dump", help="write each game's win (0, 0.5, 1) to DUMP.VARIANT.json")
    args = ap.parse_args()
    seats = range(args.players)
    for variant in args.variant.split(","):
        started = time.perf_counter()
        jobs = [
            (variant, args.opponent, args.rules, args.players, d, s, args.limit, args.max_samples)
            for d in range(args.first, args.first + args.deals)
            for s in seats
        ]
        with Pool(args.workers) as pool:
            results = pool.map(_game, jobs, chunksize=1)
        wins = sum(r["win"] for r in results)
        if args.dump:
            Path(f"{args.dump}.{variant}.json").write_text(json.dumps([r["win"] for r in results]))
        n = len(results)
        low, high = wilson(wins, n)
        times = [t for r in results for t in r["times"]]
        searched = [t for r in results for t in r["searched"]]
        score = statistics.mean(r["score"] for r in results)
        print(
            f"{variant} vs {args.opponent} ({args.rules}, {args.players}p, {args.limit}s): "
            f"{wins:g}/{n} = {100 * wins / n:.1f}% ({100 * low:.1f}-{100 * high:.1f}%), "
            f"mean score {score:+.1f}; decisions {len(times)}: median "
            f"{statistics.median(times):.3f}s p99 {_pct(times, 0.99):.3f}s max {max(times):.3f}s; "
            f"searched {len(searched)}: median {statistics.median(searched or [0]):.3f}s "
            f"p99 {_pct(searched, 0.99):.3f}s; {time.perf_counter() - started:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
