"""Every built-in bot through the shared conformance check under every preset: real seeded
games, every decision verified by the engine, every record replayed."""

from __future__ import annotations

import pytest

from rummikub.bots import get_bot
from rummikub.bots.base import Bot
from rummikub.bots.beginner import BeginnerBot
from rummikub.bots.conformance import run_conformance
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.random import RandomBot
from rummikub.core import PRESETS, Action, Draw, Observation, Pass, Play, Table

# (bot, games per preset): hundreds of games with the cheap bots, a few with the solver bots
CHEAP = [("random", 16), ("beginner", 16)]
SOLVER = [("greedy", 1), ("strategic", 1)]


@pytest.mark.parametrize(("name", "games"), CHEAP + SOLVER)
@pytest.mark.parametrize("preset_name", list(PRESETS))
def test_builtin_bot_conforms(name: str, games: int, preset_name: str) -> None:
    report = run_conformance(
        lambda seed: get_bot(name, seed), games=games, presets=[preset_name], seed=11,
        opponents=[RandomBot, BeginnerBot], check_time=False,
    )  # fmt: skip
    assert report.ok, report.summary()
    assert report.games == games
    assert report.plays > 0


@pytest.mark.parametrize("preset_name", list(PRESETS))
def test_expert_conforms_with_a_tiny_budget(preset_name: str) -> None:
    made: list[ExpertBot] = []

    def make(seed: int) -> Bot:
        made.append(ExpertBot(seed, ExpertParams(limit=0.01, max_samples=3)))
        return made[-1]

    report = run_conformance(make, games=1, presets=[preset_name], seed=3,
                             opponents=[BeginnerBot], check_time=False)  # fmt: skip
    assert report.ok, report.summary()
    assert report.plays > 0


def test_more_players_under_xp() -> None:
    report = run_conformance(RandomBot, games=6, presets=["xp"], players=6, seed=2)
    assert report.ok, report.summary()
    assert report.games == 6


class _Broken:
    """Misbehaves on purpose, differently each turn."""

    name = "broken"

    def __init__(self, seed: int | None = None) -> None:
        self.turn = 0

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        self.turn += 1
        kind = self.turn % 4
        if kind == 0:
            raise RuntimeError("boom")
        if kind == 1:
            return "draw"  # type: ignore[return-value]
        if kind == 2:
            return Play(obs.rack.tiles[:1], Table(obs.table.melds))  # tile not on the table
        return Pass() if obs.pool_size else Draw()


def test_conformance_reports_every_kind_of_violation() -> None:
    report = run_conformance(_Broken, games=2, presets=["standard", "tournament"], seed=1,
                             opponents=[BeginnerBot], max_turns=60)  # fmt: skip
    kinds = {v.kind for v in report.violations}
    assert {"exception", "not-action", "illegal"} <= kinds
    assert not report.ok
    assert "violations" in report.summary()
    first = report.violations[0]
    assert first.preset in ("standard", "tournament") and str(first)


def test_expert_rollout_search_conforms() -> None:
    made: list[ExpertBot] = []

    def make(seed: int) -> Bot:
        made.append(ExpertBot(seed, ExpertParams(limit=0.01, max_samples=2,
                                            rollout_search=True)))  # fmt: skip
        return made[-1]

    report = run_conformance(make, games=1, presets=["classic-strict"], seed=5,
                             opponents=[BeginnerBot], check_time=False)  # fmt: skip
    assert report.ok, report.summary()
    assert sum(b.searched for b in made) > 0


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_conform_under_each_joker_variant_alone(name: str) -> None:
    base = PRESETS["standard"]
    variants = [
        base.replace(joker_rule="strict"),
        base.replace(group_needs_both_colours=True),
        base.replace(open_then_extend=True),
    ]
    games = 4 if name == "random" else 1
    report = run_conformance(
        lambda seed: get_bot(name, seed), games=games, presets=variants, seed=21,
        opponents=[RandomBot], check_time=False,
    )  # fmt: skip
    assert report.ok, report.summary()
    assert report.games == 3 * games
