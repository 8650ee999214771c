"""A readable account of an Xpress record: every throw and placement, every round's end."""

from __future__ import annotations

from collections.abc import Iterator

from .actions import EndTurn, Place, Throw
from .dice import DieFace
from .record import XpressRecord, replay_xpress

__all__ = ["describe_xpress", "format_dice"]


def format_dice(dice: tuple[DieFace, ...]) -> str:
    """``K5 R7 J`` (faces in die order); ``-`` for none."""
    return " ".join(str(d.face) for d in dice) or "-"


def describe_xpress(rec: XpressRecord) -> Iterator[str]:
    """Lines describing the record, re-checked against the rules as it goes (a rule breach
    raises :class:`~rummikub.core.errors.RecordError`)."""
    names = [p.name for p in rec.players]
    current = -1
    for step in replay_xpress(rec):
        if step.round != current:
            current = step.round
            rd = rec.rounds[current]
            yield f"Round {current + 1}: {names[rd.first]} starts"
            for i, hand in enumerate(rd.hands):
                yield f"  {names[i]} rolls {format_dice(hand)}"
        who = names[step.before.current]
        action = step.action
        if isinstance(action, Throw):
            faces = " ".join(str(f) for f in action.faces or ())
            yield f"  {step.turn + 1:>3}. {who} throws {len(action.dice)} dice: {faces}"
        elif isinstance(action, Place):
            placed = [d for d in step.before.hand if d.die in set(action.dice)]
            yield f"  {step.turn + 1:>3}. {who} places {format_dice(tuple(placed))}"
            yield f"       table: {step.after.table}"
        elif isinstance(action, EndTurn) and step.before.placed == 0:
            yield f"  {step.turn + 1:>3}. {who} can place nothing"
        end = step.after.end
        if end is not None:
            label = {"out": "all dice placed", "blocked": "blocked", "abandoned": "abandoned"}
            winner = names[end.winner] if end.winner is not None else "nobody"
            yield f"  Round over ({label[end.reason]}); winner: {winner}"
            yield "  Dice left: " + "; ".join(
                f"{n} {format_dice(h)} = {t}"
                for n, h, t in zip(names, end.hands, end.totals, strict=True)
            )
            yield "  Scores: " + ", ".join(
                f"{n} {s}" for n, s in zip(names, end.scores, strict=True)
            )
    if rec.totals is not None:
        yield "Totals: " + ", ".join(f"{n} {t}" for n, t in zip(names, rec.totals, strict=True))
