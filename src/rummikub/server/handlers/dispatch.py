"""Turning one client message into the room action it asks for and the reply: the message
budget, parsing, the checks every action shares (a room, a seat, the turn, storage up), the
work budget of costly requests (checks, moves), the hint budget, and chat."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rummikub.core import Code, IllegalPlayError, RummikubError

from ..protocol import messages as p
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError, refused
from ..protocol.text import check_text
from ..rooms.seats import Seat
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.persistence import Persistence, StorageDown
from ..runtime.ratelimit import TokenBucket
from ..runtime.room_runtime import RoomRuntime
from ..runtime.turns import Turns
from ..storage.store import Append, StoredEvent
from ..work import jobs
from ..work.pool import Busy, JobFailed, JobTimeout, WorkPool
from .creation import RoomMaker
from .moderation import Moderation
from .muting import send_chat
from .quick import QuickMatch
from .rematch import Rematch
from .seating import Seating

__all__ = ["Dispatcher"]

log = logging.getLogger("rummikub.server")

T = TypeVar("T")

#: a hint still being searched after this many seconds is stopped (it searches for 3 s)
HINT_STOP = 8.0


class Dispatcher:
    def __init__(
        self,
        storage: Persistence,
        seating: Seating,
        maker: RoomMaker,
        turns: Turns,
        rooms: dict[str, RoomRuntime],
        work: WorkPool,
        check: ThreadPoolExecutor,
        clock: Clock,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.seating = seating
        self.maker = maker
        self.turns = turns
        self.rooms = rooms
        self._work_pool = work
        self._check = check
        self.moderation = Moderation(storage, seating.lobby, clock)
        self.rematch = Rematch(maker, storage)
        # a person leaving the room at the end of a match may be the one the rematch waited for
        seating.on_left = self.rematch.settle
        #: in a cluster: forwards a message about another node's room and says it did
        #: (:meth:`.Relay.intercept`)
        self.intercept: Callable[[Connection, Any, str | bytes], Awaitable[bool]] | None = None
        #: the quick-match queue (set by the room manager)
        self.quick: QuickMatch | None = None

    def _quick(self) -> QuickMatch:
        assert self.quick is not None
        return self.quick

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
            if self.intercept is None or not await self.intercept(conn, msg, text):
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
        now = self.clock.monotonic()
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

    async def dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, p.PingMsg):
            conn.send({"type": "pong", "id": msg.id, "time": self.clock.time()})
            return
        if isinstance(msg, p.CreateMsg):
            await self.maker.create(conn, msg)
            return
        if isinstance(msg, p.JoinMsg | p.ResumeMsg | p.WatchMsg):
            await self.seating.enter(conn, msg)
            return
        if isinstance(msg, p.QueueMsg):
            await self._quick().join(conn, msg)
            return
        if isinstance(msg, p.UnqueueMsg):
            await self._quick().leave(conn, msg)
            return
        rt = self.rooms.get(conn.room) if conn.room else None
        if rt is None:
            raise ClientError(ServerCode.NO_ROOM, "join or create a room first")
        async with rt.lock:
            if isinstance(msg, p.LeaveMsg):
                await self.seating.detach(conn, leaving=True, locked=True)
                conn.send({"type": "left", "id": msg.id})
                return
            if isinstance(msg, p.ChatMsg):
                await self._chat(rt, conn, msg.text)
                conn.send({"type": "ok", "id": msg.id})
                return
            if isinstance(msg, p.RemoveMsg | p.ReportMsg | p.MuteMsg):
                await self.moderation.handle(rt, conn, msg)
                return
            seat = self._seat_of(rt, conn)
            if isinstance(msg, p.CheckMsg):
                room = rt.room
                checked = await self._work(
                    conn, lambda: room.check_table(seat.seat, msg.table), self._check
                )
                conn.send({**checked, "id": msg.id})
                return
            if self.storage.down_since is not None and not isinstance(msg, p.HintMsg):
                raise StorageDown()
            if isinstance(msg, p.RematchMsg):
                await self.rematch.answer(rt, conn, seat, msg.accept, msg.id)
                return
            if isinstance(msg, p.StartMsg):
                await self.turns.start_now(rt, seat, msg.id)
                conn.send({"type": "ok", "id": msg.id})
                return
            if isinstance(msg, p.NextRoundMsg):
                await self.turns.ready(rt, seat)
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
                await self.turns.commit(rt, action, conn)
            except IllegalPlayError as exc:
                raise refused(Code.ILLEGAL, exc, meld=exc.meld) from None
            conn.send({"type": "ok", "id": msg.id})

    @staticmethod
    def _admit(bucket: TokenBucket, message: str) -> None:
        """Refuse (``busy``, with the wait) while ``bucket``, one of the client's budgets, is
        spent."""
        if not bucket.has():
            raise ClientError(ServerCode.BUSY, message, retry_after=round(bucket.wait(), 2))

    def _admit_work(self, conn: Connection) -> None:
        self._admit(conn.budget.work, "you have asked the server for too much work; wait a moment")

    async def _work(self, conn: Connection, job: Callable[[], T], pool: ThreadPoolExecutor) -> T:
        """Run a costly job for ``conn`` off the event loop and charge its CPU time to the
        client's work budget (refused at once while the budget is spent)."""
        self._admit_work(conn)

        def timed() -> tuple[T, float]:
            start = time.thread_time()
            out = job()
            return out, time.thread_time() - start

        loop = asyncio.get_running_loop()
        out, spent = await loop.run_in_executor(pool, timed)
        conn.budget.work.charge(spent)
        return out

    def _seat_of(self, rt: RoomRuntime, conn: Connection) -> Seat:
        if conn.seat is None:
            raise ClientError(ServerCode.SPECTATOR, "spectators cannot act")
        return rt.room.seats[conn.seat]

    async def _hint(self, rt: RoomRuntime, conn: Connection, seat: Seat, msg_id: Any) -> None:
        room = rt.room
        if not room.settings.hints:
            raise ClientError(ServerCode.NO_HINTS, "hints are off in this room")
        self._admit(conn.budget.hints, "you have asked for too many hints; wait a moment")
        obs = room.hint_obs(seat.seat)
        room.hinted.add(room.turn_key())
        try:
            hint, spent = await self._work_pool.run(
                f"room:{room.code}", HINT_STOP, jobs.hint, room.game.name, obs
            )
        except Busy:
            raise ClientError(
                ServerCode.BUSY, "the server is thinking for this room; ask again in a moment"
            ) from None
        except (JobTimeout, JobFailed):
            raise ClientError(
                ServerCode.BUSY, "the hint could not be found in time; ask again in a moment"
            ) from None
        conn.budget.hints.charge(spent)
        conn.send({"type": "hint", "id": msg_id, **hint})

    async def _chat(self, rt: RoomRuntime, conn: Connection, text: str) -> None:
        room = rt.room
        if conn.seat is None and not room.settings.spectator_chat:
            raise ClientError(ServerCode.NO_SPECTATOR_CHAT, "spectators may not chat in this room")
        said = text.strip()[:300]
        if not said:
            raise ClientError(ServerCode.EMPTY_CHAT, "the message is empty")
        check_text(said, "text")
        now = self.clock.time()
        entry: dict[str, Any]
        if conn.seat is None:
            # a spectator: named by his account, else unnamed ("a spectator")
            name = conn.account.name if conn.account is not None else None
            entry = {"seat": None, "name": name, "spectator": True, "text": said, "at": now}
        else:
            seat = room.seats[conn.seat]
            entry = {"seat": seat.seat, "name": room.seat_label(seat), "text": said, "at": now}
        room.seq += 1
        await self.storage.append(rt, Append(room.code, StoredEvent(room.seq, "chat", entry, now)))
        room = rt.room
        room.chat.append(entry)
        del room.chat[:-100]
        send_chat(rt, entry)
