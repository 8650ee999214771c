"""Judging an Xpress throw: the dice kept against the best choice found, valued by the points
the placement after the throw is expected to place."""

from __future__ import annotations

from dataclasses import replace

from rummikub.analysis.xpress_throws import judge_throw
from rummikub.core import parse_tiles
from rummikub.xpress import XpressRules, XpressState, default_layout
from rummikub.xpress.dice import DieFace


def hand_of(faces: str, taken: list[int] | None = None) -> tuple[DieFace, ...]:
    """Dice showing ``faces`` (each a die that has that face and is not taken yet)."""
    layout = default_layout()
    used = list(taken or [])
    out = []
    for face in parse_tiles(faces):
        die = next(d for d in range(len(layout)) if d not in used and face in layout.faces_of(d))
        used.append(die)
        out.append(DieFace(die, face))
    return tuple(out)


def position(mine: str) -> XpressState:
    """Player 0 to throw (not his first turn) holding ``mine``; the other player holds as many
    dice, each showing its first face."""
    layout = default_layout()
    hand = hand_of(mine)
    free = [d for d in range(len(layout)) if d not in {x.die for x in hand}]
    other = tuple(DieFace(d, layout.faces_of(d)[0]) for d in free[: len(hand)])
    rules = XpressRules(dice_per_player=len(hand))
    state = XpressState.start(rules, layout, [hand, other], 0)
    return replace(state, phase="throw", started=(True, True))


def test_throwing_away_a_set_in_the_making_loses_points() -> None:
    state = position("R10 R11 R12 K1 B5")
    die = {str(d.face): d.die for d in state.hand}
    # keeping the run R10 R11 R12 (throw K1 and B5) against throwing the run away
    keep_run = judge_throw(state, (die["K1"], die["B5"]), seed="t", time_limit=None)
    run = (die["R10"], die["R11"], die["R12"])
    throw_run = judge_throw(state, run, seed="t", time_limit=None)
    assert keep_run is not None and throw_run is not None
    assert sorted(keep_run.kept) == ["R10", "R11", "R12"] and keep_run.lost == 0
    assert keep_run.expected >= 33  # the run is placed whatever the throw
    assert sorted(throw_run.kept) == ["B5", "K1"]
    assert {"R10", "R11", "R12"} <= set(throw_run.best_kept)
    assert throw_run.lost >= 20 and throw_run.best_expected > throw_run.expected
    # the same record is always judged the same way
    assert judge_throw(state, run, seed="t", time_limit=None) == throw_run


def test_one_die_in_hand_is_no_choice() -> None:
    state = position("R10 K1")
    one = replace(state, hands=(state.hands[0][:1], state.hands[1]))
    assert judge_throw(one, (one.hand[0].die,), seed="t", time_limit=None) is None
