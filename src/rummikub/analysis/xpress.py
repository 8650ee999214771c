"""Judging the turns of Xpress: the dice a player placed in a turn against the placement of the
most points his hand allowed right after his throw, and his choice of dice to throw again
(:mod:`.xpress_throws`); both hands lie open: nothing is hidden. A turn's points lost are those
of its placement and of its throw together, and its verdict is read from their sum."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from itertools import groupby

from rummikub.xpress import (
    Place,
    Throw,
    XpressRecord,
    XpressState,
    XpressStep,
    best_placement,
    replay_xpress,
)
from rummikub.xpress.dice import face_value

from .model import TurnAnalysis
from .verdicts import points_verdict
from .xpress_throws import ThrowJudgement, judge_throw

__all__ = ["judge_xpress_steps", "judge_xpress_turn", "with_throw", "xpress_turns"]


def judge_xpress_turn(
    position: XpressState, placed: list[Place], *, round: int, turn: int, ms: int | None = None
) -> TurnAnalysis:
    """The analysis of a turn whose placements ``placed`` were made from ``position`` (the
    state after the throw, before any placement)."""
    rules = position.rules
    hand = position.hand
    held = [d.face for d in hand]
    best = best_placement(position.table, held, new_set=rules.freed_joker_new_set)
    dice = {d for p in placed for d in p.dice}
    faces = [d.face for d in hand if d.die in dice]
    return TurnAnalysis.of(
        round=round,
        turn=turn,
        player=position.current,
        action="place" if faces else "end",
        held=held,
        placed=faces,
        best_placed=best.faces,
        best_table=best.table,
        value=lambda face: face_value(face, rules.joker_value),
        ms=ms,
    )


def with_throw(turn: TurnAnalysis, judged: ThrowJudgement) -> TurnAnalysis:
    """``turn`` with the judgement of its throw added to its points lost and verdict."""
    lost = turn.lost + judged.lost
    return replace(
        turn,
        throw=judged,
        lost=lost,
        verdict=points_verdict(
            could_place=bool(turn.best_pieces) or judged.best_expected > 0,
            lost=lost,
            missed_out="missed-out" in turn.findings,
        ),
    )


def judge_xpress_steps(
    steps: Sequence[XpressStep], *, ms: int | None = None, time_limit: float | None = 2.0
) -> TurnAnalysis | None:
    """The analysis of one turn from its steps (its throw, placements and end, as a replay
    gives them); ``None`` for steps with no position to place from."""
    position: XpressState | None = None
    placed: list[Place] = []
    thrown: ThrowJudgement | None = None
    for step in steps:
        if isinstance(step.action, Throw) and step.before.phase == "throw":
            thrown = judge_throw(
                step.before, step.action.dice, seed=f"{step.round}/{step.turn}",
                time_limit=time_limit,
            )  # fmt: skip
        if position is None and step.before.phase == "place":
            position = step.before
        if isinstance(step.action, Place):
            placed.append(step.action)
    if position is None:
        return None
    first = steps[0]
    judged = judge_xpress_turn(position, placed, round=first.round, turn=first.turn, ms=ms)
    return judged if thrown is None else with_throw(judged, thrown)


def xpress_turns(
    rec: XpressRecord,
    progress: Callable[[int, int], None] | None,
    depth: str = "default",
    samples: int | None = None,
    seed: int = 0,
    time_limit: float | None = 2.0,
) -> Iterator[TurnAnalysis]:
    """Every turn of ``rec`` judged (by points: ``depth``, ``samples`` and ``seed`` change
    nothing for Xpress yet)."""
    total = sum(len(rd.turns) for rd in rec.rounds)
    done = 0
    for (ri, ti), group in groupby(replay_xpress(rec), key=lambda s: (s.round, s.turn)):
        ms = rec.rounds[ri].turns[ti].ms
        judged = judge_xpress_steps(list(group), ms=ms, time_limit=time_limit)
        if judged is None:
            continue
        done += 1
        yield judged
        if progress is not None:
            progress(done, total)
