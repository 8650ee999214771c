"""Scoring: zero-sum rounds, the exhausted pool, penalty points, ties and the score table."""

from __future__ import annotations

from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import (
    Match,
    Pass,
    Rack,
    RecordError,
    apply,
    load_match,
    load_record,
    preset,
    rack_value,
    score_round,
    verify,
)
from rummikub.core.scoring import match_over, match_winners

from .games import score_table_record
from .strategies import STANDARD, play, position, tiles_of


def racks(*texts: str) -> list[Rack]:
    return [Rack.parse(t) for t in texts]


def test_swedish_worked_example() -> None:
    # S1 goes out; S2 holds 2 points, S3 6, S4 5: S1 +13, S2 -2, S3 -6, S4 -5
    assert score_round(STANDARD, racks("", "K2", "R1 B5", "O5"), "rummikub", 0) == (
        13,
        -2,
        -6,
        -5,
    )


def test_swedish_worked_example_played_out() -> None:
    state = position("R1 R2 R3", ["R4", "K2", "R1 B5", "O2 O3"], opened=[True, False, False, False])
    end = apply(state, play("R4 -> R1 R2 R3 R4")).end
    assert end is not None
    assert (end.reason, end.winner, end.scores) == ("rummikub", 0, (13, -2, -6, -5))


def test_joker_on_a_rack_costs_30() -> None:
    assert rack_value(Rack.parse("J R5"), STANDARD) == 35
    assert score_round(STANDARD, racks("", "J", "K1"), "rummikub", 0) == (31, -30, -1)
    cheap = STANDARD.replace(joker_penalty=15)
    assert score_round(cheap, racks("", "J", "K1"), "rummikub", 0) == (16, -15, -1)


def test_exhausted_pool_scoring() -> None:
    # the lowest rack wins; each loser scores minus (his rack - the winner's rack)
    scores = score_round(STANDARD, racks("K5 K6", "R2", "J", "B3 B4"), "exhausted", 1)
    assert scores == (-9, 9 + 28 + 5, -28, -5)
    assert sum(scores) == 0


def test_exhausted_pool_ends_after_everyone_passed_once_in_a_row() -> None:
    state = position("R1 R2 R3", ["K5 K6", "R2", "B3 B4"], opened=[True, True, True], current=0)
    s1 = apply(state, Pass())
    s2 = apply(s1, Pass())
    assert s2.end is None and s2.passes == 2
    s3 = apply(s2, Pass())
    assert s3.end is not None
    assert (s3.end.reason, s3.end.winner, s3.end.scores) == ("exhausted", 1, (-9, 14, -5))
    # a play in between starts the count again
    played = apply(
        position("R1 R2 R3", ["K5 K6", "R4 R5", "B3 B4"], passes=2, current=1),
        play("R4 -> R1 R2 R3 R4"),
    )
    assert played.passes == 0 and played.end is None
    assert apply(apply(played, Pass()), Pass()).end is None


def test_exhausted_tie_goes_to_who_would_have_moved_soonest() -> None:
    # players 0 and 2 both hold 5 points; player 2 passes last, so player 0 moves next
    state = position("", ["K5", "K9", "B5"], current=0)
    end = apply(apply(apply(state, Pass()), Pass()), Pass()).end
    assert end is not None and end.winner == 0
    assert end.scores == (4, -4, 0)
    # starting from player 1 the round ends after player 0; player 1 is next, then 2
    state = position("", ["K5", "K9", "B5"], current=1)
    end = apply(apply(apply(state, Pass()), Pass()), Pass()).end
    assert end is not None and end.winner == 2
    assert end.scores == (0, -4, 4)


def test_penalty_points_option() -> None:
    rules = STANDARD.replace(scoring="penalty-points")
    assert score_round(rules, racks("", "K2", "R1 B5", "J"), "rummikub", 0) == (0, 2, 6, 30)
    assert score_round(rules, racks("K5", "K2", "R1 B5"), "exhausted", 1) == (5, 2, 6)
    assert match_winners(rules, [12, 3, 3, 40]) == [1, 2]
    assert match_winners(STANDARD, [12, 3, 3, 40]) == [3]


