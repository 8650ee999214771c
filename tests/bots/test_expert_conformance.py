"""The search expert stays legal with 3 and 4 players and under each joker variant (budgets
given as sample counts, so nothing depends on the machine's speed)."""

from __future__ import annotations

import pytest

from rummikub.bots.base import Bot
from rummikub.bots.beginner import BeginnerBot
from rummikub.bots.conformance import BotMaker, run_conformance
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.greedy import GreedyBot
from rummikub.core import PRESETS, Rules

TINY = ExpertParams(limit=1000.0, max_samples=2)


def _maker(made: list[ExpertBot]) -> BotMaker:
    def make(seed: int) -> Bot:
        made.append(ExpertBot(seed, TINY))
        return made[-1]

    return make


@pytest.mark.parametrize("players", [3, 4])
def test_expert_searches_legally_with_more_players(players: int) -> None:
    made: list[ExpertBot] = []
    report = run_conformance(_maker(made), games=1, presets=["standard"],
                             players=players, seed=7, opponents=[GreedyBot],
                             check_time=False)  # fmt: skip
    assert report.ok, report.summary()
    assert sum(b.searched for b in made) > 0


@pytest.mark.parametrize(
    "rules",
    [
        PRESETS["standard"].replace(jokers=0),
        PRESETS["standard"].replace(jokers=4),
        PRESETS["standard"].replace(joker_rule="strict"),
    ],
    ids=["no-jokers", "four-jokers", "strict-jokers"],
)
def test_expert_searches_legally_under_each_joker_variant(rules: Rules) -> None:
    made: list[ExpertBot] = []
    report = run_conformance(_maker(made), games=1, presets=[rules],
                             seed=9, opponents=[BeginnerBot], check_time=False)  # fmt: skip
    assert report.ok, report.summary()
    assert sum(b.searched for b in made) > 0
