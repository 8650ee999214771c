"""Playouts on tile counts make exactly the moves of the playouts on tiles and melds."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummikub.bots.evaluation import candidate_moves, rank_moves
from rummikub.bots.grid_playout import GridRound, greedy_round
from rummikub.bots.leaf import grid_shares, learned_shares
from rummikub.bots.playout import _step as tiles_step
from rummikub.bots.playout import rollout, win_chances
from rummikub.bots.search import SearchParams, candidates
from rummikub.bots.strategic import StrategyParams, policy_play
from rummikub.core import (
    JOKER,
    Draw,
    Pass,
    Rack,
    RoundState,
    Rules,
    RulesError,
    Table,
    Tile,
    apply,
    observe,
    parse_tiles,
    preset,
    rack_value,
)
from rummikub.core.game import Match, deal
from rummikub.solver.counts import counts_supported

NO_JOKERS = Rules.from_dict({"preset": "standard", "jokers": 0})
RULES = {"standard": preset("standard"), "nojokers": NO_JOKERS, "tournament": preset("tournament")}


def _dealt(rules: Rules, players: int, seed: int) -> RoundState:
    racks, pool = deal(random.Random(seed), rules, players)
    return RoundState(rules, racks, Table(()), pool, (False,) * players, 0, 0, 0)


def _assert_same(state: RoundState, g: GridRound) -> None:
    """``g`` holds exactly ``state`` (as counts)."""
    assert g.ended == (state.end is not None)
    assert g.winner == (None if state.end is None else state.end.winner)
    for p in range(state.players):
        assert g.rack(p) == state.racks[p]
        assert g.sizes[p] == len(state.racks[p])
    assert g.values() == [rack_value(r, state.rules) for r in state.racks]
    table = [Tile(c, i + 1) for c, row in enumerate(g.table) for i, k in enumerate(row)
             for _ in range(k)] + [JOKER] * g.table_jokers  # fmt: skip
    assert Counter(table) == Counter(state.table.tiles())
    assert g.table_value == sum(t.number for t in state.table.tiles() if not t.is_joker)
    assert g.pool[g.drawn :] == state.pool
    assert (g.opened, g.current, g.passes, g.turn) == (
        list(state.opened), state.current, state.passes, state.turn
    )  # fmt: skip


@settings(max_examples=12, deadline=None)
@given(
    rules=st.sampled_from(sorted(RULES)),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
)
def test_every_move_of_a_whole_round_is_the_same(rules: str, players: int, seed: int) -> None:
    state = _dealt(RULES[rules], players, seed)
    g = GridRound.of(state)
    _assert_same(state, g)
    while state.end is None and state.turn < 300:
        state = tiles_step(state)
        g.step()
        _assert_same(state, g)


def test_a_round_played_to_the_end_by_both_ends_alike() -> None:
    # seeded deals whose rounds end both ways: a player goes out, and the pool runs out
    reasons = set()
    for seed in range(6):
        state = rollout(_dealt(NO_JOKERS, 2, seed), 400)
        g = GridRound.of(_dealt(NO_JOKERS, 2, seed)).rollout(400)
        assert state.end is not None
        _assert_same(state, g)
        reasons.add(state.end.reason)
    assert reasons == {"rummikub"}


def test_an_exhausted_pool_ends_the_round_alike() -> None:
    # nothing can be placed from these racks and the pool is empty: both pass, the round ends
    # and the lower rack wins
    racks = (Rack(parse_tiles("R1 K5")), Rack(parse_tiles("B9 O12")))
    state = RoundState(NO_JOKERS, racks, Table(()), (), (True, True), 0, 0, 5)
    s = rollout(state, 10)
    g = GridRound.of(state).rollout(10)
    assert s.end is not None and s.end.reason == "exhausted" and s.end.winner == 0
    _assert_same(s, g)


def test_a_holding_seat_draws_until_his_whole_rack_can_go_down() -> None:
    pool = parse_tiles("O13 R4 K1")
    other = Rack(parse_tiles("B1 B5 B9 K11"))
    # R1 R2 R3 could go down, B9 not: the holder draws (the others play as before)
    state = RoundState(NO_JOKERS, (Rack(parse_tiles("R1 R2 R3 B9")), other), Table(()), pool,
                       (True, True), 0, 0, 5)  # fmt: skip
    g = GridRound.of(state)
    g.step(hold=0)
    assert g.rack(0) == Rack(parse_tiles("R1 R2 R3 B9 O13")) and g.table.sum() == 0
    assert g.current == 1 and g.drawn == 1
    g = GridRound.of(state)
    g.step(hold=1)  # another seat holds: this one places what he can
    assert g.rack(0) == Rack(parse_tiles("B9")) and g.table.sum() == 3
    # his whole rack goes down at once: he goes out
    state = dataclasses.replace(state, racks=(Rack(parse_tiles("R1 R2 R3 R4")), other))
    g = GridRound.of(state)
    g.step(hold=0)
    assert g.ended and g.winner == 0 and g.scores() == (26, -26)
    # the pool is empty: holding ends, he places what he can
    state = RoundState(NO_JOKERS, (Rack(parse_tiles("R1 R2 R3 B9")), other), Table(()), (),
                       (True, True), 0, 0, 5)  # fmt: skip
    g = GridRound.of(state)
    g.step(hold=0)
    assert g.rack(0) == Rack(parse_tiles("B9")) and g.table.sum() == 3


@pytest.mark.parametrize("rules", ["standard", "nojokers"])
def test_the_whole_rack_fits_exactly_when_the_biggest_play_places_it(rules: str) -> None:
    # the holder's test (table and rack laid out together) against the biggest play, along
    # rounds where one seat holds (racks of 30 tiles and more) and the others play greedily
    checked = big = 0
    for seed in (3, 8):
        g = GridRound.of(_dealt(RULES[rules], 2, seed))
        while not g.ended and g.turn < 200:
            me = g.current
            if g.opened[me]:
                got = g._best(me, g.jokers[me])
                whole = got is not None and got[1] + int(got[0].sum()) == g.sizes[me]
                assert g._whole_rack_fits(me) == whole, (seed, g.turn)
                checked += 1
                big += g.sizes[me] >= 30
            g.step(keep_jokers=True, hold=0)
    assert checked > 40 and big > 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 12))
def test_a_legal_action_then_a_playout_is_the_same(seed: int, plies: int) -> None:
    state = rollout(_dealt(preset("standard"), 2, seed), plies)
    assume(state.end is None)  # a round over within a few moves leaves nothing to act on
    obs = observe(state, state.current)
    best, rack = policy_play(obs, StrategyParams(reserve=0))
    actions = [Draw()] if best is None else candidates(obs, best, rack, SearchParams())
    base = GridRound.of(state)
    for action in actions:
        after = apply(state, action)
        g = base.copy().apply(action)
        _assert_same(after, g)
        _assert_same(rollout(after, 5), g.rollout(5))
    _assert_same(state, base)  # the copies left the original alone


def _strategic_step(state: RoundState) -> RoundState:
    """``strategic``'s move without a reserve (its joker policy), on tiles."""
    best, _ = policy_play(observe(state, state.current), StrategyParams(reserve=0))
    if best is not None:
        return apply(state, best)
    return apply(state, Draw() if state.pool else Pass())


