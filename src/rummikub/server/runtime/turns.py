"""The game's progress in a room: starting it (when full, or early by the host), a move or a
timeout of the player to move, and the next round of a match. Every step is stored before it
takes effect, then the room's timers and bots are armed and its clients told. The caller holds
the room's lock."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..rooms.seats import Seat
from ..storage.store import Append, StoredEvent
from .clock import Clock
from .connection import Connection
from .lobby import Lobby
from .persistence import Persistence
from .room_runtime import RoomRuntime, stored_seat
from .scheduling import Scheduler

__all__ = ["Turns"]


class Turns:
    def __init__(
        self,
        storage: Persistence,
        scheduler: Scheduler,
        lobby: Lobby,
        clock: Clock,
        *,
        on_over: Callable[[RoomRuntime], Awaitable[object]] | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.scheduler = scheduler
        self.lobby = lobby
        #: called once a move ends the match, after it is stored and broadcast (the ratings
        #: of a rated game: :class:`..handlers.rated.RatedGames`)
        self.on_over = on_over

    def _broadcast(self, rt: RoomRuntime) -> None:
        self.storage.broadcast(rt)

    async def start_now(self, rt: RoomRuntime, seat: Seat, msg_id: Any) -> None:
        room = rt.room
        if room.status != "waiting":
            raise ClientError(ServerCode.STARTED, "the game has already started")
        if seat.seat != room.settings.host:
            raise ClientError(ServerCode.NOT_HOST, "only the room's host can start early")
        for s in room.seats:
            if not s.taken:
                s.kind = "bot"
                s.bot = room.settings.standin
                await self.storage.write(
                    rt, self.storage.store.update_seat, room.code, stored_seat(s)
                )
                rt.seats[s.seat] = stored_seat(s)
        await self.begin(rt)
        self._broadcast(rt)

    async def begin(self, rt: RoomRuntime) -> None:
        room = rt.room
        room.start()
        now = self.clock.time()
        room.turn_started = now
        room.seq += 1
        await self.storage.append(
            rt,
            Append(
                room.code,
                StoredEvent(room.seq, "start", {}, now),
                {"status": "playing", "turn_started": now},
            ),
        )
        self.lobby.invalidate()
        # a seat whose holder is not here follows the grace rule from the start
        for s in rt.room.seats:
            if s.kind == "human" and s.taken and s.connections == 0:
                s.disconnected_at = now
                self.scheduler.arm_grace(rt, s)
        self.scheduler.schedule(rt)

    async def commit(self, rt: RoomRuntime, action: object, conn: Connection | None = None) -> None:
        """Apply an action for the player to move, store it, schedule what follows and
        broadcast. Must hold the room lock. Nothing takes effect unless it is stored."""
        room = rt.room
        assert room.started
        now = self.clock.time()
        key = room.turn_key()
        hint = room.hint_used(action)
        ms = None if room.turn_started is None else int((now - room.turn_started) * 1000)
        start = time.thread_time()
        try:
            stored, restart = room.act(action, ms=ms, hint=hint)
        finally:
            if conn is not None:
                conn.budget.work.charge(time.thread_time() - start)
        if restart or room.turn_key() != key or room.round_over:
            room.turn_started = now
        room.seq += 1
        result = None
        update: dict[str, Any] = {"turn_started": room.turn_started, "status": room.status}
        if room.round_over:
            result = room.round_result()
            if room.match_over:
                room.finished_at = now
                update["finished_at"] = now
            else:
                room.pause_until = now + room.settings.round_pause
        ev = StoredEvent(room.seq, "turn", {"action": stored, "ms": ms, "hint": hint}, now)
        await self.storage.append(rt, Append(room.code, ev, update, result))
        if room.match_over:
            self.lobby.invalidate(finished=True)
        self.scheduler.schedule(rt)
        self._broadcast(rt)
        if room.match_over and self.on_over is not None:
            await self.on_over(rt)

    async def ready(self, rt: RoomRuntime, seat: Seat) -> None:
        room = rt.room
        if not room.round_over or room.match_over:
            raise ClientError(ServerCode.NOT_BETWEEN_ROUNDS, "no round is waiting to start")
        room.ready.add(seat.seat)
        waiting = [
            s.seat
            for s in room.seats
            if s.kind == "human" and s.connections > 0 and s.seat not in room.ready
        ]
        if not waiting:
            await self.next_round(rt)
        else:
            self._broadcast(rt)

    async def next_round(self, rt: RoomRuntime) -> None:
        room = rt.room
        if not room.round_over or room.match_over:
            return
        if rt.pause is not None:
            rt.pause.cancel()
            rt.pause = None
        room.next_round()
        now = self.clock.time()
        room.turn_started = now
        room.seq += 1
        await self.storage.append(
            rt, Append(room.code, StoredEvent(room.seq, "round", {}, now), {"turn_started": now})
        )
        self.scheduler.schedule(rt)
        self._broadcast(rt)
