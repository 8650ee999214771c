"""Property-based tests over random games: tile conservation, valid tables, zero-sum
scoring, record round-trips, and rejected plays that change nothing."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.core import (
    IllegalPlayError,
    Match,
    Play,
    RoundState,
    Rules,
    Table,
    apply,
    check_play,
    load_match,
    load_record,
    match_record,
    preset,
    rack_value,
    verify,
)

from .strategies import play_random_match, ref_readings

GAMES = settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

RULE_SETS: dict[str, tuple[Rules, tuple[int, ...]]] = {
    "standard": (preset("standard"), (2, 3, 4)),
    "classic-strict": (preset("classic-strict"), (2, 4)),
    "tournament": (preset("tournament").replace(match={"rounds": 2, "target": None}), (3,)),
    "xp": (preset("xp"), (5, 6)),
    "open-then-extend": (preset("casual").replace(open_then_extend=True), (2, 3)),
    "penalty-points": (
        preset("standard").replace(scoring="penalty-points", opening_value=15),
        (2, 3),
    ),
    "small": (
        preset("standard").replace(
            numbers=7, copies=1, jokers=3, rack_size=6, opening_value=10, joker_rule="strict"
        ),
        (2, 3),
    ),
}


class Checker:
    """Checks every invariant after every turn of a random match."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.full = Counter(rules.all_tiles())
        self.turns = 0
        self.rejected = 0
        self.plays = 0

    def tiles(self, state: RoundState) -> Counter[object]:
        everything: Counter[object] = Counter(state.pool)
        everything.update(state.table.tiles())
        for r in state.racks:
            everything.update(r.tiles)
        return everything

    def on_turn(self, before: RoundState, after: RoundState, action: object) -> None:
        self.turns += 1
        self.plays += isinstance(action, Play) and after.table != before.table
        # the same tiles, always: 106 (160 for the large set)
        assert after.tile_total() == self.rules.tile_count
        assert self.tiles(after) == self.full
        # every meld on the table is valid, by the rule book's own reading
        for meld in after.table:
            assert ref_readings(meld.tiles, self.rules), str(meld)
        # the stored table is canonical notation and round-trips
        assert Table.parse(str(after.table)) == after.table
        # apply is pure and deterministic
        if isinstance(action, Play) and check_play(before, action) is not None:
            # penalty mode: the attempt is undone, the player only draws penalty tiles
            assert self.rules.invalid_play == "penalty"
            assert after.table == before.table
            drawn = before.pool[: len(before.pool) - len(after.pool)]
            assert len(drawn) == min(self.rules.invalid_penalty, len(before.pool))
            assert after.racks[before.current] == before.rack.add(drawn)
            assert after.current == (before.current + 1) % before.players
        else:
            assert apply(before, action) == after  # type: ignore[arg-type]
        # rules 2 and 3 of a play
        if isinstance(action, Play) and after.table != before.table:
            assert Counter(before.table.tiles()) <= Counter(after.table.tiles())
            assert len(after.table.tiles()) > len(before.table.tiles())
        if after.end is not None:
            scores = after.end.scores
            values = [rack_value(r, self.rules) for r in after.end.racks]
            if after.end.reason == "rummikub":
                assert values[after.end.winner or 0] == 0
            if self.rules.scoring == "zero-sum":
                assert sum(scores) == 0
            else:
                assert list(scores) == values

    def on_reject(self, before: RoundState, play: Play, err: IllegalPlayError) -> None:
        self.rejected += 1
        assert err.reason
        assert str(err)
        with pytest.raises(IllegalPlayError):
            apply(before, play)


@pytest.mark.parametrize("name", list(RULE_SETS))
@GAMES
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10))
def test_random_games_keep_every_invariant(name: str, seed: int, pick: int) -> None:
    rules, counts = RULE_SETS[name]
    players = counts[pick % len(counts)]
    match = Match(rules, [f"p{i}" for i in range(players)], seed=seed)
    checker = Checker(rules)
    play_random_match(match, random.Random(seed), checker.on_turn, checker.on_reject)
    assert checker.turns > 0
    # totals are the sum of the rounds, and sum to zero under zero-sum scoring
    ends = [r.end for r in match.rounds if r.end is not None]
    assert list(match.totals) == [sum(col) for col in zip(*(e.scores for e in ends), strict=True)]
    if rules.scoring == "zero-sum":
        assert sum(match.totals) == 0
    # the record round-trips through JSON and replays to the same states
    record = json.loads(json.dumps(match_record(match)))
    rec = load_record(record)
    assert verify(rec) == sum(len(r.turns) for r in match.rounds)
    resumed = load_match(rec)
    assert resumed.state == match.state
    assert match_record(resumed) == record


def test_random_games_exercise_every_kind_of_turn() -> None:
    """The generator is not vacuous: over a few games it plays, rejects, draws, times out,
    passes and ends rounds both ways."""
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    rejected = 0
    for seed in range(8):
        # short racks and a low opening value so that rounds also end by going out
        rules = preset("standard").replace(rack_size=6 + seed % 3, opening_value=10)
        match = Match(rules, ["a", "b"], seed=seed)
        checker = Checker(rules)
        play_random_match(match, random.Random(seed), checker.on_turn, checker.on_reject)
        rejected += checker.rejected
        for rd in match.rounds:
            kinds.update(t.action for t in rd.turns)
            if rd.end is not None:
                reasons[rd.end.reason] += 1
    assert {"play", "draw", "timeout", "pass"} <= set(kinds)
    assert rejected > 0
    assert reasons["rummikub"] > 0 and reasons["exhausted"] > 0
