"""Xpress moves ranked by the evaluation (rummikub.xpress.ranking, rank_moves for Xpress): the
order, the same answer for the same seed, illegal candidates refused, and properties of the
chances over positions from seeded games."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rummikub.analysis.xpress_throws import turn_loss
from rummikub.bots.evaluation import best_move, candidate_moves, evaluate, judge_seed, rank_moves
from rummikub.core import Draw, IllegalPlayError, RulesError, Table
from rummikub.xpress import EndTurn, Place, Throw, XpressMatch, XpressRules, get_bot, observe
from rummikub.xpress import ranking as xpress_ranking
from rummikub.xpress.actions import XpressAction
from rummikub.xpress.ranking import HOLD_BACKS, _thrown_by_keeper, low_dice, rank
from rummikub.xpress.state import XpressState, apply, validate

from .xpress_helpers import dice_of, make_state


def test_going_out_ranks_first_and_wins_the_round() -> None:
    state = make_state("R1 R2 R3 K9", "B1 B5 O7 O11", "K6 K7 K8")
    obs = observe(state, 0)
    out = Place(dice_of(state, "R1 R2 R3 K9"), Table.parse("R1 R2 R3 | K6 K7 K8 K9"))
    fewer = Place(dice_of(state, "R1 R2 R3"), Table.parse("R1 R2 R3 | K6 K7 K8"))
    ranked = rank_moves(obs, [fewer, out], samples=64, seed=1)
    assert ranked[0][0] == out and ranked[0][1].win_round == 1.0
    assert ranked[1][1].win_match < ranked[0][1].win_match  # the other may go out first
    # the candidates the ranking compares: going out alone, it wins the round now
    cands = candidate_moves(obs)
    assert len(cands) == 1 and isinstance(cands[0], Place)
    assert sorted(cands[0].dice) == sorted(out.dice)


def test_keeping_a_run_beats_throwing_it_away() -> None:
    state = make_state("R10 R11 R12 K1 B5", "O2 O6 B9 K13 R4", phase="throw")
    obs = observe(state, 0)
    keep = Throw(dice_of(state, "K1 B5"))
    away = Throw(dice_of(state, "R10 R11 R12"))
    ranked = rank_moves(obs, [away, keep], samples=32, seed=3)
    assert [a for a, _ in ranked] == [keep, away]
    assert ranked[0][1].win_match > ranked[1][1].win_match
    # throwing every die is always a candidate, and the default candidates include keeping
    # dice that could share a set
    cands = candidate_moves(obs)
    assert Throw(tuple(sorted(d.die for d in state.hand))) in cands and len(cands) > 1


def _placed(action: XpressAction) -> frozenset[int]:
    assert isinstance(action, Place)
    return frozenset(action.dice)


def test_placements_holding_a_die_back_are_candidates_at_every_placement() -> None:
    """The most dice (R4 onto the run, the group of nines), the best placements holding one of
    its dice back (at most HOLD_BACKS, by dice then points, alike ones once), every one legal;
    after a first placement of the turn too."""
    state = make_state("R4 K9 B9 O9 O2", "B1 B5 O7 O11 K12", "R1 R2 R3 | K6 K7 K8")
    cands = candidate_moves(observe(state, 0))
    for action in cands:
        validate(state, action)
    placed = [_placed(a) for a in cands]
    assert placed == [
        frozenset(dice_of(state, "R4 K9 B9 O9")),
        frozenset(dice_of(state, "K9 B9 O9")),  # R4 held back
        frozenset(dice_of(state, "R4 K9")),  # B9 (or O9) held back: the nines' group broken
        frozenset(dice_of(state, "R4")),  # K9 held back
    ]
    assert len(cands) <= 2 + HOLD_BACKS
    # R4 placed first: the group of nines must go down before the turn ends, or K9 alone
    after = apply(state, Place(dice_of(state, "R4"), Table.parse("R1 R2 R3 R4 | K6 K7 K8")))
    assert after.placed == 1
    later = candidate_moves(observe(after, 0))
    for action in later:
        validate(after, action)
    assert [_placed(a) for a in later] == [
        frozenset(dice_of(after, "K9 B9 O9")),
        frozenset(dice_of(after, "K9")),  # onto K6 K7 K8, holding the group back
    ]


def test_the_broad_screen_adds_the_keep_choices_the_playouts_judge_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every die low (O1 O2 O4), a run O7-O10 on the table: the quick screen offers throwing
    everything or keeping O4 only; the playouts' broad screen of keep-choices adds keeping
    O1 O2 (a run wanting O3 to go out), which the ranking then plays. Its two screens play 8
    futures, then 32; at a time limit already passed, one future each."""
    state = make_state("O1 O2 O4", "K10 K10", "K12 B12 O12 | R11 B11 J | B1 B2 J | O7 O8 O9 O10",
                       phase="throw")  # fmt: skip
    obs = observe(state, 0)
    keep_runs_start = Throw(dice_of(state, "O4"))
    screens: list[set[int]] = []
    real_rank = xpress_ranking.rank

    def spied(*args: Any, **kwargs: Any) -> Any:
        ranked = real_rank(*args, **kwargs)
        screens.append({j.samples for _, j in ranked})
        return ranked

    monkeypatch.setattr(xpress_ranking, "rank", spied)
    cands = candidate_moves(obs)
    assert screens == [{8}, {32}]
    assert keep_runs_start in cands
    assert real_rank(obs, cands, samples=32, seed=judge_seed(obs))[0][0] == keep_runs_start
    screens.clear()
    assert candidate_moves(obs, 0.0)[: len(cands) - 3] == cands[: len(cands) - 3]
    assert screens == [{1}, {1}]
    monkeypatch.setattr(xpress_ranking, "BROAD_FINALISTS", 0)
    assert keep_runs_start not in candidate_moves(obs)