def test_keeping_the_jokers_on_counts_makes_strategics_moves() -> None:
    # four players' rounds of the standard game: the playout that keeps its jokers lays the
    # tiles ``strategic`` (no reserve) lays, move by move, and it does hold jokers back where
    # greedy's playout would lay them
    held = 0
    for seed in (3, 11, 25, 40):
        state = _dealt(preset("standard"), 4, seed)
        g = GridRound.of(state)
        while state.end is None and state.turn < 300:
            greedy = GridRound.of(state)
            greedy.step()
            state = _strategic_step(state)
            g.step(keep_jokers=True)
            _assert_same(state, g)
            held += greedy.table_jokers > g.table_jokers
    assert held > 0


def test_the_learned_value_is_the_same_on_counts_and_on_tiles() -> None:
    state = _dealt(NO_JOKERS, 3, 4)
    for plies in (0, 3, 9, 40):
        on_tiles = rollout(state, plies)
        g = GridRound.of(state).rollout(plies)
        assert list(grid_shares(g)) == pytest.approx(learned_shares(on_tiles), abs=1e-12)


def test_rules_that_lock_melds_or_open_with_the_table_keep_the_tile_playouts() -> None:
    assert counts_supported(preset("standard"))
    assert counts_supported(NO_JOKERS)
    assert not counts_supported(preset("classic-strict"))  # the strict joker rule locks melds
    assert not counts_supported(Rules.from_dict({"preset": "standard", "open_then_extend": True}))
    # and there the ranking and the win chances still work, on tiles and melds
    rules = preset("classic-strict")
    state = rollout(_dealt(rules, 2, 5), 14)
    obs = observe(state, state.current)
    assert sum(win_chances(obs, samples=2, seed=1)) == pytest.approx(1.0)
    cands = candidate_moves(obs)
    assert len(cands) > 1
    ranked = rank_moves(obs, cands, samples=2, seed=1)
    assert {id(a) for a, _ in ranked} == {id(c) for c in cands}
    assert all(ev.samples == 2 for _, ev in ranked)


@pytest.mark.parametrize("rules", ["standard", "nojokers"])
def test_without_the_compiled_call_the_counts_are_the_same(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the Python path (no Numba, or a problem too large for the compiled encoding) answers
    # as the compiled one, move by move
    import rummikub.solver.counts as counts

    states = []
    g = GridRound.of(_dealt(RULES[rules], 3, 21))
    while not g.ended and g.turn < 120:
        states.append(g.copy())
        g.step()
    compiled = [s.copy().rollout(1) for s in states]
    monkeypatch.setattr(counts, "available", lambda: False)
    in_python = [s.copy().rollout(1) for s in states]
    for a, b in zip(compiled, in_python, strict=True):
        assert [a.rack(p) for p in range(3)] == [b.rack(p) for p in range(3)]
        assert (a.table == b.table).all() and a.table_jokers == b.table_jokers
        assert (a.sizes, a.opened, a.current, a.ended) == (b.sizes, b.opened, b.current, b.ended)
    assert any(not s.opened[s.current] for s in states)  # openings were among the moves
    assert any(s.opened[s.current] for s in states)


@pytest.mark.parametrize("rules", ["standard", "nojokers"])
def test_a_greedy_round_on_counts_is_the_round_on_tiles(rules: str) -> None:
    for seed in (3, 4):
        played = greedy_round(RULES[rules], 2, seed)
        final = rollout(Match(RULES[rules], ["a", "b"], seed).state, 2000)
        assert final.end is not None
        assert (played.winner, played.reason, played.scores, played.turns) == (
            final.end.winner, final.end.reason, final.end.scores, final.turn
        )  # fmt: skip
        assert sum(played.scores) == 0  # zero-sum scoring


def test_a_greedy_round_on_counts_refuses_rules_that_lock_melds() -> None:
    with pytest.raises(RulesError, match="lock no meld"):
        greedy_round(preset("classic-strict"), 2, 1)
