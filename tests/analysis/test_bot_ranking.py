"""The review ranks the bots as their results do (issue 28): over games of paired deals between
two neighbouring levels, the bot that won more of them gets the higher mean accuracy.

The games are real games between the bots, made by :mod:`.ranking_records` and kept in
``data/ranking.jsonl.gz`` (playing them, the expert's above all, was most of the test's time;
the review of them is what is tested): each deal is played twice with the seats swapped (paired
deals, so the luck of the deal is the same for both bots), every deal seeded; the expert ranks
on a fixed number of deals (never on the clock) and the analysis samples a fixed number of
deals a position, so the games and their review are the same on every run and every machine.
``make ranking-records`` makes them again after a bot's play has changed. A few
deals a pair and four samples a position keep it to seconds a game: a check that the review
still reads these results right, not a measurement; ``bench/review.py rank`` measures the same
over many deals at the default depth (figures in docs/analysis.md).

``beginner`` and ``random`` place little, so their games run long with racks of 30 tiles and
more, whose review costs minutes on the standard set: their pairs are played on smaller sets
(the same rules, fewer numbers and smaller racks).

The expert ranks on 64 deals a decision: at 16 it is only level with ``strategic`` (26-24 over
50 games, docs/analysis.md), at 64 it won 65-35 over 100 (at 4, on these deals, it lost to
``greedy``): a pair with the expert ranks right exactly when the expert wins more, since its
accuracy is near 100 by construction (it plays the review's own ranking), so the expert must
be the expert. Results on these records (docs/analysis.md, "Measured on 2026-12-03 (night)"):
expert-strategic 4-2, strategic-greedy 4-2, expert-greedy 5-1, greedy-beginner 4-0,
beginner-random 0-2: all agree. Since the beginner lays single tiles at the ends of the table's
melds too (issue 33) it beats random: beginner-random 2-0 (mean accuracy 26.2 against 24.0),
greedy-beginner 4-0 (98.5 against 82.8): still every pair agrees. The expert's pairs play two
deals (a third of the suite's longest test gone): expert-strategic 3-1 (accuracy 99.1 against
97.7), expert-greedy 3-1 (99.0 against 91.3); their third deal went 1-1 in both.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest

from rummikub.analysis import analyse
from rummikub.games import load_any

from .ranking_records import PAIRS, games, header, load

pytestmark = pytest.mark.slow

#: deals the analysis samples a position
SAMPLES = 4

HEAD, KEPT = load()


def test_the_kept_games_are_the_games_of_the_pairs() -> None:
    """The file was made for these pairs, rules and seeds (else: ``make ranking-records``)."""
    assert json.loads(json.dumps(header(), sort_keys=True)) == HEAD
    for name in PAIRS:
        kept = [(tuple(g["levels"]), g["deal"]) for g in KEPT if g["pair"] == name]
        assert kept == games(name), name
    assert len(KEPT) == sum(len(games(name)) for name in PAIRS)


def _game(kept: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each level's share of the win and its accuracy in one kept game."""
    record = load_any(kept["record"])
    record.verify()  # every move of the kept game legal, its scores the rules' scores
    review = analyse(record, samples=SAMPLES)
    winners = kept["winners"]
    totals = kept["record"]["totals"]
    assert winners == [i for i, t in enumerate(totals) if t == max(totals)]  # the record's own
    out = {}
    for seat, (level, player) in enumerate(zip(kept["levels"], review.summary(), strict=True)):
        won = 1.0 / len(winners) if seat in winners else 0.0
        assert player.accuracy is not None, f"{level} had no move to judge in deal {kept['deal']}"
        out[level] = (won, player.accuracy)
    return out


@pytest.mark.parametrize("name", list(PAIRS))
def test_the_bot_that_wins_more_is_the_more_accurate(name: str) -> None:
    a, b, _, _ = PAIRS[name]
    played = [_game(g) for g in KEPT if g["pair"] == name]
    wins = {x: sum(g[x][0] for g in played) for x in (a, b)}
    accuracy = {x: statistics.mean(g[x][1] for g in played) for x in (a, b)}
    assert wins[a] != wins[b], f"{a} and {b} won as many games: {wins}"
    more = max((a, b), key=lambda x: wins[x])
    better = max((a, b), key=lambda x: accuracy[x])
    assert more == better, f"wins {wins}, mean accuracy {accuracy}"
