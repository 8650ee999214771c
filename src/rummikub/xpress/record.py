"""The Xpress game record (``rummikub-xpress/1``): write, read, replay and verify.

```json
{"format": "rummikub-xpress/1",
 "rules": {"rounds": 6, "dice_per_player": 9, "block_throws": 3, "joker_value": 10},
 "layout": {"name": "default", "dice": [["R1", "K2", ...], ...]},
 "players": [{"name": "Ann", "kind": "human"}, {"name": "bot", "kind": "bot", "bot": "expert"}],
 "seed": 7,
 "rounds": [
   {"first": 0,
    "hands": [[{"die": 0, "face": "R1"}, ...], [...]],
    "turns": [
      {"player": 0, "places": [{"dice": [0, 4, 6], "table": [["R1", "R2", "R3"]]}], "end": true},
      {"player": 1, "end": true},
      {"player": 0, "throw": {"dice": [2, 5], "faces": ["O2", "J"]}, "places": [], "end": true}
    ],
    "end": {"reason": "out", "winner": 0, "hands": [[], [...]], "totals": [0, 23],
            "scores": [23, 0]}}
 ],
 "totals": [23, 0]}
```

``hands`` per round are the dice each player took from the pouch with the faces of the setup
roll (each player's first throw); a turn without ``throw`` is a player's first turn. Replaying
needs no random generator; :func:`verify_xpress` re-checks every action and every end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rummikub.core.errors import (
    IllegalPlayError,
    NotationError,
    RecordError,
    UsageError,
)
from rummikub.core.framing import Framed, RecordFrame
from rummikub.core.game_base import verify_steps
from rummikub.core.jsonio import field, json_list, whole_number
from rummikub.core.table import Table
from rummikub.core.tiles import parse_tile

from .actions import EndTurn, Place, Throw, XpressAction
from .dice import DieFace, Layout, check_layout
from .game import XpressMatch, XpressPlayer, XpressRound, XpressTurn
from .rules import XpressRules
from .state import XpressEnd, XpressState, apply

__all__ = [
    "FORMAT",
    "XpressRecord",
    "XpressStep",
    "dump_xpress",
    "load_xpress",
    "load_xpress_match",
    "read_xpress",
    "replay_xpress",
    "verify_xpress",
    "write_xpress",
    "xpress_record",
]

FORMAT = "rummikub-xpress/1"


# ----------------------------------------------------------------------------- writing
def _dice_json(dice: tuple[DieFace, ...]) -> list[dict[str, Any]]:
    return [{"die": d.die, "face": str(d.face)} for d in dice]


def _turn_json(t: XpressTurn) -> dict[str, Any]:
    out: dict[str, Any] = {"player": t.player}
    if t.throw is not None:
        out["throw"] = {"dice": list(t.throw.dice), "faces": [str(f) for f in t.throw.faces or ()]}
    out["places"] = [{"dice": list(p.dice), "table": p.table.to_json()} for p in t.places]
    out["end"] = t.ended
    if t.ms is not None:
        out["ms"] = t.ms
    return out


def _end_json(end: XpressEnd) -> dict[str, Any]:
    return {
        "reason": end.reason,
        "winner": end.winner,
        "hands": [_dice_json(h) for h in end.hands],
        "totals": list(end.totals),
        "scores": list(end.scores),
    }


def _round_json(r: XpressRound) -> dict[str, Any]:
    return {
        "first": r.first,
        "hands": [_dice_json(h) for h in r.hands],
        "turns": [_turn_json(t) for t in r.turns],
    }


def xpress_record(match: XpressMatch) -> dict[str, Any]:
    """The record of a match, finished or running."""
    return FRAME.to_json(match)


def dump_xpress(match: XpressMatch, *, indent: int | None = None) -> str:
    return FRAME.dumps(match, indent=indent)


def write_xpress(match: XpressMatch, path: str | Path) -> None:
    """Write the record atomically."""
    FRAME.write(match, path)


# ----------------------------------------------------------------------------- reading
@dataclass(frozen=True, slots=True)
class XpressRecord:
    rules: XpressRules
    layout: Layout
    players: tuple[XpressPlayer, ...]
    seed: int | None
    rounds: tuple[XpressRound, ...]
    totals: tuple[int, ...] | None


def _dice(v: Any, where: str) -> tuple[DieFace, ...]:
    out = []
    for i, d in enumerate(json_list(v, where)):
        if not isinstance(d, dict):
            raise NotationError(f"{where} die {i + 1} must be an object {{die, face}}")
        face = field(d, "face", where)
        if not isinstance(face, str):
            raise NotationError(f"{where} die {i + 1} face must be a string")
        out.append(DieFace(whole_number(field(d, "die", where), f"{where} die"), parse_tile(face)))
    return tuple(out)


def _ints(v: Any, where: str) -> tuple[int, ...]:
    return tuple(whole_number(x, where) for x in json_list(v, where))


def _turn(d: Any, where: str) -> XpressTurn:
    if not isinstance(d, dict):
        raise NotationError(f"{where} must be an object")
    player = whole_number(field(d, "player", where), f"{where} player")
    throw = None
    if d.get("throw") is not None:
        t = d["throw"]
        if not isinstance(t, dict):
            raise NotationError(f"{where} throw must be an object {{dice, faces}}")
        faces = json_list(field(t, "faces", f"{where} throw"), f"{where} throw faces")
        if not all(isinstance(f, str) for f in faces):
            raise NotationError(f"{where} throw faces must be strings")
        throw = Throw(
            _ints(field(t, "dice", f"{where} throw"), f"{where} throw dice"),
            tuple(parse_tile(f) for f in faces),
        )
    places = []
    for k, p in enumerate(json_list(d.get("places", []), f"{where} places")):
        pw = f"{where} place {k + 1}"
        if not isinstance(p, dict):
            raise NotationError(f"{pw} must be an object {{dice, table}}")
        places.append(
            Place(
                _ints(field(p, "dice", pw), f"{pw} dice"),
                Table.from_json(field(p, "table", pw), where=f"{pw} table"),
            )
        )
    ended = d.get("end", False)
    if not isinstance(ended, bool):
        raise NotationError(f"{where} end must be true or false")
    ms = d.get("ms")
    return XpressTurn(
        player, throw, places, ended, whole_number(ms, f"{where} ms") if ms is not None else None
    )


def _end(d: Any, where: str) -> XpressEnd:
    if not isinstance(d, dict):
        raise NotationError(f"{where} must be an object")
    reason = field(d, "reason", where)
    if reason not in ("out", "blocked", "abandoned"):
        raise NotationError(f"{where}: unknown end reason {reason!r} (out, blocked, abandoned)")
    winner = d.get("winner")
    return XpressEnd(
        reason,
        whole_number(winner, f"{where} winner") if winner is not None else None,
        tuple(_dice(h, f"{where} hand") for h in json_list(field(d, "hands", where), where)),
        _ints(field(d, "totals", where), f"{where} totals"),
        _ints(field(d, "scores", where), f"{where} scores"),
    )


def _round(
    rd: dict[str, Any], where: str, header: tuple[XpressRules, Layout], end: XpressEnd | None
) -> XpressRound:
    hands = tuple(
        _dice(h, f"{where} hand {k + 1}")
        for k, h in enumerate(json_list(field(rd, "hands", where), where))
    )
    turns = [
        _turn(t, f"{where} turn {k + 1}")
        for k, t in enumerate(json_list(rd.get("turns", []), f"{where} turns"))
    ]
    return XpressRound(whole_number(field(rd, "first", where), f"{where} first"), hands, turns, end)


def _header(data: dict[str, Any]) -> tuple[XpressRules, Layout]:
    rules = XpressRules.from_dict(field(data, "rules", "record"), stored=True)
    return rules, check_layout(field(data, "layout", "record"))


def _header_json(match: XpressMatch) -> dict[str, Any]:
    return {"rules": match.rules.to_dict(), "layout": match.layout.to_json()}


#: the Xpress record: the shared frame with the rules and dice layout, rounds and ends
FRAME: RecordFrame[tuple[XpressRules, Layout], XpressRound, XpressEnd] = RecordFrame(
    FORMAT,
    "an Xpress record",
    write_header=_header_json,
    write_round=_round_json,
    write_end=_end_json,
    read_header=_header,
    read_round=_round,
    read_end=_end,
)


def _record(f: Framed[tuple[XpressRules, Layout], XpressRound]) -> XpressRecord:
    rules, layout = f.header
    return XpressRecord(rules, layout, f.players, f.seed, f.rounds, f.totals)


def load_xpress(data: Any) -> XpressRecord:
    """Parse a decoded ``rummikub-xpress/1`` record; any problem raises :class:`RecordError`
    naming it."""
    return _record(FRAME.load(data))


def read_xpress(path: str | Path) -> XpressRecord:
    return _record(FRAME.read(path))


# ----------------------------------------------------------------------------- replaying
@dataclass(frozen=True, slots=True)
class XpressStep:
    """One action of a replay with the states around it."""

    round: int
    turn: int
    action: XpressAction
    before: XpressState
    after: XpressState


def _start(rec: XpressRecord, ri: int, rd: XpressRound) -> XpressState:
    if len(rec.players) != rec.rules.players:
        raise RecordError(f"{len(rec.players)} players; Xpress is for {rec.rules.players}")
    if ri > 0 and rd.first != (rec.rounds[0].first + ri) % rec.rules.players:
        raise RecordError(
            f"round starts with player {rd.first + 1}, but the start alternates", round=ri
        )
    try:
        return XpressState.start(rec.rules, rec.layout, rd.hands, rd.first)
    except (IllegalPlayError, UsageError) as exc:
        raise RecordError(f"setup: {exc}", round=ri) from exc


def _turn_actions(t: XpressTurn) -> list[XpressAction]:
    out: list[XpressAction] = []
    if t.throw is not None:
        out.append(t.throw)
    out.extend(t.places)
    if t.ended:
        out.append(EndTurn())
    return out


def replay_xpress(rec: XpressRecord) -> Iterator[XpressStep]:
    """Every action of every round with the states before and after; raises
    :class:`RecordError` naming the first round and turn that break the rules."""
    if len(rec.rounds) > rec.rules.rounds:
        raise RecordError(f"{len(rec.rounds)} rounds recorded; the rules play {rec.rules.rounds}")
    for ri, rd in enumerate(rec.rounds):
        state = _start(rec, ri, rd)
        for ti, turn in enumerate(rd.turns):
            if state.end is not None:
                raise RecordError("turn recorded after the round ended", round=ri, turn=ti)
            if turn.player != state.current:
                raise RecordError(
                    f"player {turn.player + 1} moved, but it was player {state.current + 1}'s turn",
                    round=ri,
                    turn=ti,
                )
            if turn.throw is None and state.phase == "throw":
                raise RecordError(
                    "the turn has no throw (only a first turn uses the setup roll)",
                    round=ri,
                    turn=ti,
                )
            actions = _turn_actions(turn)
            if not actions:
                raise RecordError("empty turn", round=ri, turn=ti)
            for action in actions:
                if state.end is not None:
                    raise RecordError("action recorded after the round ended", round=ri, turn=ti)
                try:
                    after = apply(state, action)
                except IllegalPlayError as exc:
                    raise RecordError(f"{action}: {exc}", round=ri, turn=ti) from exc
                yield XpressStep(ri, ti, action, state, after)
                state = after
            # a running match saved in the middle of a turn (its last turn, in its last
            # round) goes on from there; any other turn ends or wins the round
            running = ri == len(rec.rounds) - 1 and ti == len(rd.turns) - 1 and rd.end is None
            if state.end is None and not turn.ended and not running:
                raise RecordError("the turn neither ends nor wins the round", round=ri, turn=ti)
        if rd.end is not None:
            if state.end is None:
                if rd.end.reason != "abandoned":
                    raise RecordError(
                        f"round recorded as ended ({rd.end.reason}) but the turns do not end it",
                        round=ri,
                    )
            elif state.end != rd.end:
                raise RecordError(
                    f"recorded end ({rd.end.reason}, winner {rd.end.winner}, scores "
                    f"{list(rd.end.scores)}) differs from the replayed end ({state.end.reason}, "
                    f"winner {state.end.winner}, scores {list(state.end.scores)})",
                    round=ri,
                )
        elif ri < len(rec.rounds) - 1:
            raise RecordError("only the last round may be unfinished", round=ri)


def verify_xpress(rec: XpressRecord) -> int:
    """Re-check every action, every round's end and the totals; return the actions checked."""
    return verify_steps(replay_xpress(rec), rec)


def load_xpress_match(rec: XpressRecord) -> XpressMatch:
    """Rebuild a match from a record (to resume it); the record is verified on the way. The
    round's generator is wound forward past the recorded throws, so a resumed game throws the
    same faces an uninterrupted one would have."""
    verify_xpress(rec)
    match = XpressMatch(rec.players, rec.seed or 0, rules=rec.rules, layout=rec.layout, start=False)
    last = {ri: _start(rec, ri, rd) for ri, rd in enumerate(rec.rounds)}
    for step in replay_xpress(rec):
        last[step.round] = step.after
    for ri, rd in enumerate(rec.rounds):
        state = last[ri]
        if state.end is None and rd.end is not None:  # abandoned
            state = replace(state, end=rd.end)
        match.rounds.append(XpressRound(rd.first, rd.hands, list(rd.turns), state.end))
        match.state = state
        if state.end is not None:
            match.totals = tuple(a + b for a, b in zip(match.totals, state.end.scores, strict=True))
    if rec.rounds:
        match.wind_generator()
    else:
        match.start_round()
    return match
