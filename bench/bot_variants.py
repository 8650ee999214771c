"""Strategy variants against ``greedy``: how much each idea is worth, on the same paired deals.

Run: ``.venv/bin/python bench/bot_variants.py [--deals 200] [--first 0] [--workers 2]
[--variants NAME,NAME]``. Every variant plays every deal twice against ``greedy`` (seats
rotated), 2 players, ``standard`` preset; the deal of number d uses the seed ``10_000 + d``.
Prints the win rate with a Wilson 95% interval and the mean score per game. ``control`` is
``greedy`` itself (50% by symmetry: a check of the set-up). docs/bots.md lists the figures.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from multiprocessing import Pool

from rummikub.bots import Bot, get_bot
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.play import play_match
from rummikub.bots.strategic import StrategicBot, StrategyParams
from rummikub.bots.tournament.stats import wilson
from rummikub.core import preset

NO_RESERVE = StrategyParams(reserve=0)

VARIANTS: dict[str, Callable[[int], Bot]] = {
    "control": lambda seed: get_bot("greedy", seed),
    # jokers kept until they let the bot go out, but an opening may use them
    "keep-jokers": lambda seed: StrategicBot(
        seed, StrategyParams(reserve=0, joker_opening_pool=10_000)
    ),
    # ... and no opening with a joker while the pool holds more than 20 tiles
    "keep-jokers-no-joker-opening": lambda seed: StrategicBot(seed, NO_RESERVE),
    # ... and a reserve tile (the `strategic` default)
    "strategic": lambda seed: StrategicBot(seed),
    # the old `strategic`: a reserve tile, jokers laid like greedy does
    "reserve-only": lambda seed: StrategicBot(seed, StrategyParams(keep_jokers=False)),
    # `expert` (joker policy + search) at 0.1 s a decision, and its joker policy alone
    "expert-0.1s": lambda seed: ExpertBot(seed, ExpertParams(limit=0.1)),
    "expert-no-search": lambda seed: ExpertBot(seed, ExpertParams(rollout_search=False)),
}


def _game(job: tuple[str, int, int]) -> tuple[float, int]:
    name, deal, rotation = job
    bot = VARIANTS[name](2 * deal + rotation)
    greedy = get_bot("greedy", deal)
    bots = [bot, greedy] if rotation == 0 else [greedy, bot]
    match = play_match(preset("standard"), bots, 10_000 + deal)
    winners = match.winners
    win = 1.0 / len(winners) if rotation in winners else 0.0
    return win, match.totals[rotation]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=200, help="paired deals per variant")
    ap.add_argument("--first", type=int, default=0, help="number of the first deal")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated names")
    args = ap.parse_args()
    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        ap.error(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    deals = range(args.first, args.first + args.deals)
    print(f"{args.deals} paired deals ({2 * args.deals} games) per variant against greedy")
    with Pool(args.workers) as pool:
        for name in names:
            started = time.perf_counter()
            jobs = [(name, d, r) for d in deals for r in (0, 1)]
            results = pool.map(_game, jobs, chunksize=4)
            wins = sum(w for w, _ in results)
            low, high = wilson(wins, len(results))
            score = sum(s for _, s in results) / len(results)
            print(
                f"{name:30s} {100 * wins / len(results):5.1f}% "
                f"({100 * low:.1f}-{100 * high:.1f}%)  mean score {score:+6.1f}  "
                f"{time.perf_counter() - started:5.0f} s"
            )


if __name__ == "__main__":
    main()