def test_abandoned_round_scores_nothing() -> None:
    assert score_round(STANDARD, racks("K5", "K2"), "abandoned", None) == (0, 0)


def test_match_ends_after_rounds_or_target() -> None:
    rounds = STANDARD.replace(match={"rounds": 3, "target": None})
    assert not match_over(rounds, 2, [100, -100])
    assert match_over(rounds, 3, [0, 0])
    target = STANDARD.replace(match={"rounds": None, "target": 100})
    assert not match_over(target, 50, [99, -99])
    assert match_over(target, 1, [100, -100])
    both = STANDARD.replace(match={"rounds": 5, "target": 100})
    assert match_over(both, 2, [150, -150]) and match_over(both, 5, [1, -1])


def test_score_table_of_the_jumbo_rules() -> None:
    rec = load_record(score_table_record())
    assert verify(rec) == 9
    match = load_match(rec)
    table = [r.end.scores for r in match.rounds if r.end is not None]
    assert table == [(24, -5, -16, -3), (-6, -11, 22, -5), (-32, -13, -2, 47)]
    running = list(accumulate(table, lambda a, b: tuple(x + y for x, y in zip(a, b, strict=True))))
    assert running[-1] == (-14, -29, 4, 39) == match.totals
    assert all(sum(row) == 0 for row in table)
    assert match.over and match.winners == [3]
    # the start moved one seat on each round
    assert [r.first for r in match.rounds] == [0, 1, 2]


@settings(deadline=None)
@given(
    st.lists(st.lists(tiles_of(STANDARD), max_size=20), min_size=2, max_size=4),
    st.integers(0, 3),
    st.sampled_from(["rummikub", "exhausted"]),
)
def test_zero_sum_scoring(rack_tiles: list[list[object]], winner: int, reason: str) -> None:
    rs = [Rack(tuple(t)) for t in rack_tiles]  # type: ignore[arg-type]
    winner %= len(rs)
    if reason == "rummikub":
        rs[winner] = Rack()
    scores = score_round(STANDARD, rs, reason, winner)  # type: ignore[arg-type]
    assert sum(scores) == 0
    values = [rack_value(r, STANDARD) for r in rs]
    base = values[winner] if reason == "exhausted" else 0
    for p, s in enumerate(scores):
        if p != winner:
            assert s == -(values[p] - base)


def test_matches_over_several_rounds_in_play() -> None:
    rules = preset("casual").replace(match={"rounds": 3, "target": None})
    match = Match(rules, ["a", "b", "c"], seed=7)
    firsts = []
    while True:
        firsts.append(match.state.current)
        match.abandon()
        if match.over:
            break
        match.next_round()
    assert len(match.rounds) == 3
    assert firsts == [(firsts[0] + i) % 3 for i in range(3)]


def test_target_score_ends_the_match() -> None:
    rec = score_table_record()
    rec["rules"]["match"] = {"rounds": None, "target": 20}
    with pytest.raises(RecordError, match="match was over after 1 round"):
        verify(load_record(rec))
    rec["rules"]["match"] = {"rounds": None, "target": 40}
    rec["rules"]["redraw_first_player"] = False  # (standard draws again every round)
    match = load_match(load_record(rec))
    assert not match.over  # D has 39: one more round is due
    match.next_round()
    assert match.state.current == 3  # the start moved on to D


def test_score_table_of_the_jumbo_manual() -> None:
    from rummikub.core.scoring import score_table

    rounds = [(24, -5, -16, -3), (-6, -11, 22, -5), (-32, -13, -2, 47)]
    table = score_table(rounds)
    assert [row[0] for row in table] == rounds
    assert table[-1][1] == (-14, -29, 4, 39)
    assert table[0][1] == (24, -5, -16, -3)


def test_match_with_only_a_target_plays_until_the_target() -> None:
    from rummikub.core import Rules

    rules = Rules.from_dict({"match": {"target": 100}})
    assert rules.match.rounds is None
    assert rules.match.target == 100
    assert Rules.from_dict({"match": {"rounds": 3}}).match.target is None
