"""Judging an Xpress throw: the dice kept against the best choice, by the chance to win the
match each leaves (the points the next placement is expected to place stay as facts)."""

from __future__ import annotations

from dataclasses import replace

from rummikub.analysis.xpress_throws import judge_throw
from rummikub.core import parse_tiles
from rummikub.xpress import XpressRules, XpressState, default_layout, observe
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
    rules = XpressRules(dice_per_player=len(hand), rounds=1)
    state = XpressState.start(rules, layout, [hand, other], 0)
    return replace(state, phase="throw", started=(True, True))


def test_throwing_away_a_set_in_the_making_loses_win_chance() -> None:
    state = position("R10 R11 R12 K1 B5")
    obs = observe(state, 0)
    die = {str(d.face): d.die for d in state.hand}
    # keeping the run R10 R11 R12 (throw K1 and B5) against throwing the run away, judged in
    # enough futures that their order is the game's, not the futures' luck (at the review's
    # 16 the two are 0.41 and 0.56 in one seed, 0.57 and 0.52 at 256)
    keep_run = judge_throw(obs, (die["K1"], die["B5"]), samples=256)
    run = (die["R10"], die["R11"], die["R12"])
    throw_run = judge_throw(obs, run, samples=256)
    assert keep_run is not None and throw_run is not None
    assert sorted(keep_run.kept) == ["R10", "R11", "R12"]
    assert {"R10", "R11", "R12"} <= set(keep_run.best_kept)  # the best choice keeps the run
    assert keep_run.expected >= 33  # the run is placed whatever the throw (a fact)
    assert sorted(throw_run.kept) == ["B5", "K1"]
    assert {"R10", "R11", "R12"} <= set(throw_run.best_kept)
    before, after = throw_run.win_chance
    assert 0.0 <= after < before <= 1.0 and throw_run.loss > max(keep_run.loss, 5.0)
    assert throw_run.lost >= 20 and throw_run.best_expected > throw_run.expected
    # the same record is always judged the same way
    assert judge_throw(obs, run, samples=256) == throw_run


def test_one_die_in_hand_is_no_choice() -> None:
    state = position("R10 K1")
    one = replace(state, hands=(state.hands[0][:1], state.hands[1]))
    assert judge_throw(observe(one, 0), (one.hand[0].die,)) is None