def test_the_low_dice_are_kept_as_a_candidate_and_by_the_playouts_player() -> None:
    """Low dice: jokers, and faces at least 2.5 below their die's mean (every die of the
    default layout has faces summing to 38-48, so a 1 or 2 is always low, a 11-13 never).
    Keeping them is a throw candidate; the playouts' player throws all but them, and when all
    are low the one counting the most."""
    state = make_state("R1 K2 J R11 B12 O13", "B5 O7 K9", phase="throw")
    low = low_dice(state.hand, state.layout, state.rules.joker_value)
    assert low == set(dice_of(state, "R1 K2 J"))
    assert Throw(tuple(sorted(dice_of(state, "R11 B12 O13")))) in candidate_moves(observe(state, 0))
    assert _thrown_by_keeper(state.hand, state.layout, 10) == set(dice_of(state, "R11 B12 O13"))
    small = make_state("R1 K2 J", "B5 O7 K9", phase="throw")
    assert _thrown_by_keeper(small.hand, small.layout, 10) == set(dice_of(small, "J"))


def test_the_same_seed_gives_the_same_ranking() -> None:
    state = make_state("R10 R11 K1 B5 O9", "O2 O6 B9 K13 R4", "K3 B3 O3", phase="throw")
    obs = observe(state, 0)
    first = rank_moves(obs, samples=6, seed=11)
    assert rank_moves(obs, samples=6, seed=11) == first
    assert all(ev.samples == 6 for _, ev in first)
    # the hint's, the expert's and the analysis's seed is the position's own
    action, ev = best_move(obs, samples=6)
    assert (action, ev) == rank_moves(obs, candidate_moves(obs), samples=6,
                                      seed=judge_seed(obs))[0]  # fmt: skip
    assert judge_seed(obs) == judge_seed(observe(state, 0))


class _Scheduled:
    """A stand-in for the ``time`` module whose clock moves by the next of ``steps`` at every
    reading (then by the last)."""

    def __init__(self, steps: list[float]) -> None:
        self.now = 1000.0
        self.steps = steps

    def monotonic(self) -> float:
        self.now += self.steps.pop(0) if len(self.steps) > 1 else self.steps[0]
        return self.now


def test_no_sample_is_begun_that_would_end_past_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The limit counts from the call (its first reading of the clock), the samples from the
    next: two candidates, the clock read before each sample after the first and between the
    candidates' playouts of those, a limit of 0.35 s plays two samples (the clock reads 0.3 s
    before the second, 0.4 s between its playouts, 0.5 s before a third, which would end at
    0.7 s); the first is played whatever the limit."""
    import rummikub.xpress.ranking as ranking

    state = make_state("R10 R11 K1 B5 O9", "O2 O6 B9 K13 R4", "K3 B3 O3", phase="throw")
    obs = observe(state, 0)
    pair = _two_throws(state)
    monkeypatch.setattr(ranking, "time", _Scheduled([0.1]))  # 0.1 s a reading
    assert {ev.samples for _, ev in rank(obs, pair, samples=8, seed=1, time_limit=0.35)} == {2}
    assert {ev.samples for _, ev in rank(obs, pair, samples=8, seed=1, time_limit=0.01)} == {1}
    assert {ev.samples for _, ev in rank(obs, pair, samples=8, seed=1, time_limit=0.25)} == {1}
    assert {ev.samples for _, ev in rank(obs, pair, samples=3, seed=1, time_limit=5.0)} == {3}


def _two_throws(state: XpressState) -> list[XpressAction]:
    """Two throw choices of ``state``'s player: everything, or all but his first die."""
    dice = tuple(d.die for d in state.hand)
    return [Throw(dice), Throw(dice[1:])]


