"""One node of a cluster (``rummikub serve --db postgresql://… --broker redis://…``): the
leases of its rooms, taking over the rooms of nodes that died, and stopping at once for the
rooms it may no longer run.

Every :data:`BEAT_SECONDS` the node tells the broker it lives and renews the leases of its rooms
(:mod:`.leases`); a room whose lease was lost is dropped at once. Should the broker or the
database not answer, the leases are not renewed, and the node drops all its rooms
:data:`SAFETY_SECONDS` before they could expire, by its own clock (self-fencing): their clients
are disconnected, reconnect to any node and resume there. Each beat the node also takes over
unfinished rooms whose lease expired (or that never had one): each is restored from its event log
as a restart restores it, its clocks going on with the time their players had at the last
renewal, its bots playing again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rummikub.core import RummikubError

from ..rooms.room import Room
from ..runtime.clock import Clock
from ..runtime.lobby import Lobby
from ..runtime.periodic import cancel_all, every
from ..runtime.reopen import reopen
from ..runtime.restore import Damage, empty_room
from ..runtime.room_runtime import RoomRuntime
from ..runtime.scheduling import Scheduler
from ..storage.store import Store
from .broker import Broker
from .leases import ACTIVE, Claim, Leases
from .relay import MOVED_CLOSE, Relay

__all__ = [
    "BEAT_SECONDS",
    "LEASE_SECONDS",
    "SAFETY_SECONDS",
    "ClusterNode",
    "default_node_name",
]

log = logging.getLogger("rummikub.server")

T = TypeVar("T")

#: how often a node renews its leases and looks for rooms to take over
BEAT_SECONDS = 1.0
#: how long a lease lasts after its renewal
LEASE_SECONDS = 5.0
#: how long before its leases could expire a node that could not renew them stops
SAFETY_SECONDS = 1.5
#: rooms one node takes over per beat (the others are left to the next beat, or other nodes)
CLAIMS_PER_BEAT = 50


def default_node_name() -> str:
    """The host's name and the process id: unique on a machine and across machines."""
    return f"{socket.gethostname()}-{os.getpid()}"


