"""The evaluation of a position (win chances of the round and the match, the expected score)
and the ranking of moves by it: seeded, from the player's own view only, consistent."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rummikub.bots import evaluation, get_bot
from rummikub.bots.evaluation import (
    Evaluation,
    candidate_moves,
    evaluate,
    rank_key,
    rank_moves,
)
from rummikub.bots.playout import greedy_action
from rummikub.core import (
    PRESETS,
    Draw,
    Match,
    MatchRules,
    Observation,
    Play,
    Rules,
    RulesError,
    Table,
    apply,
    observe,
    parse_tiles,
    preset,
)
from rummikub.core.tiles_game import TILES
from rummikub.xpress import XpressMatch, XpressRules
from rummikub.xpress import observe as xobserve

from ..analysis.test_analysis import position

NOJOKERS = Rules.from_dict({"preset": "standard", "jokers": 0})


def played(rules: Rules, players: int, seed: int, moves: int) -> Match:
    """A match after ``moves`` greedy moves (fewer if the round ends)."""
    match = Match(rules, [f"p{i}" for i in range(players)], seed)
    for _ in range(moves):
        if match.round_over:
            break
        match.act(greedy_action(match.state))
    return match


def mover(match: Match) -> Observation:
    return match.observation(match.state.current)


def test_the_same_call_gives_the_same_answer() -> None:
    obs = mover(played(NOJOKERS, 2, 3, 20))
    first = evaluate(obs, samples=6, seed=5)
    assert evaluate(obs, samples=6, seed=5) == first
    assert first.samples == 6
    ranked = rank_moves(obs, samples=4, seed=5)
    assert rank_moves(obs, samples=4, seed=5) == ranked


def test_the_ranking_plays_the_same_deals_as_the_evaluation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Common random numbers: a play's figure in ``rank_moves`` is ``evaluate`` of the position
    after it (a play moves tiles from the rack to the table: the unseen tiles stay the same, so
    the same seed deals them the same way), when deals do not depend on the table (the
    opponents' fitting tiles, ``FIT_WEIGHT``, are read from the table before the move)."""
    monkeypatch.setattr(evaluation, "FIT_WEIGHT", 1.0)
    obs = observe(position("R10 R11 R12 K4 B7 O1 O2", opened=True), 0)
    ranked = rank_moves(obs, samples=5, seed=2)
    plays = [(a, e) for a, e in ranked if isinstance(a, Play)]
    assert plays
    state = position("R10 R11 R12 K4 B7 O1 O2", opened=True)
    for action, ev in plays:
        after = observe(apply(state, action), 0)
        assert evaluate(after, samples=5, seed=2) == ev


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shares_sum_to_one_for_every_seat(players: int) -> None:
    match = played(NOJOKERS, players, 7, 6 * players)
    for seat in range(players):
        ev = evaluate(match.observation(seat), samples=3, seed=seat)
        assert len(ev.round_shares) == len(ev.match_shares) == players
        assert sum(ev.round_shares) == pytest.approx(1.0)
        assert sum(ev.match_shares) == pytest.approx(1.0)
        assert ev.win_round == ev.round_shares[seat]
        assert ev.expected_score == ev.expected_scores[seat]
        assert sum(ev.expected_scores) == pytest.approx(0.0)  # zero-sum scoring


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_evaluated(name: str) -> None:
    """Every preset, ``classic-strict`` (melds locked: playouts on tiles and melds) included."""
    rules = preset(name)
    match = played(rules, 2, 11, 24)
    ev = evaluate(mover(match), samples=2, seed=1)
    assert 0.0 <= ev.win_round <= 1.0 and 0.0 <= ev.win_match <= 1.0
    assert sum(ev.round_shares) == pytest.approx(1.0)