def test_one_slow_sample_stops_the_sampling_before_it_could_pass_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A sample is not begun when it would end past the limit at the time of the slowest
    sample so far: the first taking 0.2 s and the second 0.02 s, a limit of 0.41 s plays two
    (their mean, 0.11 s, would have begun more, and one as slow as the first would end past
    it)."""
    import rummikub.xpress.ranking as ranking

    state = make_state("R10 R11 K1 B5 O9", "O2 O6 B9 K13 R4", "K3 B3 O3", phase="throw")
    obs = observe(state, 0)
    pair = _two_throws(state)
    # readings: the call (the deadline), the samples' start, then before each later sample
    # and between its two playouts
    monkeypatch.setattr(ranking, "time", _Scheduled([0.0, 0.0, 0.2, 0.01, 0.01]))
    assert {ev.samples for _, ev in rank(obs, pair, samples=8, seed=1, time_limit=0.41)} == {2}


def test_a_sample_the_limit_overtakes_is_abandoned_between_two_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first sample taking 0.1 s, the second is begun under a limit of 0.45 s; its first
    playout taking 0.5 s, the clock is past the limit before the second candidate's: that
    sample is abandoned for every candidate (they stay judged in the same futures), and the
    call ends there, not a whole sample later."""
    import rummikub.xpress.ranking as ranking

    state = make_state("R10 R11 K1 B5 O9", "O2 O6 B9 K13 R4", "K3 B3 O3", phase="throw")
    obs = observe(state, 0)
    pair = _two_throws(state)
    clock = _Scheduled([0.0, 0.0, 0.1, 0.5, 0.0])
    monkeypatch.setattr(ranking, "time", clock)
    assert {ev.samples for _, ev in rank(obs, pair, samples=8, seed=1, time_limit=0.45)} == {1}
    assert clock.now == pytest.approx(1000.6)


def test_illegal_candidates_are_refused_by_name() -> None:
    throw = make_state("R10 R11 K1 B5", "O2 O6 B9 K13", phase="throw")
    obs = observe(throw, 0)
    elsewhere = next(d for d in range(18) if d not in {x.die for x in throw.hand})
    with pytest.raises(IllegalPlayError, match=r"candidate 2 .*illegal here"):
        rank_moves(obs, [Throw(dice_of(throw, "K1")), Throw((elsewhere,))], samples=1)
    with pytest.raises(IllegalPlayError, match="candidate 1"):
        rank_moves(obs, [EndTurn()], samples=1)  # throw first
    with pytest.raises(RulesError, match="a throw, a placement or the end"):
        rank_moves(obs, [Draw()], samples=1)  # type: ignore[list-item]
    with pytest.raises(RulesError, match="player to move"):
        rank_moves(observe(throw, 1), samples=1)
    place = make_state("R10 R11 R12 K1", "O2 O6 B9 K13")
    with pytest.raises(IllegalPlayError, match="candidate 1"):
        rank_moves(observe(place, 0), [EndTurn()], samples=1)  # the run must be placed
    with pytest.raises(IllegalPlayError, match="candidate 1"):
        rank_moves(observe(place, 0), [Throw(dice_of(place, "K1"))], samples=1)
    bad_table = Place(dice_of(place, "K1"), Table.parse("R10 R11 K1"))
    with pytest.raises(IllegalPlayError, match="candidate 1"):
        rank(observe(place, 0), [bad_table], samples=1)


def _position(seed: int, moves: int) -> XpressMatch:
    """A match of greedy against random after ``moves`` actions."""
    match = XpressMatch(["a", "b"], seed, rules=XpressRules(rounds=2))
    bots = [get_bot("greedy", seed), get_bot("random", seed)]
    for _ in range(moves):
        if match.round_over:
            if match.over:
                break
            match.next_round()
        obs = match.observation(match.state.current)
        match.act(bots[match.state.current].act(obs))
    return match


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 99))
def test_properties_of_xpress_rankings(seed: int, moves: int, rank_seed: int) -> None:
    match = _position(seed, moves)
    if match.round_over and not match.over:
        match.next_round()
    assume(not match.round_over)  # the match is over: nothing to rank
    obs = match.observation(match.state.current)
    ranked = rank(obs, samples=3, seed=rank_seed)
    assert ranked, "a position always has a move"
    for _, j in ranked:
        assert 0.0 <= j.win_match <= 1.0 and 0.0 <= j.win_round <= 1.0
        assert sum(j.match_shares) == pytest.approx(1.0)
        assert sum(j.round_shares) == pytest.approx(1.0)
        assert len(j.per_deal) == j.samples == 3
    chances = [j.win_match for _, j in ranked]
    assert chances == sorted(chances, reverse=True)
    best = ranked[0][1]
    assert turn_loss(best, best)[2] == 0.0
    assert all(turn_loss(best, j)[2] >= 0.0 for _, j in ranked)
    # the position's evaluation from either seat's view: the shares agree (the other seat
    # does not see what the mover has placed this turn, so before he places)
    assume(obs.placed == 0)
    mine = evaluate(obs, samples=3, seed=rank_seed)
    theirs = evaluate(match.observation(1 - obs.player), samples=3, seed=rank_seed)
    assert mine.win_match == pytest.approx(1.0 - theirs.win_match)
