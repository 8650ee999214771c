"""Bulk greedy self-play on tile counts (rummikub.envs.greedy_selfplay)."""

from __future__ import annotations

import pytest

from rummikub.bots import get_bot, play_match
from rummikub.core import RulesError, preset
from rummikub.envs import greedy_selfplay


def test_seeded_rounds_one_per_seed_reproducible() -> None:
    rounds = greedy_selfplay(players=3, rules="standard", games=4, seed=10)
    assert [r.seed for r in rounds] == [10, 11, 12, 13]
    assert rounds == greedy_selfplay(players=3, rules="standard", games=4, seed=10)
    assert rounds[1:] == greedy_selfplay(players=3, rules="standard", games=3, seed=11)
    for r in rounds:
        assert r.winner is not None and r.reason in ("rummikub", "exhausted")
        assert sum(r.scores) == 0 and len(r.scores) == 3 and r.turns > 0


def test_the_same_deals_as_play_match_and_mostly_the_same_winners() -> None:
    # the greedy bot breaks ties between equally good plays by the fewest changed melds, the
    # counts do not; from the same deals the rounds end alike almost always
    rules = preset("standard")
    rounds = greedy_selfplay(rules="standard", games=8, seed=2)
    same = 0
    for r in rounds:
        match = play_match(rules, [get_bot("greedy", 1), get_bot("greedy", 2)], r.seed)
        same += r.winner in match.winners
    assert same >= 7


def test_rules_by_json_and_refusals() -> None:
    nojokers = greedy_selfplay(rules={"preset": "standard", "jokers": 0}, games=2, seed=1)
    assert len(nojokers) == 2
    with pytest.raises(RulesError, match="lock no meld"):
        greedy_selfplay(rules="classic-strict", games=1)
    with pytest.raises(RulesError):
        greedy_selfplay(players=9, games=1)
