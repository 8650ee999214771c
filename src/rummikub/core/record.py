"""The JSON game record (``rummikub-game/1``): write, read, replay and verify.

A record holds the rules, the players, the seed, and per round the chance events (pool order
after the deal, first player, dealt racks) and every turn. Replaying needs no random generator:
every state follows from the record, and :func:`verify` re-checks each turn against the rules.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .actions import Action, Draw, Pass, Play, Timeout, parse_tile_list
from .errors import IllegalPlayError, NotationError, RecordError
from .framing import RecordFrame
from .game import Match, PlayerInfo, RoundLog, TurnLog
from .game_base import verify_steps
from .jsonio import field, json_list, whole_number
from .rules import Rules
from .scoring import match_over
from .state import RoundEnd, RoundState, apply, penalise
from .table import Rack, Table
from .tiles import parse_tile

__all__ = [
    "FORMAT",
    "GameRecord",
    "ReplayStep",
    "dump_record",
    "load_match",
    "load_record",
    "match_record",
    "read_record",
    "replay",
    "verify",
    "write_record",
]

FORMAT = "rummikub-game/1"


# ----------------------------------------------------------------------------- writing
def _turn_json(t: TurnLog) -> dict[str, Any]:
    out: dict[str, Any] = {"player": t.player, "action": t.action}
    if t.action == "play":
        out["play"] = [str(x) for x in t.play]
        out["table"] = t.table.to_json() if t.table is not None else []
    elif t.action == "draw":
        out["tile"] = str(t.tile)
    elif t.action in ("timeout", "invalid"):
        out["penalty"] = [str(x) for x in t.penalty]
    if t.reason:
        out["reason"] = t.reason
    if t.params:
        out["params"] = dict(t.params)
    if t.hint:
        out["hint"] = True
    if t.ms is not None:
        out["ms"] = t.ms
    return out


def _end_json(end: RoundEnd) -> dict[str, Any]:
    return {
        "reason": end.reason,
        "winner": end.winner,
        "racks": [r.to_json() for r in end.racks],
        "scores": list(end.scores),
    }


def _round_json(r: RoundLog) -> dict[str, Any]:
    return {
        "pool": [str(t) for t in r.pool],
        "first": r.first,
        "racks": [rk.to_json() for rk in r.racks],
        "turns": [_turn_json(t) for t in r.turns],
    }


def match_record(match: Match) -> dict[str, Any]:
    """The game record of a match, finished or running."""
    return FRAME.to_json(match)


def dump_record(match: Match, *, indent: int | None = None) -> str:
    return FRAME.dumps(match, indent=indent)


def write_record(match: Match, path: str | Path) -> None:
    """Write the record atomically (a crash never leaves half a file)."""
    FRAME.write(match, path)


# ----------------------------------------------------------------------------- reading
@dataclass(frozen=True, slots=True)
class GameRecord:
    rules: Rules
    players: tuple[PlayerInfo, ...]
    seed: int | None
    rounds: tuple[RoundLog, ...]
    totals: tuple[int, ...] | None


def _parse_turn(d: Any, where: str, rules: Rules) -> TurnLog:
    if not isinstance(d, dict):
        raise NotationError(f"{where} must be an object")
    action = field(d, "action", where)
    player = whole_number(field(d, "player", where), f"{where} player")
    ms = d.get("ms")
    if ms is not None:
        ms = whole_number(ms, f"{where} ms")
    hint = bool(d.get("hint", False))
    reason = d.get("reason")
    if action == "play":
        tiles = parse_tile_list(field(d, "play", where), where=f"{where} play")
        table = Table.from_json(field(d, "table", where), where=f"{where} table")
        return TurnLog(player, "play", play=tiles, table=table, ms=ms, hint=hint)
    if action == "draw":
        tile = field(d, "tile", where)
        if not isinstance(tile, str):
            raise NotationError(f"{where} tile must be a tile string")
        return TurnLog(player, "draw", tile=parse_tile(tile), ms=ms)
    if action == "pass":
        return TurnLog(player, "pass", ms=ms)
    if action in ("timeout", "invalid"):
        pen = parse_tile_list(d.get("penalty", []), where=f"{where} penalty")
        raw = d.get("params", {})
        if not isinstance(raw, dict) or not all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in raw.values()
        ):
            raise NotationError(f"{where} params must map names to text or whole numbers")
        return TurnLog(
            player, action, penalty=pen, ms=ms, reason=reason if isinstance(reason, str) else None,
            params=tuple(sorted((str(k), v) for k, v in raw.items())),
        )  # fmt: skip
    raise NotationError(f"{where}: unknown action {action!r} (play, draw, pass, timeout, invalid)")


def _parse_end(d: Any, where: str) -> RoundEnd:
    if not isinstance(d, dict):
        raise NotationError(f"{where} must be an object")
    reason = field(d, "reason", where)
    if reason not in ("rummikub", "exhausted", "abandoned"):
        raise NotationError(f"{where}: unknown end reason {reason!r}")
    winner = d.get("winner")
    if winner is not None:
        winner = whole_number(winner, f"{where} winner")
    racks = json_list(field(d, "racks", where), f"{where} racks")
    scores = json_list(field(d, "scores", where), f"{where} scores")
    return RoundEnd(
        reason,
        winner,
        tuple(Rack(parse_tile_list(r, where=f"{where} rack")) for r in racks),
        tuple(whole_number(s, f"{where} score") for s in scores),
    )


def _parse_round(rd: dict[str, Any], where: str, rules: Rules, end: RoundEnd | None) -> RoundLog:
    pool = parse_tile_list(field(rd, "pool", where), where=f"{where} pool")
    first = whole_number(field(rd, "first", where), f"{where} first")
    racks = tuple(
        Rack(parse_tile_list(r, where=f"{where} rack {k + 1}"))
        for k, r in enumerate(json_list(field(rd, "racks", where), f"{where} racks"))
    )
    turns = [
        _parse_turn(t, f"{where} turn {k + 1}", rules)
        for k, t in enumerate(json_list(rd.get("turns", []), f"{where} turns"))
    ]
    return RoundLog(pool, first, racks, turns, end)


def _read_rules(data: dict[str, Any]) -> Rules:
    return Rules.from_dict(field(data, "rules", "record"), stored=True)


#: the tile game's record: the shared frame with its rules, rounds and ends
FRAME: RecordFrame[Rules, RoundLog, RoundEnd] = RecordFrame(
    FORMAT,
    "a game record",
    write_header=lambda match: {"rules": match.rules.to_dict()},
    write_round=_round_json,
    write_end=_end_json,
    read_header=_read_rules,
    read_round=_parse_round,
    read_end=_parse_end,
)


def load_record(data: Any) -> GameRecord:
    """Parse a record (a decoded JSON object); structural problems raise
    :class:`RecordError`, bad notation :class:`NotationError`, bad rules :class:`RulesError`."""
    f = FRAME.load(data)
    return GameRecord(f.header, f.players, f.seed, f.rounds, f.totals)


def read_record(path: str | Path) -> GameRecord:
    f = FRAME.read(path)
    return GameRecord(f.header, f.players, f.seed, f.rounds, f.totals)


# ----------------------------------------------------------------------------- replaying
@dataclass(frozen=True, slots=True)
class ReplayStep:
    round: int
    turn: int  # index within the round
    log: TurnLog
    before: RoundState
    after: RoundState


def _action_of(log: TurnLog) -> Action | None:
    if log.action == "play":
        return Play(log.play, log.table or Table())
    if log.action == "draw":
        return Draw()
    if log.action == "pass":
        return Pass()
    if log.action == "timeout":
        return Timeout()
    return None  # invalid: penalty only


def _start_state(rec: GameRecord, ri: int, rd: RoundLog) -> RoundState:
    rules = rec.rules
    n = len(rec.players)
    if len(rd.racks) != n:
        raise RecordError(f"{len(rd.racks)} racks dealt for {n} players", round=ri)
    for k, r in enumerate(rd.racks):
        if len(r) != rules.rack_size:
            raise RecordError(
                f"rack {k + 1} has {len(r)} tiles, rules deal {rules.rack_size}", round=ri
            )
    dealt = Counter(rd.pool)
    for r in rd.racks:
        dealt.update(r.tiles)
    full = Counter(rules.all_tiles())
    if dealt != full:
        wrong = (dealt - full) + (full - dealt)
        raise RecordError(
            f"the pool and racks are not the full tile set (check "
            f"{' '.join(str(t) for t in sorted(wrong))})",
            round=ri,
        )
    if not 0 <= rd.first < n:
        raise RecordError(f"first player {rd.first} is not a seat", round=ri)
    if ri > 0 and not rules.redraw_first_player:
        expected = (rec.rounds[0].first + ri) % n
        if rd.first != expected:
            raise RecordError(
                f"round starts with player {rd.first + 1}; the start moves one "
                f"seat on each round (expected player {expected + 1})",
                round=ri,
            )
    return RoundState.start(rules, rd.racks, rd.pool, rd.first)


def replay(rec: GameRecord) -> Iterator[ReplayStep]:
    """Every turn of every round with the states before and after; raises
    :class:`RecordError` naming the first turn that does not follow the rules."""
    totals = [0] * len(rec.players)
    for ri, rd in enumerate(rec.rounds):
        if ri > 0 and match_over(rec.rules, ri, totals):
            raise RecordError(
                f"the match was over after {ri} round(s) (totals {totals}); no further round "
                "may follow",
                round=ri,
            )
        state = _start_state(rec, ri, rd)
        for ti, log in enumerate(rd.turns):
            if state.end is not None:
                raise RecordError("turn recorded after the round ended", round=ri, turn=ti)
            if log.player != state.current:
                raise RecordError(
                    f"player {log.player + 1} moved, but it was player {state.current + 1}'s turn",
                    round=ri,
                    turn=ti,
                )
            try:
                after = _replay_turn(state, log, ri, ti)
            except IllegalPlayError as exc:
                raise RecordError(f"{log.action}: {exc}", round=ri, turn=ti) from exc
            yield ReplayStep(ri, ti, log, state, after)
            state = after
        if rd.end is not None:
            n = len(rec.players)
            if len(rd.end.scores) != n or len(rd.end.racks) != n:
                raise RecordError(f"the round's end needs {n} racks and {n} scores", round=ri)
            if state.end is None:
                if rd.end.reason != "abandoned":
                    raise RecordError(
                        f"round recorded as ended ({rd.end.reason}) but the turns do not end it",
                        round=ri,
                    )
                if rd.end.winner is not None or any(rd.end.scores) or rd.end.racks != state.racks:
                    raise RecordError(
                        "an abandoned round has no winner, scores nothing and ends with the "
                        f"racks as played (recorded winner {rd.end.winner}, scores "
                        f"{list(rd.end.scores)})",
                        round=ri,
                    )
            elif (state.end.reason, state.end.winner, state.end.scores) != (
                rd.end.reason,
                rd.end.winner,
                rd.end.scores,
            ) or state.end.racks != rd.end.racks:
                raise RecordError(
                    f"recorded end ({rd.end.reason}, winner {rd.end.winner}, scores "
                    f"{list(rd.end.scores)}) differs from the replayed end "
                    f"({state.end.reason}, winner {state.end.winner}, scores "
                    f"{list(state.end.scores)})",
                    round=ri,
                )
        elif ri < len(rec.rounds) - 1:
            raise RecordError("only the last round may be unfinished", round=ri)
        if rd.end is not None:
            totals = [a + b for a, b in zip(totals, rd.end.scores, strict=True)]


def _replay_turn(state: RoundState, log: TurnLog, ri: int, ti: int) -> RoundState:
    rules = state.rules
    if log.action == "draw" and state.pool and log.tile != state.pool[0]:
        raise RecordError(
            f"drew {log.tile}, but the pool's next tile is {state.pool[0]}", round=ri, turn=ti
        )
    if log.action == "invalid":
        if rules.invalid_play != "penalty":
            raise RecordError("an 'invalid' turn needs invalid_play: penalty", round=ri, turn=ti)
        after = penalise(state, rules.invalid_penalty)
    else:
        action = _action_of(log)
        assert action is not None
        after = apply(state, action)
    if log.action in ("timeout", "invalid"):
        drawn = state.pool[: len(state.pool) - len(after.pool)]
        if tuple(log.penalty) != drawn:
            raise RecordError(
                f"penalty tiles {' '.join(map(str, log.penalty)) or 'none'} "
                f"differ from the pool's {' '.join(map(str, drawn)) or 'none'}",
                round=ri,
                turn=ti,
            )
    return after


def verify(rec: GameRecord) -> int:
    """Re-check every turn and the totals; return the number of turns checked."""
    return verify_steps(replay(rec), rec)


def load_match(rec: GameRecord) -> Match:
    """Rebuild a :class:`Match` from a record (to resume a saved game); the record is
    verified on the way."""
    match = Match(rec.rules, rec.players, rec.seed if rec.seed is not None else 0, start=False)
    last: dict[int, RoundState] = {}
    for ri, rd in enumerate(rec.rounds):
        last[ri] = _start_state(rec, ri, rd)
    for step in replay(rec):
        last[step.round] = step.after
    for ri, rd in enumerate(rec.rounds):
        state = last[ri]
        if state.end is None and rd.end is not None:  # abandoned
            state = dataclasses.replace(state, end=rd.end)
        match.rounds.append(RoundLog(rd.pool, rd.first, rd.racks, list(rd.turns), state.end))
        if state.end is not None:
            match.totals = tuple(a + b for a, b in zip(match.totals, state.end.scores, strict=True))
        match.state = state
    if not rec.rounds:
        match.start_round()
    return match
