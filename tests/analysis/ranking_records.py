"""The games of the review's ranking test (:mod:`.test_bot_ranking`): neighbouring bot levels
on paired deals, each deal played twice with the seats swapped, every deal and every bot
seeded, the expert ranking on a fixed number of deals a decision (never the clock), so the
games are the same on every machine.

They are made once and kept (``data/ranking.jsonl.gz``, one game record a line) because
playing them is most of the cost (the expert's games take seconds a turn) while the test is
about the review, which reads them. Make them again after a bot's play has changed::

    python -m tests.analysis.ranking_records        # or: make ranking-records

The file's header line says which pairs, rules and seeds made it; the test checks that it
matches the pairs it asks for.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path
from typing import Any

from rummikub.bots import Bot, get_bot, play_match
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.core import Rules, preset
from rummikub.core.tiles_game import TILES

__all__ = ["EXPERT_SAMPLES", "FILE", "PAIRS", "SEED", "Pair", "load", "make"]

FILE = Path(__file__).with_name("data") / "ranking.jsonl.gz"

STANDARD = preset("standard")
#: numbers 1-9 and racks of 10: greedy against beginner
SMALL = Rules.from_dict({"preset": "standard", "numbers": 9, "rack_size": 10})
#: numbers 1-7, racks of 8, an opening of 12 points: beginner against random
TINY = Rules.from_dict({"preset": "standard", "numbers": 7, "rack_size": 8, "opening_value": 12})
#: deals the expert samples a decision (a fixed number: never the clock)
EXPERT_SAMPLES = 64
#: the first deal's seed
SEED = 88_000

#: (stronger level, weaker level, rules, deals): each deal played twice, the seats swapped
Pair = tuple[str, str, Rules, int]
PAIRS: dict[str, Pair] = {
    "expert-strategic": ("expert", "strategic", STANDARD, 2),
    "strategic-greedy": ("strategic", "greedy", STANDARD, 3),
    "expert-greedy": ("expert", "greedy", STANDARD, 2),
    "greedy-beginner": ("greedy", "beginner", SMALL, 2),
    "beginner-random": ("beginner", "random", TINY, 1),
}


def _bot(level: str, seed: int) -> Bot:
    if level == "expert":
        return ExpertBot(seed, ExpertParams(limit=1e6, max_samples=EXPERT_SAMPLES))
    bot: Bot = get_bot(level, seed)
    return bot


def header() -> dict[str, Any]:
    """What made the games: compared with the file's first line by the test."""
    return {
        "seed": SEED,
        "expert_samples": EXPERT_SAMPLES,
        "pairs": {
            name: {"levels": [a, b], "rules": rules.to_dict(), "deals": deals}
            for name, (a, b, rules, deals) in PAIRS.items()
        },
    }


def games(name: str) -> list[tuple[tuple[str, str], int]]:
    """The games of pair ``name``: (levels in seat order, deal), in the order they are kept."""
    a, b, _, deals = PAIRS[name]
    return [(seats, d) for d in range(deals) for seats in ((a, b), (b, a))]


def play(rules: Rules, levels: tuple[str, str], deal: int) -> tuple[dict[str, Any], list[int]]:
    """The record of one game (its bots seeded by the deal and the seat) and its winners."""
    bots = [_bot(level, 100 * deal + k) for k, level in enumerate(levels)]
    match = play_match(rules, bots, SEED + deal, time_limit=None)
    record: dict[str, Any] = TILES.match_record(match)
    return record, sorted(match.winners)


def make(out: Path = FILE) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(header(), sort_keys=True)]
    for name, (_, _, rules, _) in PAIRS.items():
        for levels, deal in games(name):
            started = time.process_time()
            record, winners = play(rules, levels, deal)
            lines.append(json.dumps({"pair": name, "levels": list(levels), "deal": deal,
                                     "winners": winners, "record": record}))  # fmt: skip
            took = time.process_time() - started
            print(f"{name} deal {deal} {levels[0]} first: {took:.1f} s of CPU", file=sys.stderr)
    tmp = out.with_name(out.name + ".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write("\n".join(lines) + "\n")
    tmp.replace(out)


def load(path: Path = FILE) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the games of the file."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        head, *rest = (json.loads(line) for line in f if line.strip())
    return head, rest


if __name__ == "__main__":
    make()
