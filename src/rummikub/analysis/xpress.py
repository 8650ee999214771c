"""Judging the turns of Xpress: the dice a player placed in a turn against the placement of the
most points his hand allowed right after his throw (both hands lie open: nothing is hidden)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rummikub.xpress import Place, XpressRecord, XpressState, best_placement, replay_xpress
from rummikub.xpress.dice import face_value

from .model import TurnAnalysis

__all__ = ["judge_xpress_turn", "xpress_turns"]


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
