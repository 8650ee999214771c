"""Sending every client of a room the room as he may see it (one JSON text per seat)."""

from __future__ import annotations

import json

from .room_runtime import RoomRuntime

__all__ = ["broadcast"]


def broadcast(rt: RoomRuntime, down_since: float | None, now: float) -> None:
    """Send every connection of ``rt`` its view of the room at ``now`` (the wall clock).
    While storage is down (``down_since`` is when it went down) the clocks shown stand still
    and ``saving`` is on."""
    room = rt.room
    if down_since is not None:
        now = down_since
    public = room.public_view(now)
    public["saving"] = down_since is not None
    cache: dict[int | None, str] = {}
    for c in list(rt.conns):
        if c.seat not in cache:
            cache[c.seat] = json.dumps(room.view(public, c.seat), separators=(",", ":"))
        c.send_text(cache[c.seat])
