"""Move generation, hold-back and determinization, checked against the engine on positions from
real seeded games."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.bots.base import Bot
from rummikub.bots.beginner import BeginnerBot
from rummikub.bots.expert import quick_action
from rummikub.bots.moves import extensions, is_legal, rack_melds, replace_meld
from rummikub.bots.random import RandomBot
from rummikub.bots.sampling import determinize, unseen_tiles
from rummikub.bots.strategic import hold_back
from rummikub.core import (
    Draw,
    Match,
    Observation,
    Pass,
    Play,
    RoundState,
    Table,
    apply,
    check_play,
    is_valid_meld,
    parse_tiles,
    preset,
    read_meld,
)


def positions(seed: int, preset_name: str, turns: int) -> list[tuple[RoundState, Observation]]:
    """Observations of the player to move along a seeded random-vs-beginner game."""
    match = Match(preset(preset_name), ["a", "b"], seed)
    bots: list[Bot] = [RandomBot(seed), BeginnerBot(seed)]
    out = []
    for _ in range(turns):
        if match.round_over:
            break
        obs = match.observation(match.state.current)
        out.append((match.state, obs))
        action = bots[match.state.current].act(obs)
        match.act(action)
    return out


def test_rack_melds_finds_groups_runs_and_joker_melds() -> None:
    rules = preset("standard")
    found = {str(m) for m in rack_melds(parse_tiles("R5 R6 R7 K5 B5 J"), rules, max_jokers=1)}
    assert {"R5 R6 R7", "K5 R5 B5", "R5 R6 R7 J", "R5 R6 J"} <= found
    assert all(is_valid_meld(m, rules) for m in rack_melds(parse_tiles("R5 R6 R7 K5 B5 J"),
                                                           rules))  # fmt: skip


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "classic-strict", "xp"]))
def test_generated_moves_are_legal(seed: int, preset_name: str) -> None:
    for state, obs in positions(seed, preset_name, 30):
        rules = obs.rules
        rack = Counter(obs.rack.tiles)
        for meld in rack_melds(obs.rack.tiles, rules):
            assert not Counter(meld.tiles) - rack
            if obs.has_opened:
                assert is_legal(obs, Play(meld.tiles, Table((*obs.table.melds, meld))))
        for tile, index, meld in extensions(obs.table, obs.rack.tiles, rules):
            play = Play((tile,), replace_meld(obs.table, index, meld))
            if obs.has_opened:
                # the engine agrees, except where a joker variant forbids the change
                err = check_play(state, play)
                assert err is None or err.reason == "joker-rule"


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_hold_back_keeps_plays_legal_and_holds_back_only_rack_tiles(seed: int) -> None:
    for _, obs in positions(seed, "standard", 40):
        if not obs.has_opened:
            continue
        melds = rack_melds(obs.rack.tiles, obs.rules, max_jokers=2)
        big = max(melds, key=len, default=None)
        if big is None or len(big) < 4:
            continue
        play = Play(big.tiles, Table((*obs.table.melds, big)))
        smaller, held = hold_back(obs, play, 2)
        assert len(smaller.tiles) >= 1
        assert Counter(smaller.tiles) + Counter(held) == Counter(play.tiles)
        assert is_legal(obs, smaller)
        assert len(held) <= 2


def test_hold_back_keeps_the_fourth_tile_of_a_group() -> None:
    match = Match(preset("standard"), ["a", "b"], 1)
    obs = match.observation(match.state.current)
    obs = Observation(obs.player, obs.rules, obs.rack.__class__(parse_tiles("K9 R9 B9 O9 K1")),
                      Table(), obs.rack_sizes, obs.pool_size, (True, True), obs.current,
                      obs.turn, obs.passes, obs.scores)  # fmt: skip
    group = read_meld(parse_tiles("K9 R9 B9 O9"), obs.rules).meld
    smaller, held = hold_back(obs, Play(group.tiles, Table((group,))), 3)
    assert len(held) == 1 and len(smaller.tiles) == 3


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["standard", "xp"]))
def test_determinization_is_consistent_with_the_observation(seed: int, name: str) -> None:
    rng = random.Random(seed)
    for state, obs in positions(seed, name, 25)[::6]:
        unseen = unseen_tiles(obs)
        assert len(unseen) == sum(obs.rack_sizes) - len(obs.rack) + obs.pool_size
        det = determinize(obs, rng, unseen)
        assert det.racks[obs.player] == obs.rack
        assert [len(r) for r in det.racks] == list(obs.rack_sizes)
        assert len(det.pool) == obs.pool_size
        assert det.tile_total() == obs.rules.tile_count
        # the hidden tiles are exactly the real hidden tiles, as a multiset
        real = Counter(state.pool)
        for i, r in enumerate(state.racks):
            if i != obs.player:
                real.update(r.tiles)
        mine = Counter(det.pool)
        for i, r in enumerate(det.racks):
            if i != obs.player:
                mine.update(r.tiles)
        assert mine == real


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_quick_policy_only_makes_legal_moves(seed: int) -> None:
    for state, _ in positions(seed, "classic-strict", 30):
        action = quick_action(state)
        if isinstance(action, Play):
            err = check_play(state, action)
            assert err is None or err.reason == "joker-rule"
        else:
            assert action == (Draw() if state.pool else Pass())
            apply(state, action)
