"""The room manager: connections, one lock per room, the server-side turn clock, bots in a
worker thread, disconnect grace periods, and the event log in the database.

Every change to a room happens under that room's :class:`asyncio.Lock` and takes effect only
once it is stored: the room is changed, the change is written, and only then broadcast. When
the write fails the room is put back exactly as stored (rebuilt from its stored event log), the
player is told that nothing changed, and the server goes into *storage down* mode: every room
waits (clocks paused, bots idle, clients told "saving…") while the server keeps trying the
database; when it answers again, rooms whose last write is in doubt are reloaded from it and
every clock goes on with the time its player had. Outgoing messages go through a bounded queue
per connection, so a slow or flooding client never holds up a room or another room; what one
client address may cost is budgeted (:mod:`.admission`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rummikub.bots.registry import bot_levels
from rummikub.core import Code, IllegalPlayError, RummikubError
from rummikub.games import get_game
from rummikub.solver.warm import warm_up

from . import protocol as p
from .admission import Admission, Limits
from .codes import ServerCode
from .connection import Connection
from .games import room_game
from .restore import Damage, logged, replay, stored_room, stored_row
from .room import Room, Seat, Settings, default_level, hash_token, new_code, new_token
from .runtime import ClientError, RoomRuntime, refused, stored_seat
from .storage import Append, Store, StoredEvent, StoredRoom
from .writer import GroupWriter

__all__ = ["ClientError", "Connection", "RoomManager"]

log = logging.getLogger("rummikub.server")


def _warm_up() -> None:
    log.info("solver kernels ready in %.1f s", warm_up())


T = TypeVar("T")

HEARTBEAT_SECONDS = 1.0
FINISHED_KEEP_SECONDS = 600.0
#: a waiting room with no person in it for this long is closed (it never started)
WAITING_IDLE_SECONDS = 600.0
#: how often the reaper looks
REAP_SECONDS = 30.0
#: how often storage is tried again while it is down (first try; doubles up to the maximum)
RETRY_SECONDS = (0.25, 2.0)
#: records of finished games kept ready to serve
RECORD_CACHE = 256
#: seconds the lobby lists are reused before they are built again
LOBBY_TTL = 1.0

STORAGE_DOWN = (
    "the server cannot save right now, so nothing changed; the game waits and goes on by "
    "itself once saving works again — then try again"
)


def _describe(exc: BaseException) -> str:
    """An error in one short line, for the log and ``/api/health``."""
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


class StorageDown(ClientError):
    def __init__(self) -> None:
        super().__init__(ServerCode.STORAGE_UNAVAILABLE, STORAGE_DOWN)


class RoomManager:
    """All rooms of one server."""

    def __init__(
        self,
        store: Store,
        *,
        rate: float = 20.0,
        burst: float = 60.0,
        bot_threads: int = 2,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.rooms: dict[str, RoomRuntime] = {}
        #: rooms whose stored log could not be replayed: kept, reported, record readable
        #: (``None`` for the room when not even its row could be read)
        self.damaged: dict[str, tuple[Room | None, Damage]] = {}
        self.admission = Admission(limits or Limits(conn_rate=rate, conn_burst=burst))
        self._db = ThreadPoolExecutor(1, thread_name_prefix="rummikub-db")
        self._writer = GroupWriter(store, self._db)
        self._cpu = ThreadPoolExecutor(bot_threads, thread_name_prefix="rummikub-bot")
        self._check = ThreadPoolExecutor(1, thread_name_prefix="rummikub-check")
        self._heartbeat: asyncio.Task[None] | None = None
        self._reaper: asyncio.Task[None] | None = None
        self._recovery: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: when storage went down (``None`` while it works)
        self.down_since: float | None = None
        self.storage_error: str | None = None
        self.outages = 0
        self._records: OrderedDict[str, str] = OrderedDict()
        self._lobby: tuple[float, dict[str, list[dict[str, Any]]]] | None = None
        self._finished: tuple[float, list[dict[str, Any]]] | None = None
        self.started_at = time.time()
        self._rooms_made = 0

    # -- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        # load the solver's compiled kernels in the background (compile them, the first time
        # after an install), so the first bot move or hint does not pay for it
        self._cpu.submit(_warm_up)
        last = await self.db(self.store.last_beat)
        stored = await self.db(self.store.load_active)
        now = time.time()
        for sr in stored:
            try:
                rt = self._restore(sr, last, now)
            except (RummikubError, KeyError, TypeError, ValueError) as exc:
                damage = Damage(0, "room", f"{type(exc).__name__}: {exc}", 0)
                log.error("room %s cannot be restored: its row: %s", sr.code, damage.error)
                self.damaged[sr.code] = (None, damage)
                continue
            if rt is None:
                continue
            self.rooms[sr.code] = rt
            if rt.room.turn_started is not None:
                await self.db(self.store.update_room, sr.code, turn_started=rt.room.turn_started)
                rt.row["turn_started"] = rt.room.turn_started
        await self.db(self.store.beat, now)
        for rt in self.rooms.values():
            rt.last_seen = now
            for seat in rt.room.seats:
                if seat.kind == "human" and seat.taken and rt.room.started:
                    seat.disconnected_at = now
                    self._arm_grace(rt, seat)
            self._schedule(rt)
        self._heartbeat = asyncio.create_task(self._beat())
        self._reaper = asyncio.create_task(self._reap())

    async def stop(self) -> None:
        for task in (self._heartbeat, self._reaper, self._recovery, *self._tasks):
            if task is not None:
                task.cancel()
        for rt in self.rooms.values():
            rt.cancel_timers()
        if self.down_since is None:
            try:
                await self.db(self.store.beat)
            except Exception as exc:
                log.warning("last heartbeat not stored: %s", exc)
        self._cpu.shutdown(wait=False, cancel_futures=True)
        self._check.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kwargs))

    def _spawn(self, coro: Awaitable[Any]) -> None:
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

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            if self.down_since is not None:
                continue
            try:
                await self.db(self.store.beat)
            except Exception as exc:
                self._storage_failed(exc)

    async def _reap(self) -> None:
        while True:
            await asyncio.sleep(REAP_SECONDS)
            try:
                await self.reap(time.time())
            except Exception:
                log.exception("reaping rooms failed")

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
            if room.status != "waiting" or self.down_since is not None:
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
                    await self._write(
                        rt, self.store.update_room, code, status="abandoned", finished_at=now
                    )
                except ClientError:
                    return
                room.status = rt.row["status"] = "abandoned"
                room.finished_at = rt.row["finished_at"] = now
                log.info("room %s closed: nobody came for %.0f s", code, now - rt.last_seen)
                self._broadcast(rt)
            self.rooms.pop(code, None)

    # -- storage ---------------------------------------------------------------------
    async def _write(self, rt: RoomRuntime, fn: Callable[..., Any], *args: Any, **kw: Any) -> None:
        """A write about ``rt``'s room outside its event log (seats, the room row). On failure
        the room is put back as stored and :class:`StorageDown` is raised."""
        if self.down_since is not None:
            self._rollback(rt)
            raise StorageDown()
        try:
            await self.db(fn, *args, **kw)
        except Exception as exc:
            self._rollback(rt)
            self._storage_failed(exc)
            raise StorageDown() from None

    async def _append(self, rt: RoomRuntime, item: Append) -> None:
        """Store one event of ``rt``'s room (group commit). On failure the room is put back
        exactly as stored and :class:`StorageDown` is raised."""
        if self.down_since is not None:
            self._rollback(rt)
            raise StorageDown()
        try:
            await self._writer.append(item)
        except Exception as exc:
            rt.uncertain = True  # the commit may have happened although its answer was lost
            self._rollback(rt)
            self._storage_failed(exc)
            raise StorageDown() from None
        rt.events.append(logged(item.ev))
        if item.room:
            rt.row.update(item.room)

    def _rollback(self, rt: RoomRuntime) -> None:
        """Put the room back exactly as stored: rebuilt from its stored row, seats and log."""
        old = rt.room
        done = replay(stored_room(old, rt.seats, rt.row), rt.events)
        self._adopt(rt, done.room)
        if done.room.round_over and not done.room.match_over:
            done.room.pause_until = old.pause_until
        rt.stop_clocks()

    @staticmethod
    def _adopt(rt: RoomRuntime, room: Room) -> None:
        """Make ``room`` the room of ``rt``, keeping who is connected to which seat."""
        for new, old in zip(room.seats, rt.room.seats, strict=True):
            new.connections = old.connections
            new.standin = old.standin
            new.disconnected_at = old.disconnected_at
            new.person = old.person if new.token_hash == old.token_hash else None
        room.bots = rt.room.bots
        rt.room = room

    def _storage_failed(self, exc: BaseException) -> None:
        """Storage failed: every room waits until it works again."""
        self.storage_error = _describe(exc)
        if self.down_since is not None:
            return
        self.down_since = time.time()
        self.outages += 1
        log.error("storage failed, rooms wait until it works again: %s", self.storage_error)
        for rt in self.rooms.values():
            rt.stop_clocks()
            self._broadcast(rt)
        self._recovery = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        delay = RETRY_SECONDS[0]
        while True:
            await asyncio.sleep(delay)
            delay = min(RETRY_SECONDS[1], delay * 2)
            try:
                await self.db(self.store.beat)
            except Exception as exc:
                self.storage_error = _describe(exc)
                continue
            try:
                await self._resume_rooms()
            except Exception as exc:
                self.storage_error = _describe(exc)
                log.warning("storage answers but resuming rooms failed: %s", exc)
                continue
            return

    async def _resume_rooms(self) -> None:
        """Storage works again: reload the rooms whose last write is in doubt, give every
        player the time of his turn he had when saving stopped, and go on."""
        assert self.down_since is not None
        outage = self.down_since
        paused = time.time() - outage
        for code, rt in list(self.rooms.items()):
            if rt.resumed == outage:
                continue
            async with rt.lock:
                if rt.uncertain:
                    sr = await self.db(self.store.load_room, code)
                    if sr is not None:
                        done = replay(sr)
                        if done.damage is None:
                            self._adopt(rt, done.room)
                            rt.events = done.events
                            rt.seats = [stored_seat(s) for s in done.room.seats]
                            rt.row = stored_row(sr)
                    rt.uncertain = False
                room = rt.room
                if room.in_turn and room.turn_started is not None:
                    room.turn_started += paused
                    await self.db(self.store.update_room, code, turn_started=room.turn_started)
                    rt.row["turn_started"] = room.turn_started
                if room.pause_until is not None:
                    room.pause_until += paused
                rt.resumed = outage
        self.down_since = None
        self.storage_error = None
        log.warning("storage works again after %.1f s; rooms go on", paused)
        for rt in list(self.rooms.values()):
            if rt.room.status == "waiting" and rt.room.all_taken:
                # the game was to start when saving stopped
                async with rt.lock:
                    if rt.room.status == "waiting" and rt.room.all_taken:
                        try:
                            await self._begin(rt)
                        except ClientError:
                            return  # saving failed again: the next recovery goes on
            self._schedule(rt)
            self._broadcast(rt)

    def storage_status(self) -> dict[str, Any]:
        return {
            "ok": self.down_since is None,
            "down_for": (
                None if self.down_since is None else round(time.time() - self.down_since, 1)
            ),
            "error": self.storage_error,
            "outages": self.outages,
        }

    def _restore(self, sr: StoredRoom, last_beat: float | None, now: float) -> RoomRuntime | None:
        """The runtime of a stored room at server start (``None`` when its log is damaged:
        it is then kept in :attr:`damaged`)."""
        done = replay(sr)
        room = done.room
        if done.damage is not None:
            self.damaged[sr.code] = (room, done.damage)
            log.error(
                "room %s cannot be restored: event %d (%s) fails: %s; kept with its first %d "
                "events, record readable",
                sr.code,
                done.damage.seq,
                done.damage.kind,
                done.damage.error,
                done.damage.replayed,
            )
            return None
        if sr.turn_started is not None:
            # The clock stood still while the server was down: the player keeps the time he
            # had when the server last showed signs of life.
            stopped = last_beat if last_beat is not None else now
            used = max(0.0, min(stopped, now) - sr.turn_started)
            room.turn_started = now - used
        if room.round_over and not room.match_over:
            room.pause_until = now + room.settings.round_pause
        return RoomRuntime(room, done.events, stored_row(sr))

    # -- connections -----------------------------------------------------------------
    def new_connection(
        self,
        send: Callable[[str], Any],
        close: Callable[[int], Any],
        *,
        client: str = "unknown",
        person: str | None = None,
    ) -> Connection:
        conn = Connection(
            send,
            close,
            bucket=self.admission.connection_bucket(),
            budget=self.admission.budget(client),
            client=client,
            person=person,
        )
        conn.start()
        return conn

    async def receive(self, conn: Connection, text: str | bytes) -> None:
        """Handle one raw message from a client."""
        if not (conn.bucket.take() and conn.budget.messages.take()):
            await self._refuse_flood(conn, text)
            return
        try:
            msg = p.parse_message(text)
        except p.ProtocolError as exc:
            conn.send(
                {
                    "type": "error",
                    "id": exc.msg_id,
                    "code": exc.code,
                    "params": exc.params,
                    "message": exc.message,
                }
            )
            return
        try:
            await self.dispatch(conn, msg)
        except ClientError as exc:
            conn.send(exc.reply(msg.id))
        except RummikubError as exc:
            refused = ClientError(ServerCode.RULES, str(exc), params=exc.params, reason=exc.code)
            conn.send(refused.reply(msg.id))
        except Exception:
            log.exception("message %s failed", getattr(msg, "type", "?"))
            failed = ClientError(
                ServerCode.INTERNAL, "the server failed to handle this message; nothing changed"
            )
            conn.send(failed.reply(msg.id))

    async def _refuse_flood(self, conn: Connection, text: str | bytes) -> None:
        """A message over the rate limit: dropped before parsing, but a request that carries
        an id is answered, so its sender does not wait for ever."""
        conn.dropped += 1
        msg_id = p.peek_id(text)
        now = time.monotonic()
        if msg_id is not None or now - conn.last_limit_notice > 1.0:
            conn.last_limit_notice = now
            wait = max(conn.bucket.wait(), conn.budget.messages.wait())
            limited = ClientError(
                ServerCode.RATE_LIMITED, "too many messages; slow down", retry_after=round(wait, 2)
            )
            conn.send(limited.reply(msg_id))
        if conn.dropped > 2000:
            conn.closed = True
            await conn.safe_close(1008)

    async def disconnect(self, conn: Connection) -> None:
        await conn.finish()
        with contextlib.suppress(ClientError):
            await self._detach(conn, leaving=False)

    async def dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, p.PingMsg):
            conn.send({"type": "pong", "id": msg.id, "time": time.time()})
            return
        if isinstance(msg, p.CreateMsg):
            await self._create(conn, msg)
            return
        if isinstance(msg, p.JoinMsg | p.ResumeMsg | p.WatchMsg):
            await self._enter(conn, msg)
            return
        rt = self.rooms.get(conn.room) if conn.room else None
        if rt is None:
            raise ClientError(ServerCode.NO_ROOM, "join or create a room first")
        async with rt.lock:
            if isinstance(msg, p.LeaveMsg):
                await self._detach(conn, leaving=True, locked=True)
                conn.send({"type": "left", "id": msg.id})
                return
            if isinstance(msg, p.ChatMsg):
                await self._chat(rt, conn, msg.text)
                conn.send({"type": "ok", "id": msg.id})
                return
            seat = self._seat_of(rt, conn)
            if isinstance(msg, p.CheckMsg):
                room = rt.room
                checked = await self._work(
                    conn, lambda: room.check_table(seat.seat, msg.table), self._check
                )
                conn.send({**checked, "id": msg.id})
                return
            if self.down_since is not None and not isinstance(msg, p.HintMsg):
                raise StorageDown()
            if isinstance(msg, p.StartMsg):
                await self._start_now(rt, seat, msg.id)
                conn.send({"type": "ok", "id": msg.id})
                return
            if isinstance(msg, p.NextRoundMsg):
                await self._ready(rt, seat)
                return
            room = rt.room
            # what is left is a hint or a move of some game
            if not isinstance(msg, p.HintMsg) and not room.accepts(msg):
                raise ClientError(Code.WRONG_GAME, room.wrong_game())
            if not room.in_turn or room.current_seat() is not seat:
                raise ClientError(Code.NOT_YOUR_TURN, "it is not your turn")
            if isinstance(msg, p.HintMsg):
                await self._hint(rt, conn, seat, msg.id)
                return
            self._admit_work(conn)
            try:
                action = room.action_for(msg)
            except IllegalPlayError as exc:
                raise refused(Code.ILLEGAL, exc, meld=exc.meld) from None
            except RummikubError as exc:
                raise refused(ServerCode.BAD_PLAY, exc) from None
            try:
                await self._commit(rt, action, conn)
            except IllegalPlayError as exc:
                raise refused(Code.ILLEGAL, exc, meld=exc.meld) from None
            conn.send({"type": "ok", "id": msg.id})

    @staticmethod
    def _admit_work(conn: Connection) -> None:
        if not conn.budget.work.has():
            raise ClientError(
                ServerCode.BUSY,
                "you have asked the server for too much work; wait a moment",
                retry_after=round(conn.budget.work.wait(), 2),
            )

    async def _work(
        self, conn: Connection, job: Callable[[], T], pool: ThreadPoolExecutor | None = None
    ) -> T:
        """Run a costly job for ``conn`` off the event loop and charge its CPU time to the
        client's work budget (refused at once while the budget is spent)."""
        self._admit_work(conn)

        def timed() -> tuple[T, float]:
            start = time.thread_time()
            out = job()
            return out, time.thread_time() - start

        loop = asyncio.get_running_loop()
        out, spent = await loop.run_in_executor(pool or self._cpu, timed)
        conn.budget.work.charge(spent)
        return out

    def _seat_of(self, rt: RoomRuntime, conn: Connection) -> Seat:
        if conn.seat is None:
            raise ClientError(ServerCode.SPECTATOR, "spectators cannot act")
        return rt.room.seats[conn.seat]

    # -- rooms -----------------------------------------------------------------------
    async def _create(self, conn: Connection, msg: p.CreateMsg) -> None:
        if self.down_since is not None:
            raise StorageDown()
        game = get_game(msg.game)
        part = room_game(game.name)
        try:
            rules = part.rules_from_message(msg.rules)
            part.check_players(rules, len(msg.seats))
        except RummikubError as exc:
            raise refused(Code.BAD_RULES, exc) from None
        if msg.seats[0].kind != "human":
            raise ClientError(
                ServerCode.BAD_SEATS,
                "seat 1 is the creator's and must be a person",
                params={"seat": 1},
            )
        levels = bot_levels(game.name)
        default = default_level(levels)
        seats: list[Seat] = []
        for i, spec in enumerate(msg.seats):
            level = None
            if spec.kind == "bot":
                level = spec.level or default
                if level not in levels:
                    raise ClientError(
                        ServerCode.BAD_SEATS,
                        f"seat {i + 1}: unknown bot level {level!r} (levels: {', '.join(levels)})",
                        params={"seat": i + 1, "level": level},
                    )
            seats.append(Seat(i, spec.kind, level))
        st = msg.settings
        standin = st.standin or default
        if standin not in levels:
            raise ClientError(
                ServerCode.BAD_SETTINGS,
                f"unknown stand-in bot level {standin!r}",
                params={"level": standin},
            )
        if not conn.budget.rooms.take():
            raise ClientError(
                ServerCode.TOO_MANY_ROOMS,
                "you have created many rooms in a short time; wait a little before the next",
                retry_after=round(conn.budget.rooms.wait(), 1),
            )
        settings = Settings(
            st.hints, st.grace_seconds, st.public, st.bot_delay, st.round_pause, standin
        )
        if conn.room is not None:
            await self._detach(conn, leaving=False)
        code = new_code()
        while code in self.rooms or await self._code_used(code):
            code = new_code()
        now = time.time()
        seed = self._deal_seed()
        room = Room(code, rules, settings, seed, seats, now, game=game)
        token = new_token()
        seats[0].name = msg.name
        seats[0].token_hash = hash_token(token)
        seats[0].person = conn.person
        rt = RoomRuntime(room)
        try:
            await self.db(self.store.create_room, stored_room(room, rt.seats, rt.row))
        except Exception as exc:
            self._storage_failed(exc)
            raise StorageDown() from None
        self.rooms[code] = rt
        self._lobby = None
        async with rt.lock:
            self._attach(rt, conn, 0)
            conn.send(
                {
                    "type": "joined",
                    "id": msg.id,
                    "room": code,
                    "seat": 0,
                    "token": token,
                    "chat": [],
                }
            )
            if room.all_taken:
                await self._begin(rt)
            self._broadcast(rt)

    def _deal_seed(self) -> int:
        """A secret random seed for a new room's deals; with ``RUMMIKUB_TEST_SEED`` set (for
        tests and bug reports only) the n-th room of the run gets ``seed * 1000 + n``."""
        self._rooms_made += 1
        fixed = os.environ.get("RUMMIKUB_TEST_SEED")
        if fixed:
            return int(fixed) * 1000 + self._rooms_made
        return secrets.randbits(48)

    async def _code_used(self, code: str) -> bool:
        found = await self.db(self.store.load_room, code, events=False)
        return found is not None

    async def _enter(self, conn: Connection, msg: p.JoinMsg | p.ResumeMsg | p.WatchMsg) -> None:
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
            await self._detach(conn, leaving=False)
        async with rt.lock:
            room = rt.room
            if room.status == "abandoned":
                raise ClientError(
                    ServerCode.CLOSED,
                    f"room {code} was closed: everybody left it",
                    params={"room": code},
                )
            if isinstance(msg, p.WatchMsg):
                self._attach(rt, conn, None)
                conn.send({"type": "watching", "id": msg.id, "room": code, "chat": room.chat[-50:]})
            elif isinstance(msg, p.ResumeMsg):
                found = room.seat_by_token(msg.token)
                if found is None:
                    raise ClientError(ServerCode.BAD_TOKEN, "that token does not hold a seat here")
                found.person = conn.person
                self._attach(rt, conn, found.seat)
                conn.send(
                    {
                        "type": "joined",
                        "id": msg.id,
                        "room": code,
                        "seat": found.seat,
                        "token": msg.token,
                        "chat": room.chat[-50:],
                    }
                )
            else:
                if room.status != "waiting":
                    raise ClientError(ServerCode.STARTED, "the game has started; you can watch it")
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
                if self.down_since is not None:
                    raise StorageDown()
                free = room.free_seat(msg.seat)
                if free is None:
                    raise ClientError(
                        ServerCode.FULL,
                        "no free seat" if msg.seat is None else f"seat {msg.seat + 1} is not free",
                        params={} if msg.seat is None else {"seat": msg.seat + 1},
                    )
                token = new_token()
                free.name = msg.name
                free.token_hash = hash_token(token)
                await self._write(rt, self.store.update_seat, code, stored_seat(free))
                rt.seats[free.seat] = stored_seat(free)
                free.person = conn.person
                self._attach(rt, conn, free.seat)
                conn.send(
                    {
                        "type": "joined",
                        "id": msg.id,
                        "room": code,
                        "seat": free.seat,
                        "token": token,
                        "chat": room.chat[-50:],
                    }
                )
                if room.all_taken:
                    await self._begin(rt)
            self._lobby = None
            self._broadcast(rt)

    def _attach(self, rt: RoomRuntime, conn: Connection, seat: int | None) -> None:
        conn.room = rt.room.code
        conn.seat = seat
        rt.conns.add(conn)
        rt.last_seen = time.time()
        if seat is not None:
            s = rt.room.seats[seat]
            s.connections += 1
            s.disconnected_at = None
            handle = rt.grace.pop(seat, None)
            if handle is not None:
                handle.cancel()
            if s.standin:
                s.standin = False
                self._schedule(rt)

    async def _detach(self, conn: Connection, *, leaving: bool, locked: bool = False) -> None:
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
        rt.last_seen = time.time()
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
                s.disconnected_at = time.time()
                if leaving:
                    s.standin = True
                    self._schedule(rt)
                else:
                    self._arm_grace(rt, s)
        self._lobby = None
        self._broadcast(rt)

    async def _free_seat(self, rt: RoomRuntime, s: Seat) -> None:
        """A person leaves a waiting room: his seat is free again. When he was the host, the
        next person seated becomes host; when nobody is left, the room closes."""
        room = rt.room
        index = s.seat
        s.name = s.token_hash = s.person = None
        await self._write(rt, self.store.update_seat, room.code, stored_seat(s))
        rt.seats[index] = stored_seat(s)
        room = rt.room
        others = [x for x in room.seats if x.kind == "human" and x.taken]
        if not others:
            now = time.time()
            await self._write(
                rt, self.store.update_room, room.code, status="abandoned", finished_at=now
            )
            room.status = rt.row["status"] = "abandoned"
            room.finished_at = rt.row["finished_at"] = now
        elif room.settings.host == index:
            room.settings.host = others[0].seat
            settings = room.settings.to_dict()
            await self._write(rt, self.store.update_room, room.code, settings=json.dumps(settings))
            rt.row["settings"] = settings

    def _arm_grace(self, rt: RoomRuntime, seat: Seat) -> None:
        old = rt.grace.pop(seat.seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        rt.grace[seat.seat] = loop.call_later(
            rt.room.settings.grace_seconds,
            lambda: self._spawn(self._grace_over(rt, seat.seat)),
        )

    async def _grace_over(self, rt: RoomRuntime, index: int) -> None:
        async with rt.lock:
            rt.grace.pop(index, None)
            seat = rt.room.seats[index]
            if seat.connections == 0 and rt.room.status == "playing":
                seat.standin = True
                self._schedule(rt)
                self._broadcast(rt)

    async def _start_now(self, rt: RoomRuntime, seat: Seat, msg_id: Any) -> None:
        room = rt.room
        if room.status != "waiting":
            raise ClientError(ServerCode.STARTED, "the game has already started")
        if seat.seat != room.settings.host:
            raise ClientError(ServerCode.NOT_HOST, "only the room's host can start early")
        for s in room.seats:
            if not s.taken:
                s.kind = "bot"
                s.bot = room.settings.standin
                await self._write(rt, self.store.update_seat, room.code, stored_seat(s))
                rt.seats[s.seat] = stored_seat(s)
        await self._begin(rt)
        self._broadcast(rt)

    async def _begin(self, rt: RoomRuntime) -> None:
        room = rt.room
        room.start()
        now = time.time()
        room.turn_started = now
        room.seq += 1
        await self._append(
            rt,
            Append(
                room.code,
                StoredEvent(room.seq, "start", {}, now),
                {"status": "playing", "turn_started": now},
            ),
        )
        self._lobby = None
        # a seat whose holder is not here follows the grace rule from the start
        for s in rt.room.seats:
            if s.kind == "human" and s.taken and s.connections == 0:
                s.disconnected_at = now
                self._arm_grace(rt, s)
        self._schedule(rt)

    # -- turns -----------------------------------------------------------------------
    async def _commit(
        self, rt: RoomRuntime, action: object, conn: Connection | None = None
    ) -> None:
        """Apply an action for the player to move, store it, schedule what follows and
        broadcast. Must hold the room lock. Nothing takes effect unless it is stored."""
        room = rt.room
        assert room.started
        now = time.time()
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
        await self._append(rt, Append(room.code, ev, update, result))
        if room.match_over:
            self._lobby = self._finished = None
        self._schedule(rt)
        self._broadcast(rt)

    def _schedule(self, rt: RoomRuntime) -> None:
        """Arm the turn clock, the bot of the player to move, or the pause between rounds.
        Nothing is armed while storage is down: the rooms wait."""
        room = rt.room
        loop = asyncio.get_running_loop()
        if not room.started or self.down_since is not None:
            return
        if room.in_turn:
            key = room.turn_key()
            deadline = room.deadline()
            if deadline is not None and rt.clock_key != key:
                if rt.clock is not None:
                    rt.clock.cancel()
                rt.clock_key = key
                rt.clock = loop.call_later(
                    max(0.0, deadline - time.time()),
                    lambda: self._spawn(self._timeout(rt, key)),
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
                rt.pause = loop.call_later(
                    max(0.0, room.pause_until - time.time()),
                    lambda: self._spawn(self._pause_over(rt)),
                )

    async def _timeout(self, rt: RoomRuntime, key: tuple[int, int]) -> None:
        async with rt.lock:
            room = rt.room
            if self.down_since is None and room.in_turn and room.turn_key() == key:
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
        await asyncio.sleep(rt.room.settings.bot_delay)
        async with rt.lock:
            room = rt.room
            if self.down_since is not None or not room.in_turn or room.turn_key() != key:
                return
            seat = room.seats[index]
            if not seat.bot_controlled:
                rt.bot_key = None
                return
            deadline = room.deadline()
            left = None if deadline is None else max(0.5, deadline - time.time() - 1.0)
            task = room.bot_task(seat, rt.bot_level(seat), left)
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(self._cpu, task.run)
        except Exception as exc:
            log.warning("bot %s failed in room %s: %s", task.name, rt.room.code, exc)
            action = task.fallback()
        async with rt.lock:
            room = rt.room
            if self.down_since is not None or not room.in_turn or room.turn_key() != key:
                return
            if not room.seats[index].bot_controlled:
                rt.bot_key = None
                return
            try:
                await self._commit(rt, action)
            except IllegalPlayError:
                await self._commit(rt, task.fallback())

    async def _pause_over(self, rt: RoomRuntime) -> None:
        async with rt.lock:
            rt.pause = None
            if self.down_since is None:
                await self._next_round(rt)

    async def _ready(self, rt: RoomRuntime, seat: Seat) -> None:
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
            await self._next_round(rt)
        else:
            self._broadcast(rt)

    async def _next_round(self, rt: RoomRuntime) -> None:
        room = rt.room
        if not room.round_over or room.match_over:
            return
        if rt.pause is not None:
            rt.pause.cancel()
            rt.pause = None
        room.next_round()
        now = time.time()
        room.turn_started = now
        room.seq += 1
        await self._append(
            rt, Append(room.code, StoredEvent(room.seq, "round", {}, now), {"turn_started": now})
        )
        self._schedule(rt)
        self._broadcast(rt)

    async def _hint(self, rt: RoomRuntime, conn: Connection, seat: Seat, msg_id: Any) -> None:
        room = rt.room
        if not room.settings.hints:
            raise ClientError(ServerCode.NO_HINTS, "hints are off in this room")
        job = room.hint_task(seat.seat)
        room.hinted.add(room.turn_key())
        hint = await self._work(conn, job)
        conn.send({"type": "hint", "id": msg_id, **hint})

    async def _chat(self, rt: RoomRuntime, conn: Connection, text: str) -> None:
        room = rt.room
        if conn.seat is None:
            raise ClientError(ServerCode.SPECTATOR, "spectators cannot chat")
        said = text.strip()[:300]
        if not said:
            raise ClientError(ServerCode.EMPTY_CHAT, "the message is empty")
        seat = room.seats[conn.seat]
        now = time.time()
        entry: dict[str, Any] = {
            "seat": seat.seat,
            "name": room.seat_label(seat),
            "text": said,
            "at": now,
        }
        room.seq += 1
        await self._append(rt, Append(room.code, StoredEvent(room.seq, "chat", entry, now)))
        room = rt.room
        room.chat.append(entry)
        del room.chat[:-100]
        msg = json.dumps({"type": "chat", **entry}, separators=(",", ":"))
        for c in rt.conns:
            c.send_text(msg)

    def _broadcast(self, rt: RoomRuntime) -> None:
        room = rt.room
        now = time.time() if self.down_since is None else self.down_since
        public = room.public_view(now)
        public["saving"] = self.down_since is not None
        cache: dict[int | None, str] = {}
        for c in list(rt.conns):
            if c.seat not in cache:
                cache[c.seat] = json.dumps(room.view(public, c.seat), separators=(",", ":"))
            c.send_text(cache[c.seat])

    # -- queries for the HTTP API -----------------------------------------------------
    async def record(self, code: str) -> str:
        """The game record (JSON text) of a finished game, or of a damaged one up to its last
        good event. An unfinished game has none: its record would show the racks in play.
        Records are built once and kept (off the event loop when the game must be loaded)."""
        code = code.upper()
        cached = self._records.get(code)
        if cached is not None:
            self._records.move_to_end(code)
            return cached
        room: Room
        if code in self.damaged:
            found = self.damaged[code][0]
            if found is None or not found.started:
                raise ClientError(
                    ServerCode.NOT_STARTED, "the game never started; it has no record"
                )
            room = found
        else:
            rt = self.rooms.get(code)
            if rt is not None:
                room = rt.room
            else:
                sr = await self.db(self.store.load_room, code)
                if sr is None:
                    raise ClientError(
                        ServerCode.NO_SUCH_ROOM, f"no game with code {code}", params={"room": code}
                    )
                if sr.status != "finished":
                    raise ClientError(
                        ServerCode.NOT_FINISHED,
                        "the game is not finished; its record is available once it ends",
                    )
                loop = asyncio.get_running_loop()
                room = (await loop.run_in_executor(self._cpu, replay, sr)).room
            if not room.started or room.status != "finished":
                raise ClientError(
                    ServerCode.NOT_FINISHED,
                    "the game is not finished; its record is available once it ends",
                )
        text = json.dumps(room.record(), separators=(",", ":"))
        self._records[code] = text
        while len(self._records) > RECORD_CACHE:
            self._records.popitem(last=False)
        return text

    async def finished(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        if self._finished is not None and now - self._finished[0] < 5 * LOBBY_TTL:
            return self._finished[1]
        rows = await self.db(self.store.finished)
        out = [
            {
                "code": r.code,
                "game": r.game,
                "preset": r.rules.get("preset"),
                "finished_at": r.finished_at,
                "players": [s.name or f"{s.bot} {s.seat + 1}" for s in r.seats],
            }
            for r in rows
            if r.settings.get("public", True)
        ]
        self._finished = (now, out)
        return out

    def lobby(self, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        """The public rooms, newest first, a page of each list (``offset``, ``limit``), with
        the total of each. The lists are built at most once a second."""
        now = time.monotonic()
        if self._lobby is None or now - self._lobby[0] > LOBBY_TTL:
            waiting, live = [], []
            for rt in self.rooms.values():
                room = rt.room
                if not room.settings.public:
                    continue
                info = {
                    "code": room.code,
                    **room.lobby_info(),
                    "seats": [s.public() for s in room.seats],
                    "status": room.status,
                    "spectators": sum(1 for c in rt.conns if c.seat is None),
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

    def room_info(self, code: str) -> dict[str, Any] | None:
        code = code.upper()
        rt = self.rooms.get(code)
        if rt is None:
            if code in self.damaged:
                broken, damage = self.damaged[code]
                return {
                    "code": code,
                    "status": "damaged",
                    **(broken.lobby_info() if broken is not None else {}),
                    "seats": [s.public() for s in broken.seats] if broken is not None else [],
                    "damage": damage.to_json(),
                }
            return None
        r = rt.room
        return {
            "code": r.code,
            "status": r.status,
            **r.lobby_info(),
            "seats": [s.public() for s in r.seats],
            "host": r.settings.host,
        }

    def health(self) -> dict[str, Any]:
        storage = self.storage_status()
        return {
            "ok": storage["ok"] and not self.damaged,
            "rooms": len(self.rooms),
            "storage": storage,
            "damaged": [
                {"code": code, **damage.to_json()} for code, (_, damage) in self.damaged.items()
            ],
        }
