"""Store before effect: every write about a room, the *storage down* mode and its recovery.

An action takes effect only once it is stored: the room is changed, the change is written
(:meth:`Persistence.append` for an event of its log, :meth:`Persistence.write` for its seats or
row), and only then is anybody told. When the write fails the room is put back exactly as stored
(rebuilt from its stored event log, seats and row) and :class:`StorageDown` is raised; the
server goes into storage-down mode: every room waits (clocks stopped, clients told "saving…")
while the database is tried again, and when it answers, rooms whose last write is in doubt are
reloaded from it and every clock goes on with the time its player had.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..rooms.room import Room
from ..storage.store import Append, Fenced, Store
from ..storage.writer import GroupWriter
from .broadcast import broadcast
from .clock import Clock, RealClock
from .restore import logged, replay, stored_room, stored_row
from .room_runtime import RoomRuntime, stored_seat

__all__ = [
    "HEARTBEAT_SECONDS",
    "RETRY_SECONDS",
    "STORAGE_DOWN",
    "Persistence",
    "StorageDown",
    "adopt",
    "describe",
]

log = logging.getLogger("rummikub.server")

T = TypeVar("T")

HEARTBEAT_SECONDS = 1.0
#: how often storage is tried again while it is down (first try; doubles up to the maximum)
RETRY_SECONDS = (0.25, 2.0)

STORAGE_DOWN = (
    "the server cannot save right now, so nothing changed; the game waits and goes on by "
    "itself once saving works again — then try again"
)


def describe(exc: BaseException) -> str:
    """An error in one short line, for the log and ``/api/health``."""
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


class StorageDown(ClientError):
    def __init__(self) -> None:
        super().__init__(ServerCode.STORAGE_UNAVAILABLE, STORAGE_DOWN)


def adopt(rt: RoomRuntime, room: Room) -> None:
    """Make ``room`` the room of ``rt``, keeping who is connected to which seat."""
    for new, old in zip(room.seats, rt.room.seats, strict=True):
        new.connections = old.connections
        new.standin = old.standin
        new.disconnected_at = old.disconnected_at
        new.person = old.person if new.token_hash == old.token_hash else None
    room.bots = rt.room.bots
    room.rematch, room.rematch_room = rt.room.rematch, rt.room.rematch_room
    rt.room = room


class Persistence:
    """The database as the rooms use it: one thread for it, group commit of events, and the
    storage-down mode. ``resume`` is called once storage works again and the rooms are
    reloaded: it sets the games going again (starts, clocks, bots, broadcasts). ``clock``: the
    server's time (:class:`.clock.RealClock` by default)."""

    def __init__(
        self,
        store: Store,
        rooms: dict[str, RoomRuntime],
        resume: Callable[[], Awaitable[None]],
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        #: the time of the whole server (:mod:`.clock`)
        self.clock: Clock = clock or RealClock()
        self.rooms = rooms
        self._resume = resume
        self._db = ThreadPoolExecutor(1, thread_name_prefix="rummikub-db")
        self.writer = GroupWriter(store, self._db)
        self._heartbeat: asyncio.Task[None] | None = None
        self._recovery: asyncio.Task[None] | None = None
        #: when storage went down (``None`` while it works)
        self.down_since: float | None = None
        self.error: str | None = None
        self.outages = 0
        #: in a cluster: called with a room whose write was refused (another node holds its
        #: lease); the room is dropped at once
        self.fenced: Callable[[str], None] | None = None

    # -- lifecycle -------------------------------------------------------------------
    def start_heartbeat(self) -> None:
        self._heartbeat = asyncio.create_task(self._beat())

    def cancel(self) -> None:
        """Stop the heartbeat and the recovery loop."""
        for task in (self._heartbeat, self._recovery):
            if task is not None:
                task.cancel()

    async def last_beat(self) -> None:
        if self.down_since is None:
            try:
                await self.db(self.store.beat, self.clock.time())
            except Exception as exc:
                log.warning("last heartbeat not stored: %s", exc)

    def shutdown(self) -> None:
        self._db.shutdown(wait=True)

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kwargs))

    async def _beat(self) -> None:
        while True:
            await self.clock.sleep(HEARTBEAT_SECONDS)
            if self.down_since is not None:
                continue
            try:
                await self.db(self.store.beat, self.clock.time())
            except Exception as exc:
                self.failed(exc)

    def broadcast(self, rt: RoomRuntime) -> None:
        """Send every client of ``rt`` its view of the room now (the clocks standing still
        while storage is down)."""
        broadcast(rt, self.down_since, self.clock.time())

    # -- writes ----------------------------------------------------------------------
    async def write(self, rt: RoomRuntime, fn: Callable[..., Any], *args: Any, **kw: Any) -> None:
        """A write about ``rt``'s room outside its event log (seats, the room row). On failure
        the room is put back as stored and :class:`StorageDown` is raised."""
        if self.down_since is not None:
            self.rollback(rt)
            raise StorageDown()
        rt.writing += 1
        try:
            await self.db(fn, *args, **kw)
        except Fenced:
            raise self._lost(rt) from None
        except Exception as exc:
            self.rollback(rt)
            self.failed(exc)
            raise StorageDown() from None
        finally:
            self._settled(rt)

    async def append(self, rt: RoomRuntime, item: Append) -> None:
        """Store one event of ``rt``'s room (group commit). On failure the room is put back
        exactly as stored and :class:`StorageDown` is raised."""
        if self.down_since is not None:
            self.rollback(rt)
            raise StorageDown()
        rt.writing += 1
        try:
            await self.writer.append(item)
        except Fenced:
            raise self._lost(rt) from None
        except Exception as exc:
            rt.uncertain = True  # the commit may have happened although its answer was lost
            self.rollback(rt)
            self.failed(exc)
            raise StorageDown() from None
        finally:
            self._settled(rt)
        rt.events.append(logged(item.ev))
        if item.room:
            rt.row.update(item.room)

    def _settled(self, rt: RoomRuntime) -> None:
        """A write of ``rt``'s room has ended (stored, or failed and the room put back). If
        storage went down while it was in flight, the room was not shown then (it held a
        change not yet stored): it is shown now, as stored."""
        rt.writing -= 1
        if rt.writing == 0 and rt.unshown:
            rt.unshown = False
            if self.down_since is not None:
                self.broadcast(rt)

    def _lost(self, rt: RoomRuntime) -> ClientError:
        """A write refused by the fencing check: the room is dropped (its clients reconnect
        to the node that runs it now)."""
        if self.fenced is not None:
            self.fenced(rt.room.code)
        return ClientError(
            ServerCode.STORAGE_UNAVAILABLE,
            "this game moved to another server; nothing changed here — reconnect and try again",
        )

    def rollback(self, rt: RoomRuntime) -> None:
        """Put the room back exactly as stored: rebuilt from its stored row, seats and log."""
        old = rt.room
        done = replay(stored_room(old, rt.seats, rt.row), rt.events)
        adopt(rt, done.room)
        if done.room.round_over and not done.room.match_over:
            done.room.pause_until = old.pause_until
        rt.stop_clocks()

    # -- storage down and recovery ---------------------------------------------------
    def failed(self, exc: BaseException) -> None:
        """Storage failed: every room waits until it works again."""
        self.error = describe(exc)
        if self.down_since is not None:
            return
        self.down_since = self.clock.time()
        self.outages += 1
        log.error("storage failed, rooms wait until it works again: %s", self.error)
        for rt in self.rooms.values():
            rt.stop_clocks()
            if rt.writing:
                # it holds a change whose write is in flight: shown once that write has ended
                # (:meth:`_settled`), never before, as nothing unstored is ever shown
                rt.unshown = True
            else:
                self.broadcast(rt)
        self._recovery = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        delay = RETRY_SECONDS[0]
        while True:
            await self.clock.sleep(delay)
            delay = min(RETRY_SECONDS[1], delay * 2)
            try:
                await self.db(self.store.beat, self.clock.time())
            except Exception as exc:
                self.error = describe(exc)
                continue
            try:
                await self._resume_rooms()
            except Exception as exc:
                self.error = describe(exc)
                log.warning("storage answers but resuming rooms failed: %s", exc)
                continue
            return

    async def _resume_rooms(self) -> None:
        """Storage works again: reload the rooms whose last write is in doubt, give every
        player the time of his turn he had when saving stopped, and go on."""
        assert self.down_since is not None
        outage = self.down_since
        paused = self.clock.time() - outage
        for code, rt in list(self.rooms.items()):
            if rt.resumed == outage:
                continue
            async with rt.lock:
                if rt.uncertain:
                    sr = await self.db(self.store.load_room, code)
                    if sr is not None:
                        done = replay(sr)
                        if done.damage is None:
                            adopt(rt, done.room)
                            rt.events = done.events
                            rt.seats = [stored_seat(s) for s in done.room.seats]
                            rt.row = stored_row(sr)
                    rt.uncertain = False
                room = rt.room
                if room.in_turn and room.turn_started is not None:
                    room.turn_started += paused
                    try:
                        await self.db(self.store.update_room, code, turn_started=room.turn_started)
                    except Fenced:
                        self._lost(rt)
                        continue
                    rt.row["turn_started"] = room.turn_started
                if room.pause_until is not None:
                    room.pause_until += paused
                rt.resumed = outage
        self.down_since = None
        self.error = None
        log.warning("storage works again after %.1f s; rooms go on", paused)
        await self._resume()

    def status(self) -> dict[str, Any]:
        return {
            "ok": self.down_since is None,
            "down_for": (
                None if self.down_since is None else round(self.clock.time() - self.down_since, 1)
            ),
            "error": self.error,
            "outages": self.outages,
        }
