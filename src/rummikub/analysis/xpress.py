"""Judging the turns of Xpress: the dice a player placed in a turn against the placement of the
most points his hand allowed right after his throw (both hands lie open: nothing is hidden)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rummikub.xpress import Place, XpressRecord, XpressState, best_placement, replay_xpress
from rummikub.xpress.dice import face_value

from .model import TurnAnalysis
from .verdicts import verdict

__all__ = ["judge_xpress_turn", "xpress_turns"]


def judge_xpress_turn(
    position: XpressState, placed: list[Place], *, round: int, turn: int, ms: int | None = None
) -> TurnAnalysis:
    """The analysis of a turn whose placements ``placed`` were made from ``position`` (the
    state after the throw, before any placement)."""
    rules = position.rules
    hand = position.hand
    best = best_placement(position.table, [d.face for d in hand], new_set=rules.freed_joker_new_set)
    dice = {d for p in placed for d in p.dice}
    faces = [d.face for d in hand if d.die in dice]
    points = sum(face_value(f, rules.joker_value) for f in faces)
    best_points = sum(face_value(f, rules.joker_value) for f in best.faces)
    could_go_out = bool(hand) and best.count == len(hand)
    lost = max(0, best_points - points)
    return TurnAnalysis(
        round=round,
        turn=turn,
        player=position.current,
        action="place" if faces else "end",
        verdict=verdict(
            could_place=best.count > 0,
            lost=lost,
            missed_out=could_go_out and len(faces) < len(hand),
        ),
        placed=tuple(str(f) for f in faces),
        points=points,
        best_pieces=tuple(str(f) for f in best.faces),
        best_points=best_points,
        lost=lost,
        best=best.table.to_json() if best.count else None,
        could_go_out=could_go_out,
        ms=ms,
    )


def xpress_turns(
    rec: XpressRecord, time_limit: float | None, progress: Callable[[int, int], None] | None
) -> Iterator[TurnAnalysis]:
    total = sum(len(rd.turns) for rd in rec.rounds)
    done = 0
    key: tuple[int, int] | None = None
    position: XpressState | None = None
    placed: list[Place] = []

    def finish() -> TurnAnalysis | None:
        if key is None or position is None:
            return None
        ms = rec.rounds[key[0]].turns[key[1]].ms
        return judge_xpress_turn(position, placed, round=key[0], turn=key[1], ms=ms)

    for step in replay_xpress(rec):
        if (step.round, step.turn) != key:
            judged = finish()
            if judged is not None:
                done += 1
                yield judged
                if progress is not None:
                    progress(done, total)
            key, position, placed = (step.round, step.turn), None, []
        if position is None and step.before.phase == "place":
            position = step.before
        if isinstance(step.action, Place):
            placed.append(step.action)
    judged = finish()
    if judged is not None:
        yield judged
        if progress is not None:
            progress(done + 1, total)
