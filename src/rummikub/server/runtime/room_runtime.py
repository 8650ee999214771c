"""What a room has only while a server runs it: its lock, clients, timers and bot, and the
record of what of it is stored (so a failed write can put it back exactly as stored)."""

from __future__ import annotations

import asyncio
from typing import Any

from ..protocol.refusals import ClientError, refused
from ..rooms.room import Room
from ..rooms.seats import Seat
from ..storage.store import StoredSeat
from .clock import Timer
from .connection import Connection
from .restore import LoggedEvent

__all__ = ["ClientError", "RoomRuntime", "host_gone", "refused", "stored_seat"]


def stored_seat(s: Seat) -> StoredSeat:
    return StoredSeat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.account)


def host_gone(room: Room, now: float) -> bool:
    """Whether the host of a waiting room is gone: nobody has held his seat for the room's grace
    period. Such a room is not listed in the lobby, and its host role passes to the first
    person seated who is there (:meth:`.Scheduler.settle_host`)."""
    if room.status != "waiting":
        return False
    host = room.seats[room.settings.host]
    return (
        host.connections == 0
        and host.disconnected_at is not None
        and now - host.disconnected_at >= room.settings.grace_seconds
    )


class RoomRuntime:
    """A room plus what only lives while the server runs: lock, clients, timers, bots, and
    its stored state (the event log, the seats and the room row as last written)."""

    def __init__(
        self,
        room: Room,
        events: list[LoggedEvent] | None = None,
        row: dict[str, Any] | None = None,
    ) -> None:
        self.room = room
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.clock: Timer | None = None
        self.clock_key: tuple[int, int] | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_key: tuple[int, int] | None = None
        self.pause: Timer | None = None
        self.grace: dict[int, Timer] = {}
        #: the event log as stored
        self.events: list[LoggedEvent] = list(events or [])
        #: the seats as stored
        self.seats: list[StoredSeat] = [stored_seat(s) for s in room.seats]
        #: the room row as stored
        self.row: dict[str, Any] = row or {
            "status": room.status,
            "turn_started": room.turn_started,
            "finished_at": room.finished_at,
            "settings": room.settings.to_dict(),
        }
        #: a write of this room failed: what is stored may hold more than :attr:`events`
        self.uncertain = False
        #: writes of this room in flight (its change is not stored yet: not to be shown)
        self.writing = 0
        #: storage went down while a write was in flight: the room is shown once it ends
        self.unshown = False
        #: the outage (its start) after which this room was last resumed
        self.resumed: float | None = None
        #: when a person last was in the room (waiting rooms nobody visits are closed)
        self.last_seen = room.created_at

    def bot_level(self, seat: Seat) -> str:
        return seat.bot if seat.kind == "bot" and seat.bot else self.room.settings.standin

    def stop_clocks(self) -> None:
        """Cancel the turn clock, the bot and the pause between rounds (they are armed again
        by the manager's ``_schedule``)."""
        for h in (self.clock, self.pause):
            if h is not None:
                h.cancel()
        self.clock = self.pause = None
        self.clock_key = None
        if self.bot_task is not None:
            self.bot_task.cancel()
        self.bot_task = None
        self.bot_key = None

    def cancel_timers(self) -> None:
        self.stop_clocks()
        for h in self.grace.values():
            h.cancel()
        self.grace.clear()