class ClusterNode:
    """The cluster side of one room manager: its rooms' leases, the broker, failover."""

    def __init__(
        self,
        node: str,
        broker_url: str,
        store: Store,
        rooms: dict[str, RoomRuntime],
        relay: Relay,
        scheduler: Scheduler,
        lobby: Lobby,
        damaged: dict[str, tuple[Room | None, Damage]],
        clock: Clock,
    ) -> None:
        self.node = node
        #: the server's clock; the leases expire on the database's, so a node of a real
        #: cluster runs on the real clock
        self.clock = clock
        self.store = store
        self.rooms = rooms
        self.relay = relay
        self.leases = Leases(store.engine, node, LEASE_SECONDS)
        store.fence = self.leases
        self.broker = Broker(
            broker_url,
            node,
            store.engine.url.database or "rummikub",
            on_room=relay.on_room,
            on_node=relay.on_node,
            on_moved=relay.on_moved,
        )
        relay.broker = self.broker
        self.scheduler = scheduler
        self.lobby = lobby
        self.damaged = damaged
        # the leases have their own thread: a long queue of writes never delays a renewal
        self._db = ThreadPoolExecutor(1, thread_name_prefix="rummikub-lease")
        self._tasks: list[asyncio.Task[None]] = []
        #: when (the node's monotonic clock) the last renewal that succeeded began
        self.renewed_at = self.clock.monotonic()
        self.takeovers = 0
        self.drops = 0
        self.healthy = False
        #: the rooms at the last beat (a room gone since is no longer renewed)
        self._seen: set[str] = set()

    async def _run(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: fn(*args, **kw))

    async def start(self) -> None:
        await self.broker.start()
        self.healthy = await self.broker.beat(LEASE_SECONDS)
        self.renewed_at = self.clock.monotonic()
        await self._take_over()
        beat = every(self.clock, BEAT_SECONDS, self.beat, "cluster beat failed")
        self._tasks = [asyncio.create_task(beat), asyncio.create_task(self._watch())]

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        with contextlib.suppress(Exception):
            await self._run(self.leases.give_up)
        await self.broker.close()
        self._db.shutdown(wait=False, cancel_futures=True)

    # -- the beat --------------------------------------------------------------------
    async def beat(self) -> None:
        began = self.clock.monotonic()
        if not await self.broker.beat(LEASE_SECONDS):
            self.healthy = False
            log.warning("broker unreachable (%s): leases not renewed", self.broker.error)
            return
        try:
            lost = await asyncio.wait_for(self._run(self.leases.renew), LEASE_SECONDS)
        except Exception as exc:
            self.healthy = False
            log.warning("database unreachable: leases not renewed: %s", exc)
            return
        self.renewed_at = began
        self.healthy = True
        for code in lost:
            self.drop(code, "its lease was lost")
        for code in self._seen - set(self.rooms) - set(self.damaged):  # reaped rooms
            self.leases.release(code)
        self._seen = set(self.rooms)
        # the damaged games too: a client entering one hears why it cannot, as on one server
        mine = set(self.rooms) | set(self.damaged)
        await self.broker.follow(mine)
        await self.broker.unfollow(self.broker.rooms - mine)
        await self._take_over()
        await self.relay.reap()

    async def _watch(self) -> None:
        """Self-fencing: every room dropped before its lease could expire when the leases
        could not be renewed (the broker or the database cut off)."""
        while True:
            await self.clock.sleep(0.2)
            if self.clock.monotonic() - self.renewed_at > LEASE_SECONDS - SAFETY_SECONDS:
                for code in list(self.rooms):
                    self.drop(code, "this node is cut off from the broker or the database")

    # -- rooms coming and going ------------------------------------------------------
    def drop(self, code: str, why: str) -> None:
        """Stop running the room ``code`` at once: its clients reconnect elsewhere."""
        rt = self.rooms.pop(code, None)
        self.leases.release(code)
        if rt is None:
            return
        self.drops += 1
        if rt.room.status in ACTIVE:
            log.warning("room %s dropped: %s", code, why)
        rt.cancel_timers()
        for conn in list(rt.conns):
            conn.room = conn.seat = None
            if conn.remote:
                self.relay.close_remote(conn)
            else:
                conn.close_soon(MOVED_CLOSE)
        rt.conns.clear()
        self.lobby.invalidate()

    async def _take_over(self) -> None:
        if self.clock.monotonic() - self.renewed_at > LEASE_SECONDS - SAFETY_SECONDS:
            return
        found = await self._run(self.leases.claimable, CLAIMS_PER_BEAT)
        for code, epoch in found:
            if code in self.rooms:
                continue
            claim = await self._run(self.leases.claim, code, epoch)
            if claim is not None:
                await self._restore(claim)

    async def _restore(self, claim: Claim) -> None:
        sr = await self._run(self.store.load_room, claim.code)
        if sr is None or sr.status not in ACTIVE:
            self.leases.release(claim.code)
            return
        now = self.clock.time()
        try:
            rt = reopen(sr, claim.last_renewed, now, self.damaged)
        except (RummikubError, KeyError, TypeError, ValueError) as exc:
            damage = Damage(0, "room", f"{type(exc).__name__}: {exc}", 0)
            log.error("room %s cannot be taken over: its row: %s", claim.code, damage.error)
            self.damaged[claim.code] = (None, damage)
            rt = None
        if rt is None:
            # a damaged game: kept here and reported (its record readable), its lease held so
            # that no other node tries it again and again
            return
        rt.last_seen = now
        self.rooms[claim.code] = rt
        self.takeovers += 1
        await self.broker.follow([claim.code])
        await self._set_going(rt)
        self.broker.publish(self.broker.moved, f"{claim.code} {self.node}")
        log.warning("room %s taken over (epoch %d)", claim.code, claim.epoch)

    async def _set_going(self, rt: RoomRuntime) -> None:
        """A room taken over: set it going as a restart does (grace periods, clocks, bots)."""
        room = rt.room
        now = self.clock.time()
        if room.turn_started is not None:
            with contextlib.suppress(Exception):  # stored with its next write otherwise
                await self._run(self.store.update_room, room.code, turn_started=room.turn_started)
                rt.row["turn_started"] = room.turn_started
        for seat in room.seats:
            if seat.kind == "human" and seat.taken and room.awaits(seat):
                seat.disconnected_at = now
                self.scheduler.arm_grace(rt, seat)
        self.scheduler.schedule(rt)
        self.lobby.invalidate()

    # -- what the API shows ----------------------------------------------------------
    async def room_info(self, code: str) -> dict[str, Any] | None:
        """``GET /api/rooms/CODE`` of a room another node runs, from the database."""
        sr = await self._run(self.store.load_room, code, events=False)
        owner = await self.owner(code)
        if sr is None or (owner is None and sr.status not in ACTIVE):
            return None
        room = empty_room(sr)
        return {
            "code": code,
            "status": sr.status,
            **room.lobby_info(),
            "seats": [s.public() for s in room.seats],
            "host": room.settings.host,
            "node": owner,
        }

    async def owner(self, code: str) -> str | None:
        if code in self.rooms:
            return self.node
        return await self._run(self.leases.owner, code)

    async def nodes(self) -> dict[str, int]:
        """How many unfinished rooms each node runs."""
        counts: dict[str, int] = {}
        for node in (await self._run(self.leases.owners)).values():
            counts[node] = counts.get(node, 0) + 1
        return counts

    async def is_active(self, code: str) -> bool:
        sr = await self._run(self.store.load_room, code, events=False)
        return sr is not None and sr.status in ACTIVE

    def counts(self) -> dict[str, float]:
        """This node's cluster metrics (:data:`..runtime.metrics.CLUSTER`)."""
        return {
            "broker_published": self.broker.published,
            "broker_received": self.broker.received,
            "connections_proxied": len(self.relay.proxied),
            "connections_remote": len(self.relay.remote),
            "takeovers": self.takeovers,
            "rooms_dropped": self.drops,
            "fenced_writes": self.leases.refused,
            "cluster_healthy": int(self.healthy),
        }

    def status(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "healthy": self.healthy,
            "renewed": round(self.clock.monotonic() - self.renewed_at, 1),
            "broker_error": self.broker.error,
            "takeovers": self.takeovers,
            "drops": self.drops,
            "fenced_writes": self.leases.refused,
        }
