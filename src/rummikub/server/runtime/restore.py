"""Rebuilding a room from what is stored: its row, its seats and its event log.

The event log is the truth. A room is rebuilt from it when the server starts, when a write
failed and the room must go back to exactly what was stored, and when storage comes back after
an outage (a write whose answer was lost may have been committed after all).

A log that cannot be replayed (a bug, a hand-edited database, a rules change) does not make the
room disappear: :func:`replay` stops at the first event it cannot apply and says which one and
why, and the room is kept as *damaged* with the game as it stood after the last good event.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rummikub.core import RummikubError
from rummikub.games import get_game

from ..rooms.room import Room, Seat, Settings
from ..storage.store import StoredEvent, StoredRoom, StoredSeat

__all__ = [
    "AnyRoom",
    "Damage",
    "LoggedEvent",
    "Replayed",
    "empty_room",
    "logged",
    "replay",
    "stored_room",
    "stored_row",
]

#: a room of any game (the name of the time rooms had one class per game)
AnyRoom = Room

#: One stored event as kept in memory: ``(seq, kind, data as compact JSON, at)``. Compact JSON
#: costs a tenth of the memory of the decoded dictionaries; it is decoded only to replay.
LoggedEvent = tuple[int, str, str, float]


@dataclass(frozen=True, slots=True)
class Damage:
    """Why a room's log could not be replayed: the first event that failed and the error."""

    seq: int
    kind: str
    error: str
    replayed: int

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "error": self.error, "replayed": self.replayed}


@dataclass(slots=True)
class Replayed:
    room: AnyRoom
    events: list[LoggedEvent]
    damage: Damage | None = None


def logged(ev: StoredEvent) -> LoggedEvent:
    return (ev.seq, ev.kind, json.dumps(ev.data, separators=(",", ":")), ev.at)


def empty_room(sr: StoredRoom) -> AnyRoom:
    """The room of a stored row and seats, before any event of its log."""
    seats = [
        Seat(
            s.seat,
            "bot" if s.kind == "bot" else "human",
            s.bot,
            s.name,
            s.token_hash,
            account=s.account_id,
        )
        for s in sr.seats
    ]
    settings = Settings.from_dict(sr.settings)
    game = get_game(sr.game)
    # stored rules: an option newer than the room keeps the behaviour the room was played under
    rules = game.rules_from_json(sr.rules, stored=True)
    return Room(sr.code, rules, settings, sr.seed, seats, sr.created_at, game=game)


def _apply(room: AnyRoom, kind: str, data: dict[str, Any]) -> None:
    if kind == "start":
        room.start()
    elif kind == "turn":
        room.act(room.stored_action(data["action"]), ms=data.get("ms"), hint=bool(data.get("hint")))
    elif kind == "round":
        room.next_round()
    elif kind == "chat":
        room.chat.append(dict(data))
    else:
        raise ValueError(f"unknown event kind {kind!r}")


def replay(sr: StoredRoom, events: list[LoggedEvent] | None = None) -> Replayed:
    """The room of ``sr`` with its log replayed (``events``, when given, instead of
    ``sr.events``). Raises only when the room row itself is unreadable (bad rules); a bad
    event stops the replay and is reported in :attr:`Replayed.damage`."""
    room = empty_room(sr)
    log = events if events is not None else [logged(ev) for ev in sr.events]
    damage: Damage | None = None
    good = 0
    for seq, kind, text, _at in log:
        room.seq = seq
        try:
            _apply(room, kind, json.loads(text))
        except (RummikubError, KeyError, TypeError, ValueError, AttributeError) as exc:
            damage = Damage(seq, kind, f"{type(exc).__name__}: {exc}", good)
            break
        good += 1
    if damage is None:
        room.restored()
    room.status = "playing" if room.started else "waiting"
    if room.match_over:
        room.status = "finished"
        room.finished_at = sr.finished_at
    elif sr.status == "abandoned":
        room.status = "abandoned"
        room.finished_at = sr.finished_at
    room.turn_started = sr.turn_started
    return Replayed(room, log[:good] if damage is not None else log, damage)


def stored_row(sr: StoredRoom) -> dict[str, Any]:
    """The values of a room's row that change while it is played, as stored."""
    return {
        "status": sr.status,
        "turn_started": sr.turn_started,
        "finished_at": sr.finished_at,
        "settings": dict(sr.settings),
    }


def stored_room(room: AnyRoom, seats: list[StoredSeat], row: dict[str, Any]) -> StoredRoom:
    """A :class:`StoredRoom` describing ``room`` as stored: ``seats`` and ``row`` (status,
    turn_started, finished_at, settings) are the values last written, not the room's live
    ones."""
    return StoredRoom(
        room.code,
        room.created_at,
        room.rules_json(),
        dict(row["settings"]),
        room.seed,
        row["status"],
        row["turn_started"],
        row["finished_at"],
        [StoredSeat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.account_id) for s in seats],
        game=room.game.name,
    )
