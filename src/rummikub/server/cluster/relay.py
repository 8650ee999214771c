"""Clients of rooms another node runs: their messages forwarded to the room's node, its
messages relayed back (through the :mod:`.broker`).

On the client's node, a client that enters (joins, resumes, watches) a room this node does not
run is *proxied*: the message, and every later one but pings, is published to the room's
channel, which only the node holding the room's lease receives. That node handles it as from a
client of its own — a *remote* :class:`.Connection`, whose sending publishes to the client's
node, addressed to that one connection — so every rule about who sees what (a player's rack
goes to his connection only), the rate limits and the budgets stay the room node's.

A message to a room nobody runs (its node died, and no node has taken it over yet) reaches
nobody: an entering client waits for the takeover (up to :data:`ENTER_WAIT_SECONDS`); any other
client is disconnected (WebSocket close 1012), reconnects and resumes like after a restart. A
node that takes a room over says so on the ``moved`` channel, and the clients proxied to it are
disconnected the same way (their seats on the old node died with it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from ..accounts.store import Account
from ..protocol import messages as p
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..runtime.clock import Clock
from ..runtime.connection import Connection
from ..runtime.room_runtime import RoomRuntime
from .broker import Broker

__all__ = ["MOVED_CLOSE", "Relay"]

log = logging.getLogger("rummikub.server")

#: the WebSocket close code of a client whose room moved to another node ("service restart":
#: the web client reconnects and resumes)
MOVED_CLOSE = 1012
#: how long a client entering a room nobody runs waits for a node to take it over
ENTER_WAIT_SECONDS = 20.0


@dataclass(slots=True)
class _Remote:
    """A client of another node in a room of this one."""

    conn: Connection
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


class Relay:
    """Forwarding and relaying for one node. ``receive``, ``new_remote`` and ``disconnect``
    are the room manager's; ``is_active(code)`` tells whether a room is unfinished in the
    database (someone should run it)."""

    def __init__(
        self,
        node: str,
        rooms: dict[str, RoomRuntime],
        damaged: Collection[str],
        *,
        receive: Callable[[Connection, str], Awaitable[None]],
        new_remote: Callable[
            [
                Callable[[str], Awaitable[None]],
                Callable[[int], Awaitable[None]],
                str,
                str,
                Account | None,
            ],
            Connection,
        ],
        disconnect: Callable[[Connection], Awaitable[None]],
        detach: Callable[[Connection], Awaitable[None]],
        is_active: Callable[[str], Awaitable[bool]],
        clock: Clock,
    ) -> None:
        self.node = node
        self.rooms = rooms
        self.damaged = damaged
        self.broker: Broker | None = None
        self._receive = receive
        self._new_remote = new_remote
        self._disconnect = disconnect
        self._detach = detach
        self._is_active = is_active
        self._clock = clock
        # the clients' numbers start at random: a node restarted under the same name never
        # reuses a number another node still knows as one of its clients
        self._next = secrets.randbits(40) << 16
        #: this node's clients forwarded to other nodes, by their number
        self.proxied: dict[int, Connection] = {}
        #: other nodes' clients in this node's rooms, by (node, number)
        self.remote: dict[tuple[str, int], _Remote] = {}

    def _broker(self) -> Broker:
        assert self.broker is not None
        return self.broker

    # -- the client's node -----------------------------------------------------------
    async def intercept(self, conn: Connection, msg: Any, text: str | bytes) -> bool:
        """Forward ``msg`` if it is for a room another node runs; whether it was."""
        if conn.remote or isinstance(msg, p.PingMsg | p.QueueMsg | p.UnqueueMsg):
            return False
        raw = text if isinstance(text, str) else text.decode("utf-8", "replace")
        if isinstance(msg, p.JoinMsg | p.ResumeMsg | p.WatchMsg):
            code = msg.room.upper()
            if code in self.rooms or code in self.damaged:
                self.unproxy(conn)
                return False
            if conn.proxy != code:
                self.unproxy(conn)
            if conn.room is not None:
                await self._detach(conn)
            return await self._enter(conn, code, raw)
        if isinstance(msg, p.CreateMsg):
            self.unproxy(conn)
            return False
        if conn.proxy is None:
            return False
        frame = self._frame(conn, raw)
        sent = await self._broker().publish_counted(self._broker().room_channel(conn.proxy), frame)
        if not sent:  # the room's node is gone: the client comes back and resumes
            self._moved(conn)
        return True

    def _frame(self, conn: Connection, text: str, **extra: Any) -> str:
        head = {"n": self.node, "c": conn.ident, "a": conn.client, "p": conn.person, **extra}
        if conn.account is not None:  # the room's node treats him as logged in as well
            head["u"] = [conn.account.id, conn.account.name]
        return json.dumps(head, separators=(",", ":")) + "\n" + text

    async def _enter(self, conn: Connection, code: str, text: str) -> bool:
        if not conn.ident:
            self._next += 1
            conn.ident = self._next
        conn.proxy = code
        self.proxied[conn.ident] = conn
        end = self._clock.monotonic() + ENTER_WAIT_SECONDS
        while True:
            if await self._broker().publish_counted(
                self._broker().room_channel(code), self._frame(conn, text)
            ):
                return True
            if code in self.rooms:  # this node took it over meanwhile
                self._forget(conn)
                return False
            if self._clock.monotonic() > end or not await self._is_active(code):
                self._forget(conn)
                if self._clock.monotonic() > end:
                    raise ClientError(
                        ServerCode.STORAGE_UNAVAILABLE,
                        f"game {code} is moving to another server; try again in a moment",
                        params={"room": code},
                    )
                return False  # no such room (or it is over): answered here, as one server does
            await self._clock.sleep(0.25)

    def _forget(self, conn: Connection) -> None:
        self.proxied.pop(conn.ident, None)
        conn.proxy = conn.via = None

    def unproxy(self, conn: Connection) -> None:
        """Stop forwarding ``conn`` (it left, or goes elsewhere): its room's node lets go of
        it (a player's grace period starts, as on a lost connection)."""
        if conn.proxy is None:
            return
        self._broker().publish(
            self._broker().room_channel(conn.proxy), self._frame(conn, "", bye=1)
        )
        self._forget(conn)

    def _moved(self, conn: Connection) -> None:
        self._forget(conn)
        conn.close_soon(MOVED_CLOSE)

    def on_node(self, data: str) -> None:
        """A message of another node's room for a client of this node."""
        ident, via, text = data.split(" ", 2)
        conn = self.proxied.get(int(ident))
        if conn is None:
            return
        conn.via = via
        if text.startswith("!"):
            self._forget(conn)
            conn.close_soon(int(text[1:]))
            return
        conn.send_text(text)

    def on_moved(self, data: str) -> None:
        """The node named in ``data`` (``CODE NODE``) took the room over: the clients here
        the room's former node answered enter it again (those the new node answers already
        stay)."""
        code, _, holder = data.partition(" ")
        for conn in list(self.proxied.values()):
            if conn.proxy == code and conn.via is not None and conn.via != holder:
                self._moved(conn)

    # -- the room's node -------------------------------------------------------------
    def on_room(self, code: str, data: str) -> None:
        """A message from a client of another node to the room ``code``."""
        head_text, _, text = data.partition("\n")
        head = json.loads(head_text)
        key = (str(head["n"]), int(head["c"]))
        remote = self.remote.get(key)
        if head.get("bye"):
            if remote is not None:
                del self.remote[key]
                remote.inbox.put_nowait(None)
            return
        if remote is None:
            if json.loads(text).get("type") not in ("join", "resume", "watch"):
                # a client of this room's former node: it must enter the room again
                self._close_at_node(key)
                return
            user = head.get("u")
            account = None if user is None else Account(int(user[0]), str(user[1]))
            remote = self._open(key, str(head["a"]), str(head["p"]), account)
        remote.inbox.put_nowait(text)

    def _open(
        self, key: tuple[str, int], client: str, person: str, account: Account | None
    ) -> _Remote:
        node, ident = key
        broker = self._broker()
        channel = broker.node_channel(node)

        async def send(text: str) -> None:
            broker.publish(channel, f"{ident} {self.node} {text}")

        async def close(code: int) -> None:
            # cut off here (a client that does not read): let go of it, and close its socket
            gone = self.remote.pop(key, None)
            if gone is not None:
                gone.inbox.put_nowait(None)
            broker.publish(channel, f"{ident} {self.node} !{code}")

        conn = self._new_remote(send, close, client, person, account)
        remote = _Remote(conn)
        remote.task = asyncio.get_running_loop().create_task(self._serve(remote))
        self.remote[key] = remote
        return remote

    async def _serve(self, remote: _Remote) -> None:
        while True:
            text = await remote.inbox.get()
            if text is None:
                await self._disconnect(remote.conn)
                return
            try:
                await self._receive(remote.conn, text)
            except Exception:
                log.exception("a forwarded message failed")

    def close_remote(self, conn: Connection) -> None:
        """Cut off another node's client (its room left this node)."""
        for key, remote in list(self.remote.items()):
            if remote.conn is conn:
                del self.remote[key]
                remote.inbox.put_nowait(None)
                self._close_at_node(key)

    async def reap(self) -> None:
        """Let go of the clients of nodes that stopped telling the broker they live (a
        player's grace period starts), and tell their node to close them: a node that only
        stalled (a long pause, a starved process) must not keep a client this room no longer
        sends to, waiting in silence; he reconnects and resumes (a dead node hears nothing)."""
        if not self.remote:
            return
        nodes = {node for node, _ in self.remote}
        alive = await self._broker().alive(nodes)
        gone = [k for k in self.remote if k[0] not in alive]
        for node in sorted({node for node, _ in gone}):
            log.warning("node %s stopped beating: its clients in this node's rooms let go", node)
        for key in gone:
            remote = self.remote.pop(key)
            remote.inbox.put_nowait(None)
            self._close_at_node(key)

    def _close_at_node(self, key: tuple[str, int]) -> None:
        """Tell the node of the client ``key`` (node, number) to close its socket (1012: it
        reconnects and resumes)."""
        node, ident = key
        self._broker().publish(
            self._broker().node_channel(node), f"{ident} {self.node} !{MOVED_CLOSE}"
        )
