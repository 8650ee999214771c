"""Chat a client muted: a connection may stop hearing the chat of a seat of its room (the
``mute`` message). Its lines are not sent to that connection, nor in the chat history it gets
on joining, resuming or watching the room, while it is muted. Mutes belong to the connection:
a client that reconnects sends them again."""

from __future__ import annotations

import json
from typing import Any

from ..rooms.room import Room
from ..runtime.connection import Connection
from ..runtime.room_runtime import RoomRuntime

__all__ = ["HISTORY", "hears", "history", "send_chat"]

#: how many of the latest chat lines a client gets when it enters a room
HISTORY = 50


def hears(conn: Connection, code: str, seat: int | None) -> bool:
    """Whether ``conn`` is sent the chat of ``seat`` of room ``code`` (``None``: a spectator's
    line, where the room lets spectators chat; it is not muted by seat)."""
    return seat is None or seat not in conn.muted.get(code, ())


def _seat(entry: dict[str, Any]) -> int | None:
    seat = entry.get("seat")
    return None if seat is None else int(seat)


def history(conn: Connection, room: Room) -> list[dict[str, Any]]:
    """The latest chat lines of ``room`` as ``conn`` is to see them (muted seats left out)."""
    return [e for e in room.chat if hears(conn, room.code, _seat(e))][-HISTORY:]


def send_chat(rt: RoomRuntime, entry: dict[str, Any]) -> None:
    """Send a chat line to every client of the room but those that muted its seat."""
    msg = json.dumps({"type": "chat", **entry}, separators=(",", ":"))
    code, seat = rt.room.code, _seat(entry)
    for c in rt.conns:
        if hears(c, code, seat):
            c.send_text(msg)