def test_a_won_round_is_one_and_a_lost_round_zero() -> None:
    state = position("R10 R11 R12 R13", opened=True)
    after = apply(state, Play(parse_tiles("R10 R11 R12 R13"), Table.parse("R10 R11 R12 R13")))
    assert after.end is not None and after.end.winner == 0
    won = evaluate(observe(after, 0), samples=4)
    lost = evaluate(observe(after, 1), samples=4)
    assert (won.win_round, won.win_match) == (1.0, 1.0)
    assert (lost.win_round, lost.win_match) == (0.0, 0.0)
    assert won.expected_score > 0 > lost.expected_score  # the winner takes the loser's rack


def test_going_out_ranks_first_and_is_near_one() -> None:
    obs = observe(position("R10 R11 R12 R13", opened=True), 0)
    ranked = rank_moves(obs, samples=4, seed=0)
    best, ev = ranked[0]
    assert isinstance(best, Play) and len(best.tiles) == 4
    assert ev.win_round == 1.0 and ev.win_match == 1.0
    assert any(isinstance(a, Draw) for a, _ in ranked)  # drawing was a candidate too
    assert evaluate(obs, samples=4).win_round == 1.0  # the playout's first move goes out


def test_holding_the_tiles_ranks_above_a_small_play_early_in_the_round() -> None:
    # opened, R1 R2 R3 could go down and three tiles would stay, the pool is full: drawing and
    # holding the tiles until the whole rack can go down at once wins more (docs/bots.md,
    # "Holding the tiles"); the expert plays it
    from rummikub.bots.expert import ExpertBot, ExpertParams

    obs = observe(position("R1 R2 R3 B9 K5 O12", opened=True), 0)
    ranked = rank_moves(obs, samples=16, seed=0)
    best, ev = ranked[0]
    assert isinstance(best, Draw)
    assert ev.win_round > max(e.win_round for a, e in ranked if isinstance(a, Play))
    expert = ExpertBot(1, ExpertParams(limit=1e6, max_samples=16))
    assert isinstance(expert.act(obs), Draw)


def test_only_what_the_player_sees_counts() -> None:
    state = position("R1 R5 K9 B2 O11 K3", opened=True)
    other = TILES.redeal_hidden(state, 0, random.Random(3))
    assert other.racks[1] != state.racks[1] and other.pool != state.pool
    seen, alt = observe(state, 0), observe(other, 0)
    assert evaluate(seen, samples=5, seed=9) == evaluate(alt, samples=5, seed=9)
    assert rank_moves(seen, samples=3, seed=9) == rank_moves(alt, samples=3, seed=9)


def test_the_match_totals_and_length_count() -> None:
    obs = mover(played(NOJOKERS, 2, 5, 10))
    me = obs.player
    three = NOJOKERS.replace(match=MatchRules(rounds=3))
    ahead = tuple(600 if i == me else -600 for i in range(2))
    behind = tuple(-s for s in ahead)
    last = dataclasses.replace(obs, rules=three, round=2, scores=ahead)
    assert evaluate(last, samples=3).win_match == 1.0  # too far ahead to be caught this round
    assert evaluate(dataclasses.replace(last, scores=behind), samples=3).win_match == 0.0
    # with rounds to go the lead is less sure, and an even match is open
    early = evaluate(dataclasses.replace(last, round=0), samples=3)
    assert 0.5 < early.win_match <= 1.0
    first = dataclasses.replace(obs, round=0, scores=(0, 0))
    even = evaluate(first, match=MatchRules(rounds=5), samples=4, seed=1)
    assert 0.0 < even.win_match < 1.0
    target = evaluate(first, match=MatchRules(rounds=None, target=150), samples=4, seed=1)
    assert sum(target.match_shares) == pytest.approx(1.0)


def test_a_time_limit_still_plays_one_sample() -> None:
    obs = mover(played(NOJOKERS, 2, 8, 12))
    assert evaluate(obs, samples=50, time_limit=0.0).samples == 1
    assert all(e.samples == 1 for _, e in rank_moves(obs, samples=50, time_limit=0.0))


