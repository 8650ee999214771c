"""The room manager: connections, one lock per room, the server-side turn clock, bots in a
worker thread, disconnect grace periods, and the event log in the database.

Every change to a room happens under that room's :class:`asyncio.Lock`, is written to the
database (one transaction per accepted action) and only then broadcast, each client getting
its own view. Outgoing messages go through a bounded queue per connection, so a slow or
flooding client never holds up a room or another room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rummikub.bots import BOTS
from rummikub.core import (
    Draw,
    IllegalPlayError,
    Pass,
    Play,
    Rules,
    RummikubError,
    Timeout,
)
from rummikub.solver.warm import warm_up

from . import protocol as p
from .ratelimit import TokenBucket
from .room import (
    Room,
    Seat,
    Settings,
    hash_token,
    new_code,
    new_token,
    play_from_table,
)
from .storage import Append, Store, StoredEvent, StoredRoom, StoredSeat
from .writer import GroupWriter
from .xpress_room import XPRESS_BOTS, XpressRoom, xpress_rules

__all__ = ["Connection", "RoomManager"]

log = logging.getLogger("rummikub.server")


def _warm_up() -> None:
    log.info("solver kernels ready in %.1f s", warm_up())


T = TypeVar("T")

MAX_QUEUE = 256
HEARTBEAT_SECONDS = 1.0
FINISHED_KEEP_SECONDS = 600.0


class Connection:
    """One WebSocket client: its outgoing queue, rate limiter and where it sits."""

    def __init__(
        self,
        send: Callable[[str], Any],
        close: Callable[[int], Any],
        *,
        rate: float = 20.0,
        burst: float = 60.0,
    ) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = TokenBucket(rate, burst)
        self.room: str | None = None
        self.seat: int | None = None
        self.closed = False
        self.dropped = 0
        self.last_limit_notice = 0.0
        self.writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            try:
                await self._send(text)
            except Exception:  # the socket is gone
                self.closed = True
                break

    def send(self, msg: dict[str, Any]) -> None:
        self.send_text(json.dumps(msg, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:  # a client that does not read: cut it off
            self.closed = True
            self.queue.put_nowait(None)
            asyncio.get_running_loop().create_task(self._safe_close(1008))
            return
        self.queue.put_nowait(text)

    async def _safe_close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self._close(code)

    async def finish(self) -> None:
        self.closed = True
        self.queue.put_nowait(None)
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, 2)


AnyRoom = Room | XpressRoom


class RoomRuntime:
    """A room plus what only lives while the server runs: lock, clients, timers, bots."""

    def __init__(self, room: AnyRoom) -> None:
        self.room = room
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.clock: asyncio.TimerHandle | None = None
        self.clock_key: tuple[int, int] | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_key: tuple[int, int] | None = None
        self.pause: asyncio.TimerHandle | None = None
        self.grace: dict[int, asyncio.TimerHandle] = {}

    def bot_level(self, seat: Seat) -> str:
        return seat.bot if seat.kind == "bot" and seat.bot else self.room.settings.standin

    def cancel_timers(self) -> None:
        for h in (self.clock, self.pause, *self.grace.values()):
            if h is not None:
                h.cancel()
        self.grace.clear()
        self.clock = self.pause = None
        if self.bot_task is not None:
            self.bot_task.cancel()


class ClientError(Exception):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def bot_levels() -> list[str]:
    order = ["random", "beginner", "greedy", "strategic", "expert"]
    return sorted(BOTS, key=lambda b: (order.index(b) if b in order else 99, b))


class RoomManager:
    """All rooms of one server."""

    def __init__(
        self, store: Store, *, rate: float = 20.0, burst: float = 60.0, bot_threads: int = 2
    ) -> None:
        self.store = store
        self.rooms: dict[str, RoomRuntime] = {}
        self.rate = rate
        self.burst = burst
        self._db = ThreadPoolExecutor(1, thread_name_prefix="rummikub-db")
        self._writer = GroupWriter(store, self._db)
        self._cpu = ThreadPoolExecutor(bot_threads, thread_name_prefix="rummikub-bot")
        self._heartbeat: asyncio.Task[None] | None = None
        self._reaper: asyncio.Task[None] | None = None
        self.started_at = time.time()

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
                log.error("room %s cannot be restored: %s", sr.code, exc)
                continue
            self.rooms[sr.code] = rt
            if rt.room.turn_started is not None:
                await self.db(self.store.update_room, sr.code, turn_started=rt.room.turn_started)
        await self.db(self.store.beat, now)
        for rt in self.rooms.values():
            for seat in rt.room.seats:
                if seat.kind == "human" and seat.taken and rt.room.started:
                    seat.disconnected_at = now
                    self._arm_grace(rt, seat)
            self._schedule(rt)
        self._heartbeat = asyncio.create_task(self._beat())
        self._reaper = asyncio.create_task(self._reap())

    async def stop(self) -> None:
        for task in (self._heartbeat, self._reaper):
            if task is not None:
                task.cancel()
        for rt in self.rooms.values():
            rt.cancel_timers()
        with contextlib.suppress(Exception):
            await self.db(self.store.beat)
        self._cpu.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=True)

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kwargs))

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.db(self.store.beat)
            except Exception as exc:  # pragma: no cover - database gone
                log.error("heartbeat failed: %s", exc)

    async def _reap(self) -> None:
        """Forget finished rooms nobody watches any more (they stay in the database)."""
        while True:
            await asyncio.sleep(30)
            now = time.time()
            for code, rt in list(self.rooms.items()):
                if rt.room.status not in ("finished", "abandoned"):
                    continue
                age = now - (rt.room.finished_at or now)
                if (not rt.conns and age > 60) or age > FINISHED_KEEP_SECONDS:
                    self.rooms.pop(code, None)

    def _restore(self, sr: StoredRoom, last_beat: float | None, now: float) -> RoomRuntime:
        seats = [
            Seat(s.seat, "bot" if s.kind == "bot" else "human", s.bot, s.name, s.token_hash)
            for s in sr.seats
        ]
        settings = Settings.from_dict(sr.settings)
        room: AnyRoom
        if sr.game == "xpress":
            room = XpressRoom(
                sr.code, xpress_rules(sr.rules), settings, sr.seed, seats, sr.created_at
            )
        else:
            room = Room(sr.code, Rules.from_dict(sr.rules), settings, sr.seed, seats, sr.created_at)
        for ev in sr.events:
            room.seq = ev.seq
            if ev.kind == "start":
                room.start()
            elif ev.kind == "turn":
                d = ev.data
                room.act(room.stored_action(d["action"]), ms=d.get("ms"), hint=bool(d.get("hint")))
            elif ev.kind == "round":
                room.next_round()
            elif ev.kind == "chat":
                room.chat.append(d_chat(ev))
        room.restored()
        room.status = "playing" if room.started else "waiting"
        if room.match_over:
            room.status = "finished"
        room.turn_started = sr.turn_started
        if sr.turn_started is not None:
            # The clock stood still while the server was down: the player keeps the time he
            # had when the server last showed signs of life.
            stopped = last_beat if last_beat is not None else now
            used = max(0.0, min(stopped, now) - sr.turn_started)
            room.turn_started = now - used
        if room.round_over and not room.match_over:
            room.pause_until = now + room.settings.round_pause
        return RoomRuntime(room)

    # -- connections -----------------------------------------------------------------
    def new_connection(self, send: Callable[[str], Any], close: Callable[[int], Any]) -> Connection:
        conn = Connection(send, close, rate=self.rate, burst=self.burst)
        conn.start()
        return conn

    async def receive(self, conn: Connection, text: str | bytes) -> None:
        """Handle one raw message from a client."""
        if not conn.bucket.take():
            conn.dropped += 1
            now = time.monotonic()
            if now - conn.last_limit_notice > 1.0:
                conn.last_limit_notice = now
                conn.send(
                    {
                        "type": "error",
                        "code": "rate-limited",
                        "message": "too many messages; slow down",
                    }
                )
            if conn.dropped > 2000:
                conn.closed = True
                await conn._safe_close(1008)
            return
        try:
            msg = p.parse_message(text)
        except p.ProtocolError as exc:
            conn.send({"type": "error", "id": exc.msg_id, "code": exc.code, "message": exc.message})
            return
        try:
            await self.dispatch(conn, msg)
        except ClientError as exc:
            conn.send(
                {
                    "type": "error",
                    "id": msg.id,
                    "code": exc.code,
                    "message": exc.message,
                    **exc.extra,
                }
            )
        except RummikubError as exc:
            conn.send({"type": "error", "id": msg.id, "code": "rules", "message": str(exc)})

    async def disconnect(self, conn: Connection) -> None:
        await conn.finish()
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
            raise ClientError("no-room", "join or create a room first")
        async with rt.lock:
            if isinstance(msg, p.LeaveMsg):
                conn.send({"type": "left", "id": msg.id})
                await self._detach(conn, leaving=True, locked=True)
                return
            if isinstance(msg, p.ChatMsg):
                await self._chat(rt, conn, msg.text)
                conn.send({"type": "ok", "id": msg.id})
                return
            seat = self._seat_of(rt, conn)
            if isinstance(msg, p.CheckMsg):
                conn.send({**rt.room.check_table(seat.seat, msg.table), "id": msg.id})
                return
            if isinstance(msg, p.StartMsg):
                await self._start_now(rt, seat, msg.id)
                return
            if isinstance(msg, p.NextRoundMsg):
                await self._ready(rt, seat)
                return
            room = rt.room
            xpress_msg = isinstance(msg, p.ThrowMsg | p.PlaceMsg | p.EndTurnMsg)
            tiles_msg = isinstance(msg, p.PlayMsg | p.DrawMsg | p.PassMsg)
            if xpress_msg and not isinstance(room, XpressRoom):
                raise ClientError("wrong-game", "this room plays the tile game: play, draw or pass")
            if tiles_msg and isinstance(room, XpressRoom):
                raise ClientError("wrong-game", "this room plays Xpress: throw, place or end_turn")
            if not room.in_turn or room.current_seat() is not seat:
                raise ClientError("not-your-turn", "it is not your turn")
            if isinstance(msg, p.HintMsg):
                await self._hint(rt, conn, seat, msg.id)
                return
            action: object
            if isinstance(room, XpressRoom):
                action = self._xpress_action(room, msg)
            elif isinstance(msg, p.DrawMsg):
                action = Draw()
            elif isinstance(msg, p.PassMsg):
                action = Pass()
            else:
                assert isinstance(msg, p.PlayMsg) and isinstance(room, Room)
                assert room.match is not None
                try:
                    action = play_from_table(room.match.state.table, msg.table, msg.tiles)
                except RummikubError as exc:
                    raise ClientError("bad-play", str(exc)) from None
            try:
                await self._commit(rt, action)
            except IllegalPlayError as exc:
                raise ClientError(
                    "illegal", str(exc), reason=exc.reason, meld=getattr(exc, "meld", None)
                ) from None
            conn.send({"type": "ok", "id": msg.id})

    @staticmethod
    def _xpress_action(room: XpressRoom, msg: Any) -> object:
        if isinstance(msg, p.ThrowMsg):
            return room.throw_action(msg.dice)
        if isinstance(msg, p.EndTurnMsg):
            return room.end_action()
        assert isinstance(msg, p.PlaceMsg)
        try:
            return room.place_from_table(msg.table, msg.dice)
        except IllegalPlayError as exc:
            raise ClientError("illegal", str(exc), reason=exc.reason, meld=None) from None
        except RummikubError as exc:
            raise ClientError("bad-play", str(exc)) from None

    def _seat_of(self, rt: RoomRuntime, conn: Connection) -> Seat:
        if conn.seat is None:
            raise ClientError("spectator", "spectators cannot act")
        return rt.room.seats[conn.seat]

    # -- rooms -----------------------------------------------------------------------
    async def _create(self, conn: Connection, msg: p.CreateMsg) -> None:
        if conn.room is not None:
            await self._detach(conn, leaving=False)
        xpress = msg.game == "xpress"
        rules: Rules | None = None
        try:
            if xpress:
                x_rules = xpress_rules(msg.rules)
                if len(msg.seats) != x_rules.players:
                    raise ClientError(
                        "bad-seats",
                        f"Xpress is for {x_rules.players} players, not {len(msg.seats)}",
                    )
            else:
                rules = Rules.from_dict(msg.rules)
                rules.check_players(len(msg.seats))
        except RummikubError as exc:
            raise ClientError("bad-rules", str(exc)) from None
        if msg.seats[0].kind != "human":
            raise ClientError("bad-seats", "seat 1 is the creator's and must be a person")
        levels = XPRESS_BOTS if xpress else bot_levels()
        default_level = next((b for b in ("beginner", "greedy") if b in levels), levels[0])
        seats: list[Seat] = []
        for i, spec in enumerate(msg.seats):
            level = None
            if spec.kind == "bot":
                level = spec.level or default_level
                if level not in levels:
                    raise ClientError(
                        "bad-seats",
                        f"seat {i + 1}: unknown bot level {level!r} (levels: {', '.join(levels)})",
                    )
            seats.append(Seat(i, spec.kind, level))
        st = msg.settings
        standin = st.standin or default_level
        if standin not in levels:
            raise ClientError("bad-settings", f"unknown stand-in bot level {standin!r}")
        settings = Settings(
            st.hints, st.grace_seconds, st.public, st.bot_delay, st.round_pause, standin
        )
        code = new_code()
        while code in self.rooms or await self._code_used(code):
            code = new_code()
        now = time.time()
        seed = secrets.randbits(48)
        room: AnyRoom = (
            Room(code, rules, settings, seed, seats, now)
            if rules is not None
            else XpressRoom(code, x_rules, settings, seed, seats, now)
        )
        token = new_token()
        seats[0].name = msg.name
        seats[0].token_hash = hash_token(token)
        rt = RoomRuntime(room)
        await self.db(
            self.store.create_room,
            StoredRoom(
                code,
                now,
                room.rules_json(),
                settings.to_dict(),
                room.seed,
                "waiting",
                None,
                None,
                [StoredSeat(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in seats],
                game=room.game,
            ),
        )
        self.rooms[code] = rt
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

    async def _code_used(self, code: str) -> bool:
        found = await self.db(self.store.load_room, code, events=False)
        return found is not None

    async def _enter(self, conn: Connection, msg: p.JoinMsg | p.ResumeMsg | p.WatchMsg) -> None:
        code = msg.room.upper()
        rt = self.rooms.get(code)
        if rt is None:
            raise ClientError("no-such-room", f"no open room with code {code}")
        if conn.room is not None:
            await self._detach(conn, leaving=False)
        async with rt.lock:
            room = rt.room
            if isinstance(msg, p.WatchMsg):
                self._attach(rt, conn, None)
                conn.send({"type": "watching", "id": msg.id, "room": code, "chat": room.chat[-50:]})
            elif isinstance(msg, p.ResumeMsg):
                found = room.seat_by_token(msg.token)
                if found is None:
                    raise ClientError("bad-token", "that token does not hold a seat here")
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
                    raise ClientError("started", "the game has started; you can watch it")
                free = room.free_seat(msg.seat)
                if free is None:
                    raise ClientError(
                        "full",
                        "no free seat" if msg.seat is None else f"seat {msg.seat + 1} is not free",
                    )
                token = new_token()
                free.name = msg.name
                free.token_hash = hash_token(token)
                await self.db(self.store.update_seat, code, _stored_seat(free))
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
            self._broadcast(rt)

    def _attach(self, rt: RoomRuntime, conn: Connection, seat: int | None) -> None:
        conn.room = rt.room.code
        conn.seat = seat
        rt.conns.add(conn)
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
        conn.room = conn.seat = None
        rt = self.rooms.get(code) if code else None
        if rt is None or conn not in rt.conns:
            return
        if locked:
            await self._detach_locked(rt, conn, seat, leaving)
        else:
            async with rt.lock:
                await self._detach_locked(rt, conn, seat, leaving)

    async def _detach_locked(
        self, rt: RoomRuntime, conn: Connection, seat: int | None, leaving: bool
    ) -> None:
        rt.conns.discard(conn)
        room = rt.room
        if seat is not None:
            s = room.seats[seat]
            s.connections = max(0, s.connections - 1)
            if room.status == "waiting" and leaving and s.kind == "human":
                s.name = s.token_hash = None  # the seat is free again
                await self.db(self.store.update_seat, room.code, _stored_seat(s))
                if not any(x.kind == "human" and x.taken for x in room.seats):
                    room.status = "abandoned"
                    room.finished_at = time.time()
                    await self.db(
                        self.store.update_room,
                        room.code,
                        status="abandoned",
                        finished_at=room.finished_at,
                    )
            elif room.status == "playing" and s.connections == 0:
                s.disconnected_at = time.time()
                if leaving:
                    s.standin = True
                    self._schedule(rt)
                else:
                    self._arm_grace(rt, s)
        self._broadcast(rt)

    def _arm_grace(self, rt: RoomRuntime, seat: Seat) -> None:
        old = rt.grace.pop(seat.seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        rt.grace[seat.seat] = loop.call_later(
            rt.room.settings.grace_seconds,
            lambda: loop.create_task(self._grace_over(rt, seat.seat)),
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
            raise ClientError("started", "the game has already started")
        if seat.seat != 0:
            raise ClientError("not-host", "only the room's creator can start early")
        for s in room.seats:
            if not s.taken:
                s.kind = "bot"
                s.bot = room.settings.standin
                await self.db(self.store.update_seat, room.code, _stored_seat(s))
        await self._begin(rt)
        self._broadcast(rt)

    async def _begin(self, rt: RoomRuntime) -> None:
        room = rt.room
        room.start()
        now = time.time()
        room.turn_started = now
        room.seq += 1
        await self._writer.append(
            Append(
                room.code,
                StoredEvent(room.seq, "start", {}, now),
                {"status": "playing", "turn_started": now},
            )
        )
        self._schedule(rt)

    # -- turns -----------------------------------------------------------------------
    async def _commit(self, rt: RoomRuntime, action: object) -> None:
        """Apply an action for the player to move, store it, schedule what follows and
        broadcast. Must hold the room lock."""
        room = rt.room
        assert room.started
        now = time.time()
        key = room.turn_key()
        hint = isinstance(action, Play) and key in room.hinted
        ms = None if room.turn_started is None else int((now - room.turn_started) * 1000)
        stored, restart = room.act(action, ms=ms, hint=hint)
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
        await self._writer.append(Append(room.code, ev, update, result))
        self._schedule(rt)
        self._broadcast(rt)

    def _schedule(self, rt: RoomRuntime) -> None:
        """Arm the turn clock, the bot of the player to move, or the pause between rounds."""
        room = rt.room
        loop = asyncio.get_running_loop()
        if not room.started:
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
                    lambda: loop.create_task(self._timeout(rt, key)),
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
                    lambda: loop.create_task(self._pause_over(rt)),
                )

    async def _timeout(self, rt: RoomRuntime, key: tuple[int, int]) -> None:
        async with rt.lock:
            room = rt.room
            if room.in_turn and room.turn_key() == key:
                await self._commit(rt, Timeout())

    async def _bot_turn(self, rt: RoomRuntime, key: tuple[int, int], index: int) -> None:
        room = rt.room
        await asyncio.sleep(room.settings.bot_delay)
        async with rt.lock:
            if not room.in_turn or room.turn_key() != key:
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
            log.warning("bot %s failed in room %s: %s", task.name, room.code, exc)
            action = task.fallback()
        async with rt.lock:
            if not room.in_turn or room.turn_key() != key:
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
            await self._next_round(rt)

    async def _ready(self, rt: RoomRuntime, seat: Seat) -> None:
        room = rt.room
        if not room.round_over or room.match_over:
            raise ClientError("not-between-rounds", "no round is waiting to start")
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
        await self._writer.append(
            Append(room.code, StoredEvent(room.seq, "round", {}, now), {"turn_started": now})
        )
        self._schedule(rt)
        self._broadcast(rt)

    async def _hint(self, rt: RoomRuntime, conn: Connection, seat: Seat, msg_id: Any) -> None:
        room = rt.room
        if not room.settings.hints:
            raise ClientError("no-hints", "hints are off in this room")
        job = room.hint_task(seat.seat)
        room.hinted.add(room.turn_key())
        loop = asyncio.get_running_loop()
        hint = await loop.run_in_executor(self._cpu, job)
        conn.send({"type": "hint", "id": msg_id, **hint})

    async def _chat(self, rt: RoomRuntime, conn: Connection, text: str) -> None:
        room = rt.room
        if conn.seat is None:
            raise ClientError("spectator", "spectators cannot chat")
        seat = room.seats[conn.seat]
        now = time.time()
        entry: dict[str, Any] = {
            "seat": seat.seat,
            "name": room.seat_label(seat),
            "text": text.strip()[:300],
            "at": now,
        }
        room.seq += 1
        await self._writer.append(Append(room.code, StoredEvent(room.seq, "chat", entry, now)))
        room.chat.append(entry)
        del room.chat[:-100]
        msg = json.dumps({"type": "chat", **entry}, separators=(",", ":"))
        for c in rt.conns:
            c.send_text(msg)

    def _broadcast(self, rt: RoomRuntime) -> None:
        room = rt.room
        public = room.public_view(time.time())
        cache: dict[int | None, str] = {}
        for c in list(rt.conns):
            if c.seat not in cache:
                cache[c.seat] = json.dumps(room.view(public, c.seat), separators=(",", ":"))
            c.send_text(cache[c.seat])

    # -- queries for the HTTP API -----------------------------------------------------
    async def record(self, code: str) -> dict[str, Any]:
        """The game record of a finished game. An unfinished game has none: its record
        would show the racks in play."""
        code = code.upper()
        rt = self.rooms.get(code)
        room: AnyRoom
        if rt is not None:
            room = rt.room
        else:
            sr = await self.db(self.store.load_room, code)
            if sr is None:
                raise ClientError("no-such-room", f"no game with code {code}")
            room = self._restore(sr, None, time.time()).room
        if not room.started or room.status != "finished":
            raise ClientError(
                "not-finished", "the game is not finished; its record is available once it ends"
            )
        return room.record()

    async def finished(self) -> list[dict[str, Any]]:
        rows = await self.db(self.store.finished)
        return [
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

    def lobby(self) -> dict[str, Any]:
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
        return {"waiting": waiting, "live": live}


def d_chat(ev: StoredEvent) -> dict[str, Any]:
    return dict(ev.data)


def _stored_seat(s: Seat) -> StoredSeat:
    return StoredSeat(s.seat, s.kind, s.bot, s.name, s.token_hash)
