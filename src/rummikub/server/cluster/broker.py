"""The broker between the nodes of a cluster: Redis publish/subscribe (``redis.asyncio``).

Channels (every name starts with :data:`PREFIX` and the name of the cluster's database, so
clusters of different databases may share one Redis):

- ``room:CODE`` — what clients connected to other nodes send to the room ``CODE``; only the
  node holding the room's lease subscribes to it, so a message published while nobody runs the
  room reaches nobody (``PUBLISH`` says so: 0 receivers);
- ``node:NAME`` — what the rooms of other nodes send to the clients connected to ``NAME``, each
  message addressed to one connection (a player's view goes to his connection only);
- ``moved`` — the codes of rooms another node has just taken over.

Everything a node publishes goes through one queue and one connection, in order, many messages
per round trip (a pipeline), so the messages to one client arrive in the order they were sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from ..runtime.periodic import cancel_all

__all__ = ["PREFIX", "Broker"]

log = logging.getLogger("rummikub.server")

PREFIX = "rummikub:"
#: how long a command to the broker may take before the broker counts as unreachable
COMMAND_SECONDS = 1.0


class Broker:
    """One node's link to Redis. ``on_room(code, data)``, ``on_node(data)`` and
    ``on_moved(code)`` are called for what arrives on its channels."""

    def __init__(
        self,
        url: str,
        node: str,
        cluster: str,
        *,
        on_room: Callable[[str, str], None],
        on_node: Callable[[str], None],
        on_moved: Callable[[str], None],
    ) -> None:
        self.node = node
        self.prefix = f"{PREFIX}{cluster}:"
        self.moved = self.prefix + "moved"
        self.redis: Redis = Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=COMMAND_SECONDS,
            socket_connect_timeout=COMMAND_SECONDS,
        )
        self._sub: PubSub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._on_room = on_room
        self._on_node = on_node
        self._on_moved = on_moved
        self._out: list[tuple[str, str, asyncio.Future[int] | None]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.rooms: set[str] = set()
        #: messages published and received (``/metrics``)
        self.published = 0
        self.received = 0
        self.error: str | None = None

    def room_channel(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def node_channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def _alive_key(self, node: str) -> str:
        return f"{self.prefix}alive:{node}"

    async def start(self) -> None:
        await self._sub.subscribe(self.node_channel(self.node), self.moved)
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._send())]

    async def close(self) -> None:
        await cancel_all(self._tasks)
        sub: Any = self._sub  # typed from redis 8.2 on, untyped before
        with contextlib.suppress(Exception):
            await sub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- publishing ------------------------------------------------------------------
    def publish(self, channel: str, data: str) -> None:
        """Publish ``data`` (in order with everything else this node publishes)."""
        self._out.append((channel, data, None))
        self._wake.set()

    async def publish_counted(self, channel: str, data: str) -> int:
        """Publish ``data`` and return how many nodes received it (0 when the broker cannot be
        reached)."""
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._out.append((channel, data, fut))
        self._wake.set()
        return await fut

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._out = self._out, []
            if not batch:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    counts = await pipe.execute()
            except Exception as exc:
                self.error = f"{type(exc).__name__}: {exc}"
                log.warning("broker: %d messages not published: %s", len(batch), self.error)
                counts = [0] * len(batch)
            else:
                self.published += len(batch)
            for (_, _, fut), count in zip(batch, counts, strict=True):
                if fut is not None and not fut.done():
                    fut.set_result(int(count))

    # -- subscriptions ---------------------------------------------------------------
    async def follow(self, codes: Iterable[str]) -> None:
        """Receive what is sent to the rooms ``codes`` (this node runs them now)."""
        new = [c for c in codes if c not in self.rooms]
        if new:
            self.rooms.update(new)
            await self._sub.subscribe(*(self.room_channel(c) for c in new))

    async def unfollow(self, codes: Iterable[str]) -> None:
        gone = [c for c in codes if c in self.rooms]
        if gone:
            self.rooms.difference_update(gone)
            with contextlib.suppress(Exception):  # a lost connection subscribes afresh
                await self._sub.unsubscribe(*(self.room_channel(c) for c in gone))

    async def _read(self) -> None:
        prefix = self.room_channel("")
        while True:
            try:
                msg = await self._sub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.error = f"{type(exc).__name__}: {exc}"
                await asyncio.sleep(0.5)
                continue
            if msg is None or msg.get("type") != "message":
                continue
            self.received += 1
            channel, data = msg["channel"], msg["data"]
            try:
                if channel.startswith(prefix):
                    self._on_room(channel[len(prefix) :], data)
                elif channel == self.moved:
                    self._on_moved(data)
                else:
                    self._on_node(data)
            except Exception:
                log.exception("broker: a message on %s failed", channel)

    # -- liveness --------------------------------------------------------------------
    async def beat(self, ttl: float) -> bool:
        """Tell the other nodes this one lives (for ``ttl`` seconds); whether the broker
        answered."""
        try:
            await asyncio.wait_for(
                self.redis.set(self._alive_key(self.node), "1", px=int(ttl * 1000)), COMMAND_SECONDS
            )
        except Exception as exc:
            self.error = f"{type(exc).__name__}: {exc}"
            return False
        self.error = None
        return True

    async def alive(self, nodes: Iterable[str]) -> set[str]:
        """Which of ``nodes`` told the broker lately that they live (all of them, should the
        broker not answer: nobody is cut off for the broker's fault)."""
        names = list(nodes)
        if not names:
            return set()
        try:
            found = await asyncio.wait_for(
                self.redis.mget([self._alive_key(n) for n in names]), COMMAND_SECONDS
            )
        except Exception:
            return set(names)
        return {n for n, v in zip(names, found, strict=True) if v is not None}
