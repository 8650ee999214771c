"""Moderation in a room: the host removes a person from his waiting room (who may not join it
again), a player reports another to the server's operator, and a client mutes the chat of a
seat (:mod:`.muting`). Called by the dispatcher under the room's lock."""

from __future__ import annotations

import json
from typing import Any

from ..protocol import messages as p
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..rooms.room import Room, Seat
from ..rooms.seats import person_key
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.lobby import Lobby
from ..runtime.persistence import Persistence, StorageDown
from ..runtime.room_runtime import RoomRuntime, stored_seat
from ..storage.reports import ReportStore

__all__ = ["Moderation", "check_not_removed"]


def check_not_removed(room: Room, conn: Connection) -> None:
    """Refuse (``removed``) a person the host removed from ``room`` who joins it again."""
    if person_key(conn.person) in room.settings.removed:
        raise ClientError(
            ServerCode.REMOVED,
            f"the host removed you from room {room.code}; you cannot join it again",
            params={"room": room.code},
        )


class Moderation:
    def __init__(self, storage: Persistence, lobby: Lobby, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock
        self.lobby = lobby
        self.reports = ReportStore(storage.store.engine)

    async def handle(
        self, rt: RoomRuntime, conn: Connection, msg: p.RemoveMsg | p.ReportMsg | p.MuteMsg
    ) -> None:
        if isinstance(msg, p.RemoveMsg):
            await self.remove(rt, conn, msg.seat)
            conn.send({"type": "ok", "id": msg.id})
        elif isinstance(msg, p.ReportMsg):
            report = await self.report(rt, conn, msg.seat, msg.reason)
            conn.send({"type": "ok", "id": msg.id, "report": report})
        else:
            muted = self.mute(rt, conn, msg.seat, msg.on)
            conn.send({"type": "ok", "id": msg.id, "muted": muted})

    # -- removing a person from a waiting room ----------------------------------------
    async def remove(self, rt: RoomRuntime, conn: Connection, index: int) -> None:
        """The host frees ``index``'s seat of his waiting room: its connections are told
        (``removed``) and leave the room, and its person may not join it again."""
        room = rt.room
        me = _player(conn, "remove")
        if me != room.settings.host:
            raise ClientError(ServerCode.NOT_HOST, "only the room's host can remove a player")
        if room.status != "waiting":
            raise ClientError(
                ServerCode.STARTED, "the game has started: nobody can be removed from it"
            )
        target = _seat(room, index)
        if target.seat == me:
            raise ClientError(ServerCode.SELF, "you cannot remove yourself; leave the room")
        _person(target)
        if self.storage.down_since is not None:
            raise StorageDown()
        holders = [c for c in rt.conns if c.seat == index]
        persons = {c.person for c in holders} | ({target.person} if target.person else set())
        keys = [k for k in sorted(map(person_key, persons)) if k not in room.settings.removed]
        if keys:
            room.settings.removed.extend(keys)
            settings = room.settings.to_dict()
            await self.storage.write(
                rt, self.storage.store.update_room, room.code, settings=json.dumps(settings)
            )
            rt.row["settings"] = settings
        seat = rt.room.seats[index]
        seat.free()
        await self.storage.write(rt, self.storage.store.update_seat, room.code, stored_seat(seat))
        rt.seats[index] = stored_seat(seat)
        gone = {"type": "removed", "room": room.code}
        for c in holders:
            c.send(gone)
            c.room = c.seat = None
            rt.conns.discard(c)
        seat.connections = 0
        self.lobby.invalidate()
        self.storage.broadcast(rt)

    # -- reporting a player -----------------------------------------------------------
    async def report(self, rt: RoomRuntime, conn: Connection, index: int, reason: str) -> int:
        """Store a player's report about the person in seat ``index``; the report's id."""
        room = rt.room
        me = _player(conn, "report")
        target = _seat(room, index)
        if target.seat == me:
            raise ClientError(ServerCode.SELF, "you cannot report yourself")
        _person(target)
        code = room.code
        done: int | None = await self._db(
            rt, self.reports.add, code, me + 1, index + 1, reason.strip(), self.clock.time()
        )
        if done is None:
            raise ClientError(
                ServerCode.ALREADY_REPORTED,
                f"you have reported seat {index + 1} of this game already",
                params={"seat": index + 1},
            )
        return done

    async def _db(self, rt: RoomRuntime, fn: Any, *args: Any) -> Any:
        """A write of ``rt``'s room that is not part of its state (a report), with the
        failure handling of every write (storage down)."""
        out: list[Any] = []

        def run() -> None:
            out.append(fn(*args))

        await self.storage.write(rt, run)
        return out[0]

    # -- muting a seat's chat ---------------------------------------------------------
    def mute(self, rt: RoomRuntime, conn: Connection, index: int, on: bool) -> list[int]:
        """Mute (``on``) or unmute the chat of seat ``index`` for ``conn``; the seats it mutes
        now."""
        target = _seat(rt.room, index)
        if target.seat == conn.seat:
            raise ClientError(ServerCode.SELF, "you cannot mute yourself")
        muted = conn.muted.setdefault(rt.room.code, set())
        if on:
            muted.add(index)
        else:
            muted.discard(index)
        return sorted(muted)


def _player(conn: Connection, what: str) -> int:
    if conn.seat is None:
        raise ClientError(ServerCode.SPECTATOR, f"spectators cannot {what} players")
    return conn.seat


def _seat(room: Room, index: int) -> Seat:
    if index >= len(room.seats):
        raise ClientError(
            ServerCode.NO_SUCH_SEAT,
            f"this room has no seat {index + 1}",
            params={"seat": index + 1},
        )
    return room.seats[index]


def _person(seat: Seat) -> None:
    if seat.kind != "human" or not seat.taken:
        what = "a bot's" if seat.kind == "bot" else "free"
        raise ClientError(
            ServerCode.NO_PERSON,
            f"seat {seat.seat + 1} is {what}: nobody to act on",
            params={"seat": seat.seat + 1},
        )
