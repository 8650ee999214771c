"""Where the quick-match queue keeps its tickets: in the server's memory when it runs alone,
in Redis (the cluster's broker) when it is a node of a cluster, so players connected to
different nodes meet in one queue.

A ticket is a JSON object (``player``: the account id as text, ``name``, ``mu``, ``sigma``,
``sizes``, ``bots``, ``joined``, and ``seen``: when its node last said the player still
waits). One node at a time leads (holds a short lock it renews): it matches the tickets, takes
those of each game out of the queue, starts the game and leaves each player the news of his
seat, which the player's own node passes on to him.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the cluster's broker hands its client in: a server alone never imports redis
    from redis.asyncio import Redis

__all__ = ["LEAD_SECONDS", "LocalTickets", "RedisTickets", "Tickets"]

#: how long the lead lasts without being renewed (a leader that died is replaced after this)
LEAD_SECONDS = 3.0
#: how long the news of a game waits for its player's node to pass it on
NEWS_SECONDS = 120


class Tickets(Protocol):
    async def put(self, ticket: dict[str, Any]) -> None:
        """Add or refresh a player's ticket."""

    async def drop(self, player: str) -> None:
        """Take a player's ticket out (he left the queue, or his connection closed)."""

    async def lead(self) -> bool:
        """Whether this node matches the queue now (it takes or renews the lead)."""

    async def all(self) -> list[dict[str, Any]]:
        """Every ticket waiting."""

    async def take(self, players: list[str]) -> bool:
        """Take the tickets of ``players`` out of the queue for a game; ``False`` (and none
        taken) when one of them has gone meanwhile."""

    async def tell(self, player: str, news: dict[str, Any]) -> None:
        """Leave ``player`` the news of his game."""

    async def news(self, players: list[str]) -> dict[str, dict[str, Any]]:
        """The news left for any of ``players`` (each given once)."""


class LocalTickets:
    """The queue of one server process."""

    def __init__(self) -> None:
        self.tickets: dict[str, dict[str, Any]] = {}
        self.told: dict[str, dict[str, Any]] = {}

    async def put(self, ticket: dict[str, Any]) -> None:
        self.tickets[ticket["player"]] = ticket

    async def drop(self, player: str) -> None:
        self.tickets.pop(player, None)

    async def lead(self) -> bool:
        return True

    async def all(self) -> list[dict[str, Any]]:
        return list(self.tickets.values())

    async def take(self, players: list[str]) -> bool:
        if not all(p in self.tickets for p in players):
            return False
        for p in players:
            del self.tickets[p]
        return True

    async def tell(self, player: str, news: dict[str, Any]) -> None:
        self.told[player] = news

    async def news(self, players: list[str]) -> dict[str, dict[str, Any]]:
        return {p: self.told.pop(p) for p in players if p in self.told}


class RedisTickets:
    """The queue of a cluster, in the broker's Redis (keys under ``prefix``)."""

    def __init__(self, redis: Redis, prefix: str, node: str) -> None:
        self.redis = redis
        self.node = node
        self._tickets = f"{prefix}quick:tickets"
        self._lead = f"{prefix}quick:lead"
        self._news = f"{prefix}quick:news:"

    async def put(self, ticket: dict[str, Any]) -> None:
        await self.redis.hset(self._tickets, ticket["player"], json.dumps(ticket))

    async def drop(self, player: str) -> None:
        await self.redis.hdel(self._tickets, player)

    async def lead(self) -> bool:
        ms = int(LEAD_SECONDS * 1000)
        if await self.redis.set(self._lead, self.node, nx=True, px=ms):
            return True
        if await self.redis.get(self._lead) == self.node:
            await self.redis.pexpire(self._lead, ms)
            return True
        return False

    async def all(self) -> list[dict[str, Any]]:
        found = await self.redis.hgetall(self._tickets)
        return [json.loads(v) for v in found.values()]

    async def take(self, players: list[str]) -> bool:
        found = await self.redis.hmget(self._tickets, players)
        if any(v is None for v in found):
            return False
        taken = [p for p in players if await self.redis.hdel(self._tickets, p)]
        if len(taken) == len(players):
            return True
        # one left while the game was being made: the others wait on
        for p, v in zip(players, found, strict=True):
            if p in taken and v is not None:
                await self.redis.hsetnx(self._tickets, p, v)
        return False

    async def tell(self, player: str, news: dict[str, Any]) -> None:
        await self.redis.set(self._news + player, json.dumps(news), ex=NEWS_SECONDS)

    async def news(self, players: list[str]) -> dict[str, dict[str, Any]]:
        if not players:
            return {}
        keys = [self._news + p for p in players]
        found = await self.redis.mget(keys)
        out = {p: json.loads(v) for p, v in zip(players, found, strict=True) if v is not None}
        if out:
            await self.redis.delete(*(self._news + p for p in out))
        return out
