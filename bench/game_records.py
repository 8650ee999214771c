"""Whether a change to the engine, the solver or the bots changed any game: the digest of the
complete records (every deal, play, table and score; the decision times left out) of seeded
matches, to compare between two versions of the code.

    .venv/bin/python bench/game_records.py [--greedy 200] [--others 50]
    PYTHONPATH=OLD/src .venv/bin/python bench/game_records.py    # the same digest: same games

``--greedy`` two-player greedy matches (seeds 0..), then ``--others`` matches of the other
bots (random, beginner, strategic against each other and greedy, 2 and 3 players), twenty
4-player greedy matches and two expert-against-greedy matches (the expert at a fixed number
of samples per decision, not a time budget, so that the clock decides nothing). ``--out FILE``
also writes every record (JSON lines) to look for the first difference.

The script runs under ``PYTHONHASHSEED=0`` (it starts itself again so when the variable is not
set). Code before 2026-12-02 needs it: there the rack-only openings of ``pack_melds`` (the random
and beginner bots) broke ties between equally good meld sets in the iteration order of a set,
which string hashing changes from one process to the next; they are chosen alike in every
process now (``tests/core/test_packing_order.py``), so the digest of older code differs from
today's for those bots' games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from typing import Any

from rummikub.bots import get_bot, play_match
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.core import preset
from rummikub.games import game_for_rules

_OTHERS = (
    ("random", "greedy"),
    ("beginner", "greedy"),
    ("strategic", "greedy"),
    ("beginner", "random"),
    ("strategic", "beginner"),
)


def _without_times(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_times(v) for k, v in data.items() if k != "ms"}
    if isinstance(data, list):
        return [_without_times(v) for v in data]
    return data


def _bot(name: str, seed: int) -> Any:
    if name == "expert":  # a fixed number of samples per decision: no clock decides
        return ExpertBot(seed, ExpertParams(limit=1e6, max_samples=8))
    return get_bot(name, seed)


def matches(greedy: int, others: int) -> list[tuple[tuple[str, ...], int]]:
    """(the bots in seat order, the seed) of every match played."""
    out: list[tuple[tuple[str, ...], int]] = [(("greedy", "greedy"), s) for s in range(greedy)]
    for i in range(others):
        a, b = _OTHERS[i % len(_OTHERS)]
        out.append(((a, b) if i % 3 else (a, b, "greedy"), 1000 + i))
    if others:
        out += [(("greedy",) * 4, 2000 + s) for s in range(20)]
        out += [(("expert", "greedy"), 3000 + s) for s in range(2)]
    return out


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") is None:
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--greedy", type=int, default=200)
    parser.add_argument("--others", type=int, default=50)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rules = preset("standard")
    game = game_for_rules(rules)
    digest = hashlib.sha256()
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    for bots, seed in matches(args.greedy, args.others):
        match = play_match(rules, [_bot(b, seed + i) for i, b in enumerate(bots)], seed,
                           time_limit=None)  # fmt: skip
        record = _without_times(game.match_record(match))
        line = json.dumps({"bots": bots, "seed": seed, "record": record}, sort_keys=True)
        digest.update(line.encode())
        if out is not None:
            out.write(line + "\n")
    if out is not None:
        out.close()
    print(f"{len(matches(args.greedy, args.others))} matches, records sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
