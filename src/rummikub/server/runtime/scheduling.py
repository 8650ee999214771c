"""What happens by itself in time: the turn clock, the bots' moves, the pause between rounds,
the disconnect grace periods (of a player of a running game, and of the host of a waiting room:
the host role passes on when he is gone), and the reaper that forgets finished rooms and closes
rooms nobody came to. Nothing is armed while storage is down: the rooms wait."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from rummikub.core import IllegalPlayError

from ..protocol.refusals import ClientError
from ..rooms.seats import Seat
from ..work import jobs
from ..work.pool import JobTimeout, WorkPool
from .clock import Clock
from .periodic import every
from .persistence import Persistence
from .room_runtime import RoomRuntime, host_gone

__all__ = [
    "FINISHED_KEEP_SECONDS",
    "REAP_SECONDS",
    "WAITING_IDLE_SECONDS",
    "Scheduler",
]

log = logging.getLogger("rummikub.server")


def stop_after(budget: float) -> float:
    """The hard limit of a job that should think ``budget`` seconds: past it the job is stopped
    (room for a busy machine, and for the process's own start)."""
    return budget * 1.5 + 2.0


FINISHED_KEEP_SECONDS = 600.0
#: a waiting room with no person in it for this long is closed (it never started)
WAITING_IDLE_SECONDS = 600.0
#: how often the reaper looks
REAP_SECONDS = 30.0

#: apply an action for the player to move, store it, schedule and broadcast (room lock held)
Commit = Callable[[RoomRuntime, object], Awaitable[None]]
#: start the next round of a match (room lock held)
NextRound = Callable[[RoomRuntime], Awaitable[None]]


class Scheduler:
    """Arms and runs the timers and bots of every room, on ``clock``. ``commit`` and
    ``next_round`` are the rooms' actions a timer or a bot takes."""

    def __init__(
        self,
        storage: Persistence,
        rooms: dict[str, RoomRuntime],
        work: WorkPool,
        clock: Clock,
        *,
        commit: Commit,
        next_round: NextRound,
        lobby_changed: Callable[[], object] = lambda: None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.rooms = rooms
        self._work = work
        self._commit = commit
        self._next_round = next_round
        self._lobby_changed = lobby_changed
        self._reaper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- lifecycle -------------------------------------------------------------------
    def start_reaper(self) -> None:
        self._reaper = asyncio.create_task(
            every(
                self.clock,
                REAP_SECONDS,
                lambda: self.reap(self.clock.time()),
                "reaping rooms failed",
            )
        )

    def cancel(self) -> None:
        """Stop the reaper and every background job."""
        for task in (self._reaper, *self._tasks):
            if task is not None:
                task.cancel()

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run a background job; a refusal it meets (storage down) is already handled."""

        async def run() -> None:
            try:
                await coro
            except ClientError:
                pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background job failed")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the reaper ------------------------------------------------------------------
    async def reap(self, now: float) -> None:
        """Forget finished rooms nobody watches any more (they stay in the database) and close
        waiting rooms no person has been in for :data:`WAITING_IDLE_SECONDS`."""
        for code, rt in list(self.rooms.items()):
            room = rt.room
            if room.status in ("finished", "abandoned"):
                age = now - (room.finished_at or now)
                if (not rt.conns and age > 60) or age > FINISHED_KEEP_SECONDS:
                    self.rooms.pop(code, None)
                continue
            if room.status != "waiting" or self.storage.down_since is not None:
                continue
            if any(c.seat is not None for c in rt.conns):
                rt.last_seen = now
                continue
            if now - rt.last_seen < WAITING_IDLE_SECONDS:
                continue
            async with rt.lock:
                if room.status != "waiting" or any(c.seat is not None for c in rt.conns):
                    continue
                try:
                    await self.storage.write(
                        rt,
                        self.storage.store.update_room,
                        code,
                        status="abandoned",
                        finished_at=now,
                    )
                except ClientError:
                    return
                room.status = rt.row["status"] = "abandoned"
                room.finished_at = rt.row["finished_at"] = now
                log.info("room %s closed: nobody came for %.0f s", code, now - rt.last_seen)
                self.storage.broadcast(rt)
            self.rooms.pop(code, None)

    # -- turns -----------------------------------------------------------------------
    def schedule(self, rt: RoomRuntime) -> None:
        """Arm the turn clock, the bot of the player to move, or the pause between rounds.
        Nothing is armed while storage is down: the rooms wait."""
        room = rt.room
        loop = asyncio.get_running_loop()
        clock = self.clock
        if not room.started or self.storage.down_since is not None:
            return
        if room.in_turn:
            key = room.turn_key()
            deadline = room.deadline()
            if deadline is not None and rt.clock_key != key:
                if rt.clock is not None:
                    rt.clock.cancel()
                rt.clock_key = key
                rt.clock = clock.call_later(
                    max(0.0, deadline - clock.time()),
                    lambda: self.spawn(self._timeout(rt, key)),
                )
            seat = room.current_seat()
            assert seat is not None
            if seat.bot_controlled and rt.bot_key != key:
                rt.bot_key = key
                rt.bot_task = loop.create_task(self._bot_turn(rt, key, seat.seat))
        else:
            if rt.clock is not None:
                rt.clock.cancel()
                rt.clock = None
            if not room.match_over and rt.pause is None and room.pause_until is not None:
                rt.pause = clock.call_later(
                    max(0.0, room.pause_until - clock.time()),
                    lambda: self.spawn(self._pause_over(rt)),
                )

    async def _timeout(self, rt: RoomRuntime, key: tuple[int, int]) -> None:
        async with rt.lock:
            room = rt.room
            if self.storage.down_since is None and room.in_turn and room.turn_key() == key:
                await self._commit(rt, room.timeout_action())

    async def _bot_turn(self, rt: RoomRuntime, key: tuple[int, int], index: int) -> None:
        try:
            await self._bot_move(rt, key, index)
        except ClientError:
            pass  # storage down: the bot moves again once it is back
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot turn failed in room %s", rt.room.code)

    async def _bot_move(self, rt: RoomRuntime, key: tuple[int, int], index: int) -> None:
        await self.clock.sleep(rt.room.settings.bot_delay)
        async with rt.lock:
            room = rt.room
            if self.storage.down_since is not None or not room.in_turn or room.turn_key() != key:
                return
            seat = room.seats[index]
            if not seat.bot_controlled:
                rt.bot_key = None
                return
            deadline = room.deadline()
            now = self.clock.time()
            # the answer is due a second before the turn ends (at least half a second from now)
            due = None if deadline is None else now + max(0.5, deadline - now - 1.0)
            task = room.bot_task(seat, rt.bot_level(seat), due, now)
            # the worker process reads the system's clock: the same time left, on that clock
            job_deadline = None if task.deadline is None else time.time() + task.deadline - now
        action: object | None
        try:
            # the answer is due within the hard limit of the bot's budget from now: waiting for
            # a worker counts too (a job still waiting then is dropped, a running one stopped)
            action, bot = await asyncio.wait_for(
                self._work.run(
                    f"room:{room.code}",
                    stop_after(task.cap),
                    jobs.bot_move,
                    task.bot,
                    task.obs,
                    task.cap,
                    job_deadline,
                ),
                stop_after(task.cap),
            )
            task.keep(bot)
        except (JobTimeout, TimeoutError):
            log.warning(
                "bot %s in room %s overran its %.1f s and was stopped: its turn times out",
                task.name,
                room.code,
                task.cap,
            )
            action = None
        except Exception as exc:
            log.warning("bot %s failed in room %s: %s", task.name, rt.room.code, exc)
            action = task.fallback()
        async with rt.lock:
            room = rt.room
            if self.storage.down_since is not None or not room.in_turn or room.turn_key() != key:
                return
            if not room.seats[index].bot_controlled:
                rt.bot_key = None
                return
            if action is None:
                action = room.timeout_action()
            try:
                await self._commit(rt, action)
            except IllegalPlayError:
                await self._commit(rt, task.fallback())

    async def _pause_over(self, rt: RoomRuntime) -> None:
        async with rt.lock:
            rt.pause = None
            if self.storage.down_since is None:
                await self._next_round(rt)

    # -- disconnects -----------------------------------------------------------------
    def arm_grace(self, rt: RoomRuntime, seat: Seat, delay: float | None = None) -> None:
        """Wait ``seat``'s grace period (the room's, or ``delay`` seconds) before the server
        treats him as gone."""
        old = rt.grace.pop(seat.seat, None)
        if old is not None:
            old.cancel()
        rt.grace[seat.seat] = self.clock.call_later(
            rt.room.settings.grace_seconds if delay is None else delay,
            lambda: self.spawn(self._grace_over(rt, seat.seat)),
        )

    async def _grace_over(self, rt: RoomRuntime, index: int) -> None:
        async with rt.lock:
            rt.grace.pop(index, None)
            seat = rt.room.seats[index]
            if seat.connections == 0 and rt.room.status == "playing":
                seat.standin = True
                rt.room.note(index, "standin")
                self.schedule(rt)
                self.storage.broadcast(rt)
            elif rt.room.status == "waiting":
                room = rt.room
                now = self.clock.time()
                if (
                    index == room.settings.host
                    and seat.connections == 0
                    and seat.disconnected_at is not None
                    and not host_gone(room, now)
                ):
                    # the timer runs on the monotonic clock, the grace on the wall clock (it
                    # outlives a restart): should the wall clock lag (set back, slewed), wait
                    # the rest of it rather than leave the room waiting for a start forever
                    left = room.settings.grace_seconds - (now - seat.disconnected_at)
                    self.arm_grace(rt, seat, min(room.settings.grace_seconds, max(left, 0.05)))
                    return
                await self.settle_host(rt)

    async def settle_host(self, rt: RoomRuntime) -> None:
        """A waiting room whose host is gone (:func:`.host_gone`) passes the host role to the
        first person seated who is there, who may start the game now; with nobody there, the
        room leaves the lobby until somebody comes (this is called again then). The caller
        holds the room's lock."""
        room = rt.room
        if not host_gone(room, self.clock.time()):
            return
        here = [
            s
            for s in room.seats
            if s.kind == "human" and s.taken and s.connections > 0 and s.seat != room.settings.host
        ]
        if here:
            await self.pass_host(rt, here[0].seat)
            log.info("room %s: the host is gone; seat %d is host now", room.code, here[0].seat + 1)
            self.storage.broadcast(rt)
        self._lobby_changed()

    async def pass_host(self, rt: RoomRuntime, index: int) -> None:
        """Make seat ``index`` the host of ``rt``'s room (stored first). Lock held."""
        room = rt.room
        settings = {**room.settings.to_dict(), "host": index}
        await self.storage.write(
            rt, self.storage.store.update_room, room.code, settings=json.dumps(settings)
        )
        room.settings.host = index
        rt.row["settings"] = settings
