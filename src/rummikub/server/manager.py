"""The room manager: the coordinator that owns the rooms of one server and wires the parts
that act on them, each in its own module:

- :mod:`.runtime.persistence` — store before effect (an action takes effect only once
  stored; a failed write puts the room back as stored), the *storage down* mode and its
  recovery;
- :mod:`.runtime.scheduling` — turn clocks, bot moves, pauses between rounds, grace periods,
  the reaper;
- :mod:`.runtime.turns` — starting a game, a move or timeout, the next round;
- :mod:`.handlers.creation` — making a new room; :mod:`.handlers.seating` — joining, resuming,
  watching and leaving rooms;
- :mod:`.runtime.reopen` — the unfinished rooms rebuilt when the server starts;
- :mod:`.handlers.dispatch` — a client message turned into the room action and the reply;
- :mod:`.handlers.moderation` — the host removing a person, reports
  (:mod:`.storage.reports`) and mutes (:mod:`.handlers.muting`);
- :mod:`.runtime.lobby` and :mod:`.handlers.records` — what the HTTP API lists and serves;
- :mod:`.runtime.broadcast` — every client's view of a room;
- :mod:`.cluster.node` and :mod:`.cluster.relay` — with a broker (``--broker``), the node of
  a cluster: the leases of its rooms, failover, and the clients of other nodes' rooms.

Every change to a room happens under that room's :class:`asyncio.Lock`. Outgoing messages go
through a bounded queue per connection, so a slow or flooding client never holds up a room or
another room; what one client address may cost is budgeted (:mod:`.runtime.admission`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from .accounts.games import PlayerGames
from .accounts.live import Ended as AccountSessionsEnded
from .accounts.store import Account, AccountStore
from .handlers.analyses import Analyses
from .handlers.assist import new_pool as new_assistant_pool
from .handlers.creation import RoomMaker
from .handlers.dispatch import Dispatcher
from .handlers.quick import QueueSettings, QuickMatch
from .handlers.quick_tickets import LocalTickets, RedisTickets, Tickets
from .handlers.rated import RatedGames
from .handlers.records import RECORD_CACHE, Records
from .handlers.seating import Seating
from .protocol.refusals import ClientError
from .rooms.room import Room
from .runtime.admission import Admission, Limits
from .runtime.clock import Clock, RealClock
from .runtime.connection import Connection
from .runtime.lobby import LOBBY_TTL, Lobby
from .runtime.metrics import Metrics
from .runtime.persistence import (
    HEARTBEAT_SECONDS,
    RETRY_SECONDS,
    STORAGE_DOWN,
    Persistence,
    StorageDown,
)
from .runtime.reopen import reopen_rooms
from .runtime.restore import Damage
from .runtime.room_runtime import RoomRuntime
from .runtime.scheduling import FINISHED_KEEP_SECONDS, REAP_SECONDS, WAITING_IDLE_SECONDS, Scheduler
from .runtime.turns import Turns
from .storage.store import Store
from .work.pool import WorkPool, start_with_server

if TYPE_CHECKING:
    from rummikub.puzzles import Puzzle

    from .cluster.node import ClusterNode
    from .cluster.relay import Relay

__all__ = [
    "FINISHED_KEEP_SECONDS",
    "HEARTBEAT_SECONDS",
    "LOBBY_TTL",
    "REAP_SECONDS",
    "RECORD_CACHE",
    "RETRY_SECONDS",
    "STORAGE_DOWN",
    "WAITING_IDLE_SECONDS",
    "ClientError",
    "Connection",
    "RoomManager",
    "StorageDown",
]

log = logging.getLogger("rummikub.server")


T = TypeVar("T")


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
        broker: str | None = None,
        node: str | None = None,
        quick: QueueSettings | None = None,
        quick_bot_delay: float = 1.0,
        analysis_samples: int | None = None,
        clock: Clock | None = None,
        seed: int | None = None,
    ) -> None:
        """``broker`` (a ``redis://`` URL) makes this server a node of a cluster named
        ``node`` (:mod:`.cluster.node`); without it the server runs every room of its database.
        ``quick``: how the quick-match queue matches (:mod:`.handlers.quick`),
        ``quick_bot_delay`` the bots' pause before each move in its rooms. ``analysis_samples``:
        deals a position in the game reviews (the default depth's when ``None``). ``clock``: the
        time every part reads and waits on (:class:`.runtime.clock.RealClock` by default; a
        test gives a :class:`.runtime.clock.FakeClock`). ``seed`` fixes the deals, for tests
        (:meth:`.RoomMaker._deal_seed`)."""
        self.store = store
        self.clock: Clock = clock or RealClock()
        clock = self.clock
        #: the accounts of the same database (logged-in players, ratings)
        self.accounts = AccountStore(store.engine, sleep=clock.sleep)
        self.cluster: ClusterNode | None = None
        self.relay: Relay | None = None
        self.rooms: dict[str, RoomRuntime] = {}
        #: rooms whose stored log could not be replayed: kept, reported, record readable
        #: (``None`` for the room when not even its row could be read)
        self.damaged: dict[str, tuple[Room | None, Damage]] = {}
        self.admission = Admission(limits or Limits(conn_rate=rate, conn_burst=burst), clock)
        #: the processes of the bots' moves and the hints, shared fairly between the rooms
        self.work = WorkPool("bot", bot_threads)
        #: the process of the longer jobs of clients (analyses, the table assistant), shared
        #: fairly between client addresses
        self.review = WorkPool("review", 1, per_owner=1, queue=64)
        #: the table assistant's process (:mod:`.handlers.assist`)
        self.assistant = new_assistant_pool()
        #: replaying stored games for their records (in this process: it needs the rooms)
        self._cpu = ThreadPoolExecutor(bot_threads, thread_name_prefix="rummikub-records")
        self.open_connections = 0
        self._check = ThreadPoolExecutor(1, thread_name_prefix="rummikub-check")
        self.storage = Persistence(store, self.rooms, self._go_on, clock)
        self._lobby = Lobby(self.storage, self.rooms, clock, shared=broker is not None)
        # the scheduler runs the bots' moves and the clocks' timeouts through the turns, which
        # schedule the next after each move: the one cycle of the parts, closed by the turns'
        # two entry points handed to the scheduler
        self.scheduler = Scheduler(
            self.storage,
            self.rooms,
            self.work,
            clock,
            commit=lambda rt, action: self.turns.commit(rt, action),
            next_round=lambda rt: self.turns.next_round(rt),
            lobby_changed=self._lobby.invalidate,
        )
        self.player_games = PlayerGames(store.engine)
        self.rated = RatedGames(self.player_games, clock)
        self.turns = Turns(
            self.storage, self.scheduler, self._lobby, clock, on_over=self.rated.over
        )
        self.seating = Seating(
            self.storage, self.scheduler, self.turns, self._lobby, self.rooms, self.damaged, clock
        )
        self.maker = RoomMaker(
            self.storage, self.seating, self.turns, self._lobby, self.rooms, clock, seed=seed,
            quick_bot_delay=quick_bot_delay,
        )  # fmt: skip
        self.dispatcher = Dispatcher(
            self.storage,
            self.seating,
            self.maker,
            self.turns,
            self.rooms,
            self.work,
            self._check,
            clock,
        )
        self._records = Records(self.storage, self.rooms, self.damaged, self._cpu)
        self._analyses = Analyses(self._records, self.review, clock, samples=analysis_samples)
        self.metrics = Metrics(self._metric_values)
        self.storage.writer.on_commit = self.metrics.committed
        self.started_at = clock.time()
        tickets: Tickets = LocalTickets()
        if broker is not None:
            self._join_cluster(broker, node)
            assert self.cluster is not None
            b = self.cluster.broker
            tickets = RedisTickets(b.redis, b.prefix, self.cluster.node)
        self.quick = QuickMatch(self.maker, self.accounts, tickets, clock, quick)
        self.dispatcher.quick = self.quick

    def _join_cluster(self, broker: str, node: str | None) -> None:
        # imported here: a server alone never loads the cluster's parts (and Redis's client)
        from .cluster.node import ClusterNode, default_node_name
        from .cluster.relay import Relay

        name = node or default_node_name()
        self.relay = Relay(
            name,
            self.rooms,
            self.damaged.keys(),
            receive=self.receive,
            new_remote=lambda send, close, client, person, account: self.new_connection(
                send, close, client=client, person=person, account=account, remote=True
            ),
            disconnect=self.disconnect,
            detach=lambda conn: self.seating.detach(conn, leaving=False),
            is_active=lambda code: self._cluster().is_active(code),
            clock=self.clock,
        )
        self.cluster = ClusterNode(
            name,
            broker,
            self.store,
            self.rooms,
            self.relay,
            self.scheduler,
            self._lobby,
            self.damaged,
            self.clock,
        )
        self.dispatcher.intercept = self.relay.intercept
        cluster = self.cluster
        self.storage.fenced = lambda code: cluster.drop(
            code, "a write was refused: another node holds its lease"
        )

    def _cluster(self) -> ClusterNode:
        assert self.cluster is not None
        return self.cluster

    # -- storage state (kept here for the callers of the manager) ----------------------
    @property
    def down_since(self) -> float | None:
        """When storage went down (``None`` while it works)."""
        return self.storage.down_since

    @property
    def storage_error(self) -> str | None:
        return self.storage.error

    @property
    def outages(self) -> int:
        return self.storage.outages

    # -- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        # start the worker processes: their forkserver loads the solver's compiled kernels
        # (compiles them, the first time after an install) before the first bot move or hint
        if start_with_server():
            self.work.start()
        if self.cluster is not None:  # the rooms nobody runs are taken over
            await self.cluster.start()
        else:
            now = await reopen_rooms(self.storage, self.rooms, self.damaged)
            for rt in self.rooms.values():
                rt.last_seen = now
                for seat in rt.room.seats:
                    # a player of a game, or the host of a waiting room, has his grace period
                    if seat.kind == "human" and seat.taken and rt.room.awaits(seat):
                        seat.disconnected_at = now
                        self.scheduler.arm_grace(rt, seat)
                self.scheduler.schedule(rt)
        self.storage.start_heartbeat()
        self.scheduler.start_reaper()
        self.quick.start()

    async def stop(self) -> None:
        await self.quick.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        self.storage.cancel()
        self.scheduler.cancel()
        for rt in self.rooms.values():
            rt.cancel_timers()
        await self.storage.last_beat()
        self._cpu.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.work.close)
        await asyncio.to_thread(self.review.close)
        self._analyses.close()
        await asyncio.to_thread(self.assistant.close)
        self._check.shutdown(wait=False, cancel_futures=True)
        self.storage.shutdown()

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self.storage.db(fn, *args, **kwargs)

    async def reap(self, now: float) -> None:
        """Forget finished rooms nobody watches any more and close waiting rooms nobody came
        to (:meth:`.Scheduler.reap`)."""
        await self.scheduler.reap(now)

    async def _go_on(self) -> None:
        """Storage works again and the rooms are reloaded: every game goes on."""
        for rt in list(self.rooms.values()):
            if rt.room.status == "waiting" and rt.room.all_taken:
                # the game was to start when saving stopped
                async with rt.lock:
                    if rt.room.status == "waiting" and rt.room.all_taken:
                        try:
                            await self.turns.begin(rt)
                        except ClientError:
                            return  # saving failed again: the next recovery goes on
            self.scheduler.schedule(rt)
            self.storage.broadcast(rt)

    def storage_status(self) -> dict[str, Any]:
        return self.storage.status()

    # -- connections -----------------------------------------------------------------
    def new_connection(
        self,
        send: Callable[[str], Any],
        close: Callable[[int], Any],
        *,
        client: str = "unknown",
        person: str | None = None,
        account: Account | None = None,
        remote: bool = False,
    ) -> Connection:
        """A client's connection (``remote``: a client of another node of the cluster, in a
        room of this one; not counted among this server's connections)."""
        conn = Connection(
            send,
            close,
            bucket=self.admission.connection_bucket(),
            budget=self.admission.budget(client),
            client=client,
            person=person,
            account=account,
        )
        conn.remote = remote
        conn.start()
        if not remote:
            self.open_connections += 1
        return conn

    async def receive(self, conn: Connection, text: str | bytes) -> None:
        """Handle one raw message from a client."""
        await self.dispatcher.receive(conn, text)

    async def dispatch(self, conn: Connection, msg: Any) -> None:
        await self.dispatcher.dispatch(conn, msg)

    async def disconnect(self, conn: Connection) -> None:
        if not conn.remote:
            self.open_connections -= 1
        if self.relay is not None:
            self.relay.unproxy(conn)
        await conn.finish()
        await self.quick.forget(conn)
        with contextlib.suppress(ClientError):
            await self.seating.detach(conn, leaving=False)

    def claimed(self, account: Account, seats: list[tuple[str, int]]) -> None:
        """Guest seats an account claimed (stored already): the rooms running here hold
        them for the account from now on."""
        for code, index in seats:
            rt = self.rooms.get(code)
            if rt is not None and index < len(rt.room.seats):
                rt.room.seats[index].account = account.id
                rt.seats[index].account_id = account.id

    # -- queries for the HTTP API -----------------------------------------------------
    async def record(self, code: str) -> str:
        """The game record (JSON text) of a finished game, or of a damaged one up to its last
        good event (:meth:`.Records.record`)."""
        return await self._records.record(code)

    async def analysis(self, code: str, address: str = "local", account: str | None = None) -> str:
        """The analysis (JSON text) of a finished game, asked from ``address`` (by
        ``account``) (:meth:`.Analyses.analysis`)."""
        return await self._analyses.analysis(code, address, account)

    async def game_puzzles(
        self, code: str, address: str = "local", account: str | None = None
    ) -> dict[str, Puzzle]:
        """The puzzles of a finished game's review, by id (:meth:`.Analyses.puzzles`)."""
        return await self._analyses.puzzles(code, address, account)

    async def analysis_progress(self, code: str) -> str:
        """How far the analysis of a finished game is (JSON text)
        (:meth:`.Analyses.progress`)."""
        return json.dumps(await self._analyses.progress(code))

    async def finished(self) -> list[dict[str, Any]]:
        return await self._lobby.finished()

    async def lobby(self, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        """The public rooms, newest first, a page of each list (:meth:`.Lobby.lobby`); in a
        cluster those of every node."""
        await self._lobby.refresh()
        return self._lobby.lobby(offset, limit)

    async def room_info(self, code: str) -> dict[str, Any] | None:
        """What ``GET /api/rooms/CODE`` shows; in a cluster with the node running the room
        (``node``), whichever node it is."""
        code = code.upper()
        info = self._local_info(code)
        if self.cluster is None:
            return info
        if info is not None:
            return {**info, "node": self.cluster.node}
        return await self.cluster.room_info(code)

    def _local_info(self, code: str) -> dict[str, Any] | None:
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

    def _metric_values(self) -> dict[str, Any]:
        writer = self.storage.writer
        return {
            "rooms": Counter(rt.room.status for rt in self.rooms.values()),
            "damaged": len(self.damaged),
            "connections": self.open_connections,
            "events": writer.items,
            "batches": writer.batches,
            "storage_up": int(self.storage.down_since is None),
            "pools": {p.name: p.figures() for p in (self.work, self.review, self.assistant)},
            "cluster": None if self.cluster is None else self.cluster.counts(),
        }

    def ready(self) -> bool:
        """Whether this server should be sent players: started, and its database takes writes
        (``GET /api/ready``: 200 or 503, for a load balancer); a node of a cluster also needs
        its leases renewed (the broker and the database answer)."""
        if self.cluster is not None and not self.cluster.healthy:
            return False
        return self.storage.down_since is None

    async def health(self) -> dict[str, Any]:
        """``GET /api/health``; in a cluster with this node's state and how many unfinished
        rooms each node runs."""
        out = self._health()
        if self.cluster is not None:
            out["cluster"] = self.cluster.status()
            try:
                out["nodes"] = await self.cluster.nodes()
            except Exception as exc:  # the database is down: the storage part says so
                out["nodes"] = None
                out["cluster"]["error"] = str(exc).splitlines()[0][:200]
        return out

    def _health(self) -> dict[str, Any]:
        storage = self.storage_status()
        return {
            "ok": storage["ok"] and not self.damaged,
            "rooms": len(self.rooms),
            "storage": storage,
            "damaged": [
                {"code": code, **damage.to_json()} for code, (_, damage) in self.damaged.items()
            ],
        }

    # -- sessions that ended (issue 35) --------------------------------------------------
    def sessions_ended(self, ended: AccountSessionsEnded) -> int:
        """Sessions of an account ended (logged out, everywhere, a new password, the account
        deleted: :class:`~.accounts.live.Ended`): every connection they logged in loses the
        account and is closed (the page connects again as a guest). For a deleted account the
        seats it holds in the rooms here show the anonymous name and no account any more
        (the stored seats were renamed with the account), their clients are told, and the
        records and analyses kept of its games are made again. How many connections lost
        their account."""
        import dataclasses

        hit = self.accounts.live.end(ended)
        if not ended.deleted or ended.name is None:
            return hit
        for code, index in ended.seats:
            rt = self.rooms.get(code)
            if rt is None or index >= len(rt.room.seats):
                continue
            seat = rt.room.seats[index]
            if seat.account != ended.account:
                continue
            seat.name, seat.account = ended.name, None
            rt.seats[index] = dataclasses.replace(rt.seats[index], name=ended.name)
            match: Any = rt.room.match
            if match is not None and index < len(match.players):
                players = list(match.players)
                players[index] = dataclasses.replace(players[index], name=ended.name)
                match.players = type(match.players)(players)
            self.storage.broadcast(rt)
        codes = {code for code, _ in ended.seats}
        self._records.forget(codes)
        self._analyses.forget(codes)
        self._lobby.invalidate()
        return hit
