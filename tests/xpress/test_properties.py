"""Property tests over seeded games with random and greedy players: dice are conserved, every
table is valid, faces belong to their dice, and scores are as the rules say."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core.melds import is_valid_meld
from rummikub.xpress import (
    RandomBot,
    XpressMatch,
    XpressPlayer,
    XpressRules,
    XpressState,
    get_bot,
    hand_value,
)


def check_invariants(state: XpressState) -> None:
    layout = state.layout
    placed = [d.die for d in state.table_dice]
    in_hands = [d.die for h in state.hands for d in h]
    # conserved: every die is in exactly one place (all 18 come out of the pouch)
    assert sorted(placed + in_hands) == list(range(len(layout)))
    # each die shows one of its own faces
    for d in (*state.table_dice, *(d for h in state.hands for d in h)):
        assert d.face in layout.faces_of(d.die)
    # the table shows exactly the faces of the dice on it, in valid sets
    assert Counter(state.table.tiles()) == Counter(d.face for d in state.table_dice)
    assert all(is_valid_meld(m) for m in state.table.melds)
    assert all(0 <= i <= state.rules.block_throws for i in state.idle)


def check_scores(state: XpressState) -> None:
    end = state.end
    assert end is not None
    totals = tuple(hand_value(h, state.rules) for h in state.hands)
    assert end.totals == totals
    if end.reason == "out":
        assert end.winner is not None and not state.hands[end.winner]
        assert end.scores[end.winner] == totals[1 - end.winner]
        assert end.scores[1 - end.winner] == 0
    else:
        assert end.reason == "blocked"
        assert all(i >= state.rules.block_throws for i in state.idle)
        if totals[0] == totals[1]:
            assert end.winner is None and end.scores == (0, 0)
        else:
            low = 0 if totals[0] < totals[1] else 1
            assert end.winner == low
            assert end.scores[low] == abs(totals[0] - totals[1])
            assert end.scores[1 - low] == 0


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9), opponent=st.sampled_from(["random", "greedy"]))
def test_random_games_keep_every_rule(seed: int, opponent: str) -> None:
    rules = XpressRules(rounds=2)
    bots = [RandomBot(seed), get_bot(opponent, seed + 1)]
    players = [XpressPlayer("r", "bot", "random"), XpressPlayer("o", "bot", opponent)]
    match = XpressMatch(players, seed, rules=rules)
    totals = [0, 0]
    while True:
        check_invariants(match.state)
        actions = 0
        while match.state.end is None:
            player = match.state.current
            action = bots[player].act(match.observation(player))
            match.act(action)
            check_invariants(match.state)
            actions += 1
            assert actions < 5000
        check_scores(match.state)
        assert match.state.end is not None
        totals = [a + b for a, b in zip(totals, match.state.end.scores, strict=True)]
        assert list(match.totals) == totals
        if match.over:
            break
        match.next_round()
    assert len(match.rounds) == 2
    assert match.rounds[0].first != match.rounds[1].first
