"""Sending every client of a room the room as he may see it (one JSON text per seat)."""

from __future__ import annotations

import json
import time

from .room_runtime import RoomRuntime

__all__ = ["broadcast"]


def broadcast(rt: RoomRuntime, down_since: float | None) -> None:
    """Send every connection of ``rt`` its view of the room. While storage is down
    (``down_since`` is when it went down) the clocks shown stand still and ``saving`` is on."""
    room = rt.room
    now = time.time() if down_since is None else down_since
    public = room.public_view(now)
    public["saving"] = down_since is not None
    cache: dict[int | None, str] = {}
    for c in list(rt.conns):
        if c.seat not in cache:
            cache[c.seat] = json.dumps(room.view(public, c.seat), separators=(",", ":"))
        c.send_text(cache[c.seat])
