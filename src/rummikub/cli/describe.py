"""Game records as text, one line per step (``rummikub replay`` when the output is not a
terminal): one describer per game, chosen by the record's game."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from rummikub.core import GameRecord, replay
from rummikub.games import AnyRecord
from rummikub.xpress.describe import describe_xpress

__all__ = ["DESCRIBERS", "describe", "describe_record"]


def describe_record(rec: GameRecord) -> Iterator[str]:
    """Human-readable lines: every turn with the table after it, and every round's end."""
    names = [p.name for p in rec.players]
    current_round = -1
    for step in replay(rec):
        if step.round != current_round:
            current_round = step.round
            rd = rec.rounds[step.round]
            yield f"Round {step.round + 1}: {names[rd.first]} starts"
            for i, rack in enumerate(rd.racks):
                yield f"  {names[i]} is dealt {rack}"
        log = step.log
        who = names[log.player]
        head = f"  {step.turn + 1:>3}. {who}"
        if log.action == "play":
            placed = " ".join(map(str, log.play))
            yield f"{head} plays {placed}{' (hint)' if log.hint else ''}"
            yield f"       table: {step.after.table}"
        elif log.action == "draw":
            yield f"{head} draws {log.tile}"
        elif log.action == "pass":
            yield f"{head} passes"
        elif log.action == "timeout":
            drawn = " ".join(map(str, log.penalty)) or "nothing"
            yield f"{head} runs out of time and draws {drawn}"
        else:
            yield (
                f"{head} makes an invalid play and draws "
                f"{' '.join(map(str, log.penalty)) or 'nothing'}"
            )
        end = step.after.end
        if end is not None:
            yield from _describe_end(names, end.reason, end.winner, end.scores)
    for ri, rd in enumerate(rec.rounds):
        if rd.end is not None and rd.end.reason == "abandoned":
            yield f"Round {ri + 1} abandoned"
    if rec.totals is not None:
        yield "Totals: " + ", ".join(f"{n} {t:+d}" for n, t in zip(names, rec.totals, strict=True))


def _describe_end(
    names: list[str], reason: str, winner: int | None, scores: tuple[int, ...]
) -> Iterator[str]:
    label = {
        "rummikub": "Rummikub!",
        "exhausted": "the pool is exhausted",
        "abandoned": "abandoned",
    }.get(reason, reason)
    who = names[winner] if winner is not None else "nobody"
    yield f"  Round over ({label}); winner: {who}"
    yield "  Scores: " + ", ".join(f"{n} {s:+d}" for n, s in zip(names, scores, strict=True))


#: the text describer of each game's records
DESCRIBERS: dict[str, Callable[[Any], Iterator[str]]] = {
    "tiles": describe_record,
    "xpress": describe_xpress,
}


def describe(rec: AnyRecord) -> Iterator[str]:
    """The lines of a record of any game (re-checked against the rules as they are made); a
    game without a describer of its own is told step by step from its JSON actions."""
    own = DESCRIBERS.get(rec.game.name)
    return own(rec.record) if own is not None else _describe_steps(rec)


def _describe_steps(rec: AnyRecord) -> Iterator[str]:
    game = rec.game
    names = [p.name for p in rec.record.players]
    current = -1
    for step in game.replay(rec.record):
        if step.round != current:
            current = step.round
            yield f"Round {current + 1}"
        seat = game.current(step.before)
        seen = game.observation_to_json(game.observe(step.after, seat))
        yield f"  {step.turn + 1:>3}. {names[seat]} moves; sees {json.dumps(seen)}"
        result = game.result(step.after)
        if result is not None:
            yield from _describe_end(names, result.reason, result.winner, result.scores)
