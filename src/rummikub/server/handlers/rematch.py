"""The rematch: at the end of a match each person of the room may accept a new match with the
same people, bots and rules. It is made once every person who is still in the room accepted
(a person who left, or closed his page, is not waited for: his seat of the new room is free
for him to take by its link, and its host may start without him, a bot taking the seat). The
persons who accepted are told the new room and their seat's token (``rematch``); everyone in
the old room sees it in the room's ``rematch`` field and may follow to watch or join it.

What was accepted is kept in memory only: after a restart of the server, the players accept
again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..rooms.room import Seat
from ..runtime.connection import Connection
from ..runtime.persistence import Persistence
from ..runtime.room_runtime import RoomRuntime
from .creation import RoomMaker

__all__ = ["Rematch"]


class Rematch:
    def __init__(self, maker: RoomMaker, storage: Persistence) -> None:
        self.maker = maker
        self.storage = storage

    async def answer(
        self, rt: RoomRuntime, conn: Connection, seat: Seat, accept: bool, msg_id: Any
    ) -> None:
        """``seat``'s player accepts (or withdraws from) the rematch. Holds the room lock."""
        room = rt.room
        if not room.match_over:
            raise ClientError(
                ServerCode.MATCH_NOT_OVER, "the match is not over; a rematch is offered at its end"
            )
        if room.rematch_room is not None:
            raise ClientError(
                ServerCode.REMATCH_MADE,
                f"the rematch was made already: room {room.rematch_room}",
                params={"room": room.rematch_room},
            )
        before = set(room.rematch)
        if accept:
            room.rematch.add(seat.seat)
        else:
            room.rematch.discard(seat.seat)
        try:
            await self.settle(rt, lambda: conn.send({"type": "ok", "id": msg_id}))
        except ClientError:
            # the new room could not be stored: this answer is not taken (he may try again)
            rt.room.rematch = before
            raise

    async def settle(self, rt: RoomRuntime, reply: Callable[[], None] | None = None) -> None:
        """Make the rematch when every person still in the room accepted it (and one did);
        tell the room either way (``reply`` first: the answer to the message that led here,
        once nothing can fail any more). Holds the room lock (a person leaving calls it too)."""
        room = rt.room
        if not room.match_over or room.rematch_room is not None:
            if reply is not None:
                reply()
            return
        here = {s.seat for s in room.seats if s.kind == "human" and s.connections > 0}
        accepted = room.rematch & here
        if accepted and here <= room.rematch:
            persons = {
                i: next((c.person for c in rt.conns if c.seat == i), room.seats[i].person)
                for i in accepted
            }
            code, tokens = await self.maker.rematch(room, persons)
            room = rt.room
            room.rematch_room = code
            if reply is not None:
                reply()
                reply = None
            for c in list(rt.conns):
                if c.seat in tokens:
                    c.send(
                        {"type": "rematch", "room": code, "seat": c.seat, "token": tokens[c.seat]}
                    )
        if reply is not None:
            reply()
        self.storage.broadcast(rt)
