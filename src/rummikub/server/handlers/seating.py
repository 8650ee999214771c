"""Who is in which room: joining, resuming and watching a room, and leaving it
or losing the connection (the seat of a waiting room is freed, a player of a running game gets
his grace period or a stand-in). Seats are stored before anybody is told."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..protocol import messages as p
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..protocol.text import check_text
from ..rooms.room import Room, Seat, hash_token, new_token
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.lobby import Lobby
from ..runtime.persistence import Persistence, StorageDown
from ..runtime.restore import Damage
from ..runtime.room_runtime import RoomRuntime, stored_seat
from ..runtime.scheduling import Scheduler
from ..runtime.turns import Turns
from .moderation import check_not_removed
from .muting import history
from .rated import need_account

__all__ = ["Seating"]

log = logging.getLogger("rummikub.server")


class Seating:
    def __init__(
        self,
        storage: Persistence,
        scheduler: Scheduler,
        turns: Turns,
        lobby: Lobby,
        rooms: dict[str, RoomRuntime],
        damaged: dict[str, tuple[Room | None, Damage]],
        clock: Clock,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.scheduler = scheduler
        self.turns = turns
        self.lobby = lobby
        self.rooms = rooms
        self.damaged = damaged
        #: told (holding the room lock) when a player leaves a room whose match is over
        #: (the rematch may have waited for him: :meth:`.Rematch.settle`)
        self.on_left: Callable[[RoomRuntime], Awaitable[None]] | None = None

    def _broadcast(self, rt: RoomRuntime) -> None:
        self.storage.broadcast(rt)

    async def enter(self, conn: Connection, msg: p.JoinMsg | p.ResumeMsg | p.WatchMsg) -> None:
        code = msg.room.upper()
        rt = self.rooms.get(code)
        if rt is None:
            if code in self.damaged:
                damage = self.damaged[code][1]
                raise ClientError(
                    ServerCode.DAMAGED,
                    f"game {code} could not be restored ({damage.error}); its record up to "
                    f"that point is at /api/rooms/{code}/record",
                    params={"room": code},
                )
            raise ClientError(
                ServerCode.NO_SUCH_ROOM, f"no open room with code {code}", params={"room": code}
            )
        if isinstance(msg, p.JoinMsg) and conn.room == code and conn.seat is not None:
            raise ClientError(
                ServerCode.ALREADY_SEATED,
                f"you hold seat {conn.seat + 1} of this room already",
                params={"seat": conn.seat + 1},
            )
        if conn.room is not None:
            await self.detach(conn, leaving=False)
        async with rt.lock:
            room = rt.room
            if room.status == "abandoned":
                raise ClientError(
                    ServerCode.CLOSED,
                    f"room {code} was closed: everybody left it",
                    params={"room": code},
                )
            if isinstance(msg, p.WatchMsg):
                self.attach(rt, conn, None)
                conn.send(
                    {"type": "watching", "id": msg.id, "room": code, "chat": history(conn, room)}
                )
            elif isinstance(msg, p.ResumeMsg):
                if msg.token is None:  # by the account, from any browser
                    found = self._account_seat(room, conn)
                else:
                    found = room.seat_by_token(msg.token)
                if found is None:
                    raise ClientError(ServerCode.BAD_TOKEN, "that token does not hold a seat here")
                self.seat(rt, conn, found, msg.token, msg.id)
                await self.scheduler.settle_host(rt)
            else:
                if room.status != "waiting":
                    raise ClientError(ServerCode.STARTED, "the game has started; you can watch it")
                check_not_removed(room, conn)
                check_text(msg.name, "name")
                held = next(
                    (s for s in room.seats if s.token_hash is not None and s.person == conn.person),
                    None,
                )
                if held is not None:
                    raise ClientError(
                        ServerCode.ALREADY_SEATED,
                        f"you hold seat {held.seat + 1} of this room already (one seat per person)",
                        params={"seat": held.seat + 1},
                    )
                if room.settings.rated:
                    need_account(conn, "a rated game")
                if self.storage.down_since is not None:
                    raise StorageDown()
                free = room.free_seat(msg.seat)
                if free is None:
                    raise ClientError(
                        ServerCode.FULL,
                        "no free seat" if msg.seat is None else f"seat {msg.seat + 1} is not free",
                        params={} if msg.seat is None else {"seat": msg.seat + 1},
                    )
                token = new_token()
                free.name = msg.name if conn.account is None else conn.account.name
                free.account = None if conn.account is None else conn.account.id
                free.token_hash = hash_token(token)
                await self.storage.write(
                    rt, self.storage.store.update_seat, code, stored_seat(free)
                )
                rt.seats[free.seat] = stored_seat(free)
                self.seat(rt, conn, free, token, msg.id)
                if room.all_taken:
                    await self.turns.begin(rt)
                else:  # somebody is here now to take over from a host who is gone
                    await self.scheduler.settle_host(rt)
            self.lobby.invalidate()
            self._broadcast(rt)

    @staticmethod
    def _account_seat(room: Room, conn: Connection) -> Seat | None:
        need_account(conn, "taking a seat without its token")
        assert conn.account is not None
        return next((s for s in room.seats if s.account == conn.account.id), None)

    def seat(
        self, rt: RoomRuntime, conn: Connection, seat: Seat, token: str | None, msg_id: Any
    ) -> None:
        """Put ``conn`` in ``seat`` (its person holds it now) and tell it: ``joined``, with the
        seat's token (``None`` when it came back by its account: the token stays secret) and
        the recent chat."""
        seat.person = conn.person
        self.attach(rt, conn, seat.seat)
        conn.send(
            {
                "type": "joined",
                "id": msg_id,
                "room": rt.room.code,
                "seat": seat.seat,
                "token": token,
                "chat": history(conn, rt.room),
            }
        )

    def attach(self, rt: RoomRuntime, conn: Connection, seat: int | None) -> None:
        conn.room = rt.room.code
        conn.seat = seat
        rt.conns.add(conn)
        rt.last_seen = self.clock.time()
        if seat is not None:
            s = rt.room.seats[seat]
            s.connections += 1
            s.disconnected_at = None
            handle = rt.grace.pop(seat, None)
            if handle is not None:
                handle.cancel()
            if s.standin:
                s.standin = False
                rt.room.note(seat, "back")
                self.scheduler.schedule(rt)

    async def detach(self, conn: Connection, *, leaving: bool, locked: bool = False) -> None:
        code, seat = conn.room, conn.seat
        rt = self.rooms.get(code) if code else None
        if rt is None or conn not in rt.conns:
            conn.room = conn.seat = None
            return
        if locked:
            await self._detach_locked(rt, conn, seat, leaving)
        else:
            async with rt.lock:
                await self._detach_locked(rt, conn, seat, leaving)

    async def _detach_locked(
        self, rt: RoomRuntime, conn: Connection, seat: int | None, leaving: bool
    ) -> None:
        room = rt.room
        rt.last_seen = self.clock.time()
        if seat is not None and room.status == "waiting" and leaving:
            s = room.seats[seat]
            if s.kind == "human" and s.connections <= 1:
                try:
                    await self._free_seat(rt, s)
                except ClientError:
                    # storage down: the seat stays held, as stored; its holder is away
                    log.warning("room %s: seat %d could not be freed", room.code, seat + 1)
        conn.room = conn.seat = None
        rt.conns.discard(conn)
        room = rt.room
        if seat is not None:
            s = room.seats[seat]
            s.connections = max(0, s.connections - 1)
            if room.status == "playing" and s.connections == 0:
                s.disconnected_at = self.clock.time()
                if leaving:
                    s.standin = True
                    room.note(seat, "left")
                    self.scheduler.schedule(rt)
                else:
                    self.scheduler.arm_grace(rt, s)
            elif room.status == "waiting" and s.connections == 0 and seat == room.settings.host:
                # the host of a waiting room is away: gone after his grace period, when the
                # host role passes on (:meth:`.Scheduler.settle_host`)
                s.disconnected_at = self.clock.time()
                self.scheduler.arm_grace(rt, s)
            if room.match_over and room.rematch and self.on_left is not None:
                try:
                    await self.on_left(rt)
                except ClientError:  # storage down: the rematch waits for the next answer
                    log.warning("room %s: the rematch could not be made", room.code)
        self.lobby.invalidate()
        self._broadcast(rt)

    async def _free_seat(self, rt: RoomRuntime, s: Seat) -> None:
        """A person leaves a waiting room: his seat is free again. When he was the host, the
        next person seated becomes host; when nobody is left, the room closes."""
        room = rt.room
        index = s.seat
        s.free()
        await self.storage.write(rt, self.storage.store.update_seat, room.code, stored_seat(s))
        rt.seats[index] = stored_seat(s)
        room = rt.room
        others = [x for x in room.seats if x.kind == "human" and x.taken]
        if not others:
            now = self.clock.time()
            await self.storage.write(
                rt, self.storage.store.update_room, room.code, status="abandoned", finished_at=now
            )
            room.status = rt.row["status"] = "abandoned"
            room.finished_at = rt.row["finished_at"] = now
        elif room.settings.host == index:
            await self.scheduler.pass_host(rt, others[0].seat)
