"""Quick match: a logged-in player asks for a rated game (``queue``) and is seated at one with
players of a similar rating, or with bots of a matching level if he allows them and has waited
long enough (:class:`rummikub.ratings.Queue` decides who plays whom).

Every second the queue is matched (on a cluster by the node that leads it: see
:mod:`.quick_tickets`); each game found becomes a rated room under the standard preset, started
at once, and each of its players gets ``{"type": "matched", "room", "seat", "token"}`` on his
connection, and takes his seat with the token (``resume``) like after a reconnect. A player
leaves the queue with ``unqueue``, by queueing again (his wait starts anew), or by closing his
connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from rummikub.ratings import Queue, Rating, Ticket, bot_ratings
from rummikub.ratings import Settings as QueueSettings

from ..accounts.store import Account, AccountStore
from ..protocol import messages as p
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.periodic import cancel_all, every
from .creation import RoomMaker
from .quick_tickets import LEAD_SECONDS, Tickets
from .rated import check_rated_game, need_account

__all__ = ["PRESET", "TICK_SECONDS", "QueueSettings", "QuickMatch"]

log = logging.getLogger("rummikub.server")

#: how often the queue is matched
TICK_SECONDS = 1.0
#: the rules of a quick match's game
PRESET = "standard"


class QuickMatch:
    """The quick-match queue as one server (or node) sees it: its own waiting players'
    connections, and the tickets of everyone (``tickets``)."""

    def __init__(
        self,
        maker: RoomMaker,
        accounts: AccountStore,
        tickets: Tickets,
        clock: Clock,
        settings: QueueSettings | None = None,
    ) -> None:
        self.maker = maker
        self.clock = clock
        self.accounts = accounts
        self.tickets = tickets
        self.settings = settings or QueueSettings()
        #: this node's waiting players: the connection and ticket of each (by account id)
        self.waiting: dict[str, tuple[Connection, dict[str, Any]]] = {}
        self._task: asyncio.Task[None] | None = None
        self.games_started = 0

    def start(self) -> None:
        job = every(
            self.clock,
            TICK_SECONDS,
            lambda: self.tick(self.clock.time()),
            "quick match: the queue could not be matched",
        )
        self._task = asyncio.create_task(job)

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_all([self._task])

    # -- a player's requests ---------------------------------------------------------
    async def join(self, conn: Connection, msg: p.QueueMsg) -> None:
        need_account(conn, "a quick match")
        check_rated_game(msg.game)
        assert conn.account is not None
        account = conn.account
        standing = await asyncio.to_thread(self.accounts.rating, account, msg.game)
        player = str(account.id)
        before = self.waiting.get(player)
        if before is not None and before[0] is not conn:  # queued from another page
            before[0].send({"type": "unqueued", "reason": "replaced"})
        now = self.clock.time()
        sizes = sorted(set(msg.players))
        ticket = {
            "player": player, "name": account.name, "game": msg.game, "mu": standing.rating.mu,
            "sigma": standing.rating.sigma, "sizes": sizes, "bots": msg.bots, "joined": now,
            "seen": now,
        }  # fmt: skip
        await self.tickets.put(ticket)
        self.waiting[player] = (conn, ticket)
        conn.send(
            {
                "type": "queued", "id": msg.id, "game": msg.game, "players": sizes,
                "bots": msg.bots, "rating": standing.display,
                "bots_after": self.settings.bots_after if msg.bots else None,
            }
        )  # fmt: skip

    async def leave(self, conn: Connection, msg: p.UnqueueMsg) -> None:
        if not await self.forget(conn):
            raise ClientError(ServerCode.NOT_QUEUED, "you are not waiting for a quick match")
        conn.send({"type": "unqueued", "id": msg.id, "reason": "left"})

    async def forget(self, conn: Connection) -> bool:
        """Take ``conn``'s player out of the queue (he left, or his connection closed);
        whether he was waiting there."""
        if conn.account is None:
            return False
        player = str(conn.account.id)
        waiting = self.waiting.get(player)
        if waiting is None or waiting[0] is not conn:
            return False
        del self.waiting[player]
        with contextlib.suppress(Exception):  # the broker is down: the ticket goes stale
            await self.tickets.drop(player)
        return True

    # -- matching ----------------------------------------------------------------------
    async def tick(self, now: float) -> None:
        """Say this node's players still wait; match the queue if this node leads it; pass the
        news of their games to this node's players."""
        for _, ticket in self.waiting.values():
            ticket["seen"] = now
            await self.tickets.put(ticket)
        if await self.tickets.lead():
            await self._match(now)
        news = await self.tickets.news(list(self.waiting))
        for player, found in news.items():
            conn, _ = self.waiting.pop(player)
            conn.send({"type": "matched", **found})

    async def _match(self, now: float) -> None:
        everyone = await self.tickets.all()
        live = []
        for t in everyone:
            if now - float(t["seen"]) > 2 * LEAD_SECONDS + TICK_SECONDS:
                await self.tickets.drop(t["player"])  # its node is gone
            else:
                live.append(t)
        by_player = {t["player"]: t for t in live}
        for game in sorted({t["game"] for t in live}):
            queue = Queue(bot_ratings(game), self.settings)
            for t in live:
                if t["game"] == game:
                    queue.join(
                        Ticket(t["player"], Rating(t["mu"], t["sigma"]), frozenset(t["sizes"]),
                               bool(t["bots"]), float(t["joined"]))
                    )  # fmt: skip
            for found in queue.tick(now):
                players = list(found.players)
                if not await self.tickets.take(players):
                    continue
                accounts = [Account(int(x), str(by_player[x]["name"])) for x in players]
                try:
                    code, tokens = await self.maker.matched(game, PRESET, accounts, found.bots)
                except Exception:
                    log.exception("quick match: a game could not be started")
                    for x in players:  # they wait on
                        await self.tickets.put(by_player[x])
                    continue
                self.games_started += 1
                log.info(
                    "quick match: room %s for %s and bots %s",
                    code,
                    ", ".join(a.name for a in accounts),
                    ", ".join(found.bots) or "none",
                )
                for i, x in enumerate(players):
                    await self.tickets.tell(x, {"room": code, "seat": i, "token": tokens[i]})
