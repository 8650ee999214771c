"""The lobby's lists: the public rooms waiting for players and being played (a page of each,
built at most once a second) and the recently finished public games.

A node of a cluster lists the rooms of the other nodes too, read from the shared database (at
most once a second; who is connected to them and their spectators are not shown)."""

from __future__ import annotations

from typing import Any

from .clock import Clock
from .persistence import Persistence
from .restore import AnyRoom, empty_room
from .room_runtime import RoomRuntime, host_gone

__all__ = ["LOBBY_TTL", "Lobby"]

#: seconds the lobby lists are reused before they are built again
LOBBY_TTL = 1.0


class Lobby:
    def __init__(
        self,
        storage: Persistence,
        rooms: dict[str, RoomRuntime],
        clock: Clock,
        *,
        shared: bool = False,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.rooms = rooms
        self._lobby: tuple[float, dict[str, list[dict[str, Any]]]] | None = None
        self._finished: tuple[float, list[dict[str, Any]]] | None = None
        #: in a cluster (``shared``): the lobby also lists the public rooms of the other
        #: nodes, read at most every ``LOBBY_TTL`` seconds
        self.shared = shared
        self._others: tuple[float, list[AnyRoom]] | None = None

    async def refresh(self) -> None:
        """In a cluster: read the rooms of the other nodes again (at most once a second)."""
        now = self.clock.monotonic()
        if not self.shared or (self._others is not None and now - self._others[0] < LOBBY_TTL):
            return
        stored = await self.storage.db(self.storage.store.active)
        rooms = []
        for sr in stored:
            if sr.code in self.rooms or not sr.settings.get("public", True):
                continue
            room = empty_room(sr)
            room.status = "playing" if sr.status == "playing" else "waiting"
            rooms.append(room)
        self._others = (now, rooms)
        self._lobby = None

    def invalidate(self, *, finished: bool = False) -> None:
        """A room changed what the lobby shows (and, with ``finished``, a game ended)."""
        self._lobby = None
        if finished:
            self._finished = None

    async def finished(self) -> list[dict[str, Any]]:
        now = self.clock.monotonic()
        if self._finished is not None and now - self._finished[0] < 5 * LOBBY_TTL:
            return self._finished[1]
        rows = await self.storage.db(self.storage.store.finished)
        out = [
            {
                "code": r.code,
                "game": r.game,
                "preset": r.rules.get("preset"),
                "finished_at": r.finished_at,
                "players": [s.name or f"{s.bot} {s.seat + 1}" for s in r.seats],
                # each seat's bot level (None: a person), for the page to name a bot in its
                # language as everywhere else ("Greedy bot 2")
                "bots": [s.bot if s.kind == "bot" else None for s in r.seats],
            }
            for r in rows
            if r.settings.get("public", True)
        ]
        self._finished = (now, out)
        return out

    def lobby(self, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        """The public rooms, newest first, a page of each list (``offset``, ``limit``), with
        the total of each. The lists are built at most once a second."""
        now = self.clock.monotonic()
        if self._lobby is None or now - self._lobby[0] > LOBBY_TTL:
            waiting, live = [], []
            wall = self.clock.time()
            # a waiting room whose host is gone is not offered to anybody: nobody may join a
            # room to wait for a start that cannot come (it is offered again once a host is here)
            rooms = [
                (rt.room, sum(1 for c in rt.conns if c.seat is None))
                for rt in self.rooms.values()
                if not host_gone(rt.room, wall)
            ]
            if self._others is not None:
                rooms += [(r, 0) for r in self._others[1] if r.code not in self.rooms]
            for room, spectators in rooms:
                if not room.settings.public:
                    continue
                info = {
                    "code": room.code,
                    **room.lobby_info(),
                    # the rules and hints, so the lobby can say what game each room plays
                    "rules": room.rules_json(),
                    "hints": room.settings.hints,
                    "seats": [s.public() for s in room.seats],
                    "status": room.status,
                    "spectators": spectators,
                    "created_at": room.created_at,
                }
                if room.status == "waiting":
                    waiting.append(info)
                elif room.status == "playing":
                    live.append(info)
            for rows in (waiting, live):
                rows.sort(key=lambda r: -float(r["created_at"]))
            self._lobby = (now, {"waiting": waiting, "live": live})
        lists = self._lobby[1]
        return {
            "waiting": lists["waiting"][offset : offset + limit],
            "live": lists["live"][offset : offset + limit],
            "total": {"waiting": len(lists["waiting"]), "live": len(lists["live"])},
            "offset": offset,
            "limit": limit,
        }
