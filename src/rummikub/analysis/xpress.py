"""Judging the turns of Xpress by the chance to win the match they gave away, as tile-game turns
are judged: the turn's two decisions, the dice thrown again (:mod:`.xpress_throws`) and what was
placed once the faces were known, each against the best move of its position by the
evaluation's ranking (:func:`rummikub.xpress.ranking.rank`, the judgement the hint and the
``expert`` use). A turn's loss is the sum of its two decisions' losses and its verdict is read
from it (:func:`.verdicts.verdict`, the tile game's thresholds); both hands lie open: nothing
is hidden. The points facts (placed, the most that could be placed) stay as findings."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from itertools import groupby

from rummikub.xpress import (
    EndTurn,
    Place,
    Throw,
    XpressAction,
    XpressRecord,
    XpressState,
    XpressStep,
    best_placement,
    observe,
    replay_xpress,
)
from rummikub.xpress.dice import face_value
from rummikub.xpress.ranking import SAMPLES, candidate_moves, judge_seed, rank

from .model import Judged, TurnAnalysis
from .verdicts import verdict
from .xpress_throws import ThrowJudgement, judge_throw, turn_loss

__all__ = ["judge_xpress_steps", "judge_xpress_turn", "with_throw", "xpress_turns"]


def _samples(samples: int | None, depth: str) -> int:
    """The sampled futures a decision is given (as :func:`rummikub.bots.evaluation.rank_moves`
    gives an Xpress position: the hint's and the expert's count)."""
    if samples is not None:
        return samples
    return 3 * SAMPLES if depth == "deep" else SAMPLES


def judge_xpress_turn(
    position: XpressState,
    placed: Sequence[Place],
    *,
    round: int,
    turn: int,
    ms: int | None = None,
    scores: tuple[int, ...] = (0, 0),
    samples: int | None = None,
    seed: int = 0,
    depth: str = "default",
    time_limit: float | None = None,
) -> TurnAnalysis:
    """The analysis of a turn whose placements ``placed`` were made from ``position`` (the
    state after the throw, before any placement), the match standing at ``scores`` before
    round ``round``: the turn's placement (all its placements together, then its end) against
    the best of :func:`~rummikub.xpress.ranking.candidate_moves`."""
    rules = position.rules
    hand = position.hand
    player = position.current
    obs = observe(position, player, round=round, scores=scores)
    held = [d.face for d in hand]
    most = best_placement(position.table, held, new_set=rules.freed_joker_new_set)
    dice = {d for p in placed for d in p.dice}
    faces = [d.face for d in hand if d.die in dice]
    played: XpressAction = Place(tuple(sorted(dice)), placed[-1].table) if placed else EndTurn()
    cands = candidate_moves(obs)
    index = next((i for i, c in enumerate(cands) if _same(c, played)), None)
    trusted: tuple[int, ...] = ()
    if index is None:  # the turn's placements together, as recorded (each was checked)
        cands.append(played)
        index = len(cands) - 1
        trusted = (index,)
    forced = not position.can_place  # nothing could be placed: ending the turn was all
    n = _samples(samples, depth)
    if len(cands) == 1:  # no choice to judge: the graph's point needs fewer futures
        n = max(1, n // 4)
    ranked = rank(obs, cands, samples=n, seed=judge_seed(obs) ^ seed, time_limit=time_limit,
                  trusted=trusted)  # fmt: skip
    best, best_j = ranked[0]
    mine_j = next(j for a, j in ranked if a is cands[index])
    before, after, loss = turn_loss(best_j, mine_j)
    best_place = best if isinstance(best, Place) else None
    best_faces = [d.face for d in hand if best_place is not None and d.die in best_place.dice]
    judged = Judged(
        before=before,
        after=after,
        chances=mine_j.match_shares,
        forced=forced,
        best_action="place" if best_place is not None else "end",
        loss_given=loss,
    )
    return TurnAnalysis.of(
        round=round,
        turn=turn,
        player=player,
        action="place" if faces else "end",
        held=held,
        placed=faces,
        best_placed=best_faces,
        best_table=best_place.table if best_place is not None else position.table,
        value=lambda face: face_value(face, rules.joker_value),
        ms=ms,
        most_placed=most.faces,
        judged=judged,
        before=position.table,
    )


def _same(candidate: XpressAction, played: XpressAction) -> bool:
    """Whether a candidate is the move played: the same dice placed (the playouts see the
    table's faces, not their arrangement), or both the end of the turn."""
    if isinstance(candidate, Place) and isinstance(played, Place):
        return sorted(candidate.dice) == sorted(played.dice)
    return isinstance(candidate, EndTurn) and isinstance(played, EndTurn)


def with_throw(turn: TurnAnalysis, judged: ThrowJudgement) -> TurnAnalysis:
    """``turn`` with the judgement of its throw: its loss added to the turn's (the verdict is
    read from the sum), its points lost to the turn's facts."""
    loss = (turn.loss or 0.0) + judged.loss
    forced = turn.verdict == "forced" and judged.choices <= 1
    return replace(
        turn,
        throw=judged,
        lost=turn.lost + judged.lost,
        loss=loss,
        verdict=verdict(forced=forced, loss=loss, missed_out="missed-out" in turn.findings),
    )


def judge_xpress_steps(
    steps: Sequence[XpressStep],
    *,
    ms: int | None = None,
    time_limit: float | None = None,
    scores: tuple[int, ...] = (0, 0),
    samples: int | None = None,
    seed: int = 0,
    depth: str = "default",
) -> TurnAnalysis | None:
    """The analysis of one turn from its steps (its throw, placements and end, as a replay
    gives them), the match standing at ``scores`` before the round; ``None`` for steps with
    no position to place from. ``time_limit`` (seconds) bounds the sampling of the turn."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    position: XpressState | None = None
    placed: list[Place] = []
    thrown: ThrowJudgement | None = None
    first = steps[0] if steps else None
    for step in steps:
        if isinstance(step.action, Throw) and step.before.phase == "throw":
            obs = observe(step.before, step.before.current, round=step.round, scores=scores)
            left = None if deadline is None else max(0.0, (deadline - time.monotonic()) / 2)
            thrown = judge_throw(obs, step.action.dice, seed=seed,
                                 samples=_samples(samples, depth), time_limit=left)  # fmt: skip
        if position is None and step.before.phase == "place":
            position = step.before
        if isinstance(step.action, Place):
            placed.append(step.action)
    if position is None or first is None:
        return None
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    judged = judge_xpress_turn(
        position, placed, round=first.round, turn=first.turn, ms=ms, scores=scores,
        samples=samples, seed=seed, depth=depth, time_limit=left,
    )  # fmt: skip
    return judged if thrown is None else with_throw(judged, thrown)


def xpress_turns(
    rec: XpressRecord,
    progress: Callable[[int, int], None] | None,
    depth: str = "default",
    samples: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
) -> Iterator[TurnAnalysis]:
    """Every turn of ``rec`` judged; ``time_limit`` (seconds a turn) makes the analysis
    depend on the machine's speed: ``None`` for the same answer everywhere."""
    total = sum(len(rd.turns) for rd in rec.rounds)
    done = 0
    totals: list[tuple[int, ...]] = []
    running = (0,) * rec.rules.players
    for rd in rec.rounds:
        totals.append(running)
        if rd.end is not None:
            running = tuple(a + b for a, b in zip(running, rd.end.scores, strict=True))
    for (ri, ti), group in groupby(replay_xpress(rec), key=lambda s: (s.round, s.turn)):
        ms = rec.rounds[ri].turns[ti].ms
        judged = judge_xpress_steps(list(group), ms=ms, time_limit=time_limit,
                                    scores=totals[ri], samples=samples, seed=seed,
                                    depth=depth)  # fmt: skip
        if judged is None:
            continue
        done += 1
        yield judged
        if progress is not None:
            progress(done, total)
