"""Rooms back when the server starts: every unfinished game rebuilt from its stored log, its
turn clock going on with the time its player had when the server last showed signs of life. A
game whose log cannot be replayed is kept as *damaged*, never dropped."""

from __future__ import annotations

import logging

from rummikub.core import RummikubError

from ..rooms.room import Room
from ..storage.store import StoredRoom
from .persistence import Persistence
from .restore import Damage, replay, stored_row
from .room_runtime import RoomRuntime

__all__ = ["reopen", "reopen_rooms"]

log = logging.getLogger("rummikub.server")


async def reopen_rooms(
    storage: Persistence,
    rooms: dict[str, RoomRuntime],
    damaged: dict[str, tuple[Room | None, Damage]],
) -> float:
    """Load every unfinished room into ``rooms`` (the damaged into ``damaged``), store their
    clocks and a heartbeat; returns the time taken as now (``storage``'s clock)."""
    last = await storage.db(storage.store.last_beat)
    stored = await storage.db(storage.store.load_active)
    now = storage.clock.time()
    for sr in stored:
        try:
            rt = reopen(sr, last, now, damaged)
        except (RummikubError, KeyError, TypeError, ValueError) as exc:
            damage = Damage(0, "room", f"{type(exc).__name__}: {exc}", 0)
            log.error("room %s cannot be restored: its row: %s", sr.code, damage.error)
            damaged[sr.code] = (None, damage)
            continue
        if rt is None:
            continue
        rooms[sr.code] = rt
        if rt.room.turn_started is not None:
            await storage.db(storage.store.update_room, sr.code, turn_started=rt.room.turn_started)
            rt.row["turn_started"] = rt.room.turn_started
    await storage.db(storage.store.beat, now)
    return now


def reopen(
    sr: StoredRoom,
    last_beat: float | None,
    now: float,
    damaged: dict[str, tuple[Room | None, Damage]],
) -> RoomRuntime | None:
    """The runtime of a stored room at server start (``None`` when its log is damaged:
    it is then kept in ``damaged``)."""
    done = replay(sr)
    room = done.room
    if done.damage is not None:
        damaged[sr.code] = (room, done.damage)
        log.error(
            "room %s cannot be restored: event %d (%s) fails: %s; kept with its first %d "
            "events, record readable",
            sr.code,
            done.damage.seq,
            done.damage.kind,
            done.damage.error,
            done.damage.replayed,
        )
        return None
    if sr.turn_started is not None:
        # The clock stood still while the server was down: the player keeps the time he
        # had when the server last showed signs of life.
        stopped = last_beat if last_beat is not None else now
        used = max(0.0, min(stopped, now) - sr.turn_started)
        room.turn_started = now - used
    if room.round_over and not room.match_over:
        room.pause_until = now + room.settings.round_pause
    return RoomRuntime(room, done.events, stored_row(sr))