def test_bad_calls_are_refused() -> None:
    match = played(NOJOKERS, 2, 9, 4)
    waiting = match.observation(1 - match.state.current)
    with pytest.raises(RulesError):
        rank_moves(waiting, samples=2)
    with pytest.raises(ValueError):
        evaluate(waiting, samples=0)


def test_candidates_come_from_the_search() -> None:
    obs = observe(position("R10 R11 R12 R13 K1", opened=True), 0)
    cands = candidate_moves(obs)
    assert isinstance(cands[0], Play) and len(cands[0].tiles) == 4
    assert any(isinstance(a, Draw) for a in cands)


def test_xpress_is_evaluated_from_the_open_hands() -> None:
    rules = XpressRules(rounds=2)
    bots = [get_bot("greedy", 1, game="xpress"), get_bot("greedy", 2, game="xpress")]
    match = XpressMatch(["a", "b"], 4, rules=rules)
    for _ in range(6):
        obs = match.observation(match.state.current)
        action = bots[match.state.current].act(obs)
        match.act(action)
    for seat in (0, 1):
        ev = evaluate(match.observation(seat), samples=4, seed=2)
        assert ev == evaluate(match.observation(seat), samples=4, seed=2)
        assert sum(ev.round_shares) == pytest.approx(1.0)
        assert sum(ev.match_shares) == pytest.approx(1.0)
    # the moves of the player to move are ranked too (tests/xpress/test_ranking.py)
    ranked = rank_moves(match.observation(match.state.current), samples=2)
    assert ranked and all(ev.samples == 2 for _, ev in ranked)
    # a hand emptied: the round is won
    state = match.state
    out = dataclasses.replace(state, hands=((), state.hands[1]))
    assert evaluate(xobserve(out, 0), samples=2).win_round == 1.0
    assert evaluate(xobserve(out, 1), samples=2).win_round == 0.0


positions = st.tuples(
    st.sampled_from([2, 3, 4]), st.integers(0, 10_000), st.integers(0, 40), st.integers(0, 99)
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_properties_of_evaluations_and_rankings(case: tuple[int, int, int, int]) -> None:
    players, seed, moves, eval_seed = case
    match = played(NOJOKERS, players, seed, moves)
    assume(not match.round_over)  # a round over leaves no move to evaluate
    obs = mover(match)
    ev = evaluate(obs, samples=2, seed=eval_seed)
    assert 0.0 <= ev.win_round <= 1.0 and 0.0 <= ev.win_match <= 1.0
    assert sum(ev.round_shares) == pytest.approx(1.0)
    ranked = rank_moves(obs, samples=2, seed=eval_seed)
    # by the chances first (going out now, then the expected score, break their ties)
    keys = [rank_key(e)[:2] for _, e in ranked]
    assert keys == sorted(keys)
    assert all(isinstance(e, Evaluation) and e.samples == 2 for _, e in ranked)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_hidden_tiles_never_change_the_evaluation(case: tuple[int, int, int, int]) -> None:
    players, seed, moves, eval_seed = case
    match = played(NOJOKERS, players, seed, moves)
    assume(not match.round_over)  # a round over leaves no move to evaluate
    state = match.state
    me = state.current
    other = TILES.redeal_hidden(state, me, random.Random(eval_seed))
    seen, alt = observe(state, me), observe(other, me)
    assert evaluate(seen, samples=2, seed=eval_seed) == evaluate(alt, samples=2, seed=eval_seed)


def test_locked_melds_are_played_out_on_tiles() -> None:
    """``classic-strict`` locks melds holding a joker: its playouts run on tiles and melds."""
    match = played(preset("classic-strict"), 2, 12, 20)
    obs = mover(match)
    ranked = rank_moves(obs, samples=1, seed=0)
    # by the chances first (going out now, then the expected score, break their ties)
    keys = [rank_key(e)[:2] for _, e in ranked]
    assert keys == sorted(keys) and all(e.samples == 1 for _, e in ranked)
