"""One WebSocket client as the room manager sees it: its outgoing queue, its budgets and the
seat it holds, and the account it is logged in to for as long as that session lasts."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from ..accounts.store import Account
from .admission import Budget
from .ratelimit import TokenBucket

__all__ = ["MAX_QUEUE", "SESSION_ENDED", "Connection"]

#: messages queued for a client that does not read; past this it is cut off
MAX_QUEUE = 256
#: the close code of a connection whose session ended (logged out, the password changed, the
#: account deleted): the page connects again, as the guest it now is
SESSION_ENDED = 4001
#: the closing sockets' tasks, held until done (the event loop holds its tasks weakly: a close
#: nobody held could be collected before the client heard it, and he would wait in silence)
_CLOSING: set[asyncio.Task[None]] = set()


class Connection:
    """One WebSocket client: its outgoing queue, rate limits and where it sits.

    ``client`` is the address it connects from (budgets are per address); ``person`` says who
    it is for the one-seat-per-person rule: the account it is logged in as, else the browser's
    own id when the client sends one, else the address. ``account``: the account of the
    session cookie the WebSocket handshake carried (``None``: a guest). When that session
    ends (:mod:`..accounts.live`) the connection loses the account at once and is closed
    (:meth:`lose_account`).
    """

    def __init__(
        self,
        send: Callable[[str], Any],
        close: Callable[[int], Any],
        *,
        bucket: TokenBucket,
        budget: Budget,
        client: str = "unknown",
        person: str | None = None,
        account: Account | None = None,
    ) -> None:
        self._send = send
        self._close = close
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = bucket
        self.budget = budget
        self.client = client
        self.account = account
        if account is not None:
            person = f"account:{account.id}"
        self.person = person or f"address:{client}"
        self.room: str | None = None
        self.seat: int | None = None
        self.closed = False
        self.dropped = 0
        self.last_limit_notice = 0.0
        self.writer: asyncio.Task[None] | None = None
        #: in a cluster (:mod:`..cluster.relay`): the room of another node this client is forwarded
        #: to and the node that answers for it, the client's number on this node, and whether
        #: it is another node's client
        self.proxy: str | None = None
        self.via: str | None = None
        self.ident = 0
        self.remote = False
        #: the seats whose chat this client muted, by room (:mod:`..handlers.muting`)
        self.muted: dict[str, set[int]] = {}
        self._ending: asyncio.Task[None] | None = None
        if account is not None and account.session is not None:
            account.session.live.add(self, account.id, account.session.token_hash)

    def lose_account(self, reason: str) -> None:
        """The session this connection was logged in by ended (``reason``: ``logout``,
        ``logout-all``, ``password``, ``deleted``, ``ended``): from now on it is a guest's,
        and it is told so (``{"type": "session-ended", "reason"}``) and closed with
        :data:`SESSION_ENDED`, so the page connects again as a guest."""
        if self.account is None:
            return
        if self.account.session is not None:
            self.account.session.live.discard(self)
        self.account = None
        if self.closed:
            return
        self.send({"type": "session-ended", "reason": reason})
        self._ending = asyncio.get_running_loop().create_task(self._end_session())

    async def _end_session(self) -> None:
        await self.finish()  # what was queued goes out first
        await self.safe_close(SESSION_ENDED)

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
            self.queue.put_nowait(None)
            self.close_soon(1008)
            return
        self.queue.put_nowait(text)

    def close_soon(self, code: int) -> None:
        """Mark the connection closed (nothing more is sent) and close the socket with ``code``
        in a task of its own (without waiting for it)."""
        self.closed = True
        task = asyncio.get_running_loop().create_task(self.safe_close(code))
        _CLOSING.add(task)
        task.add_done_callback(_CLOSING.discard)

    async def safe_close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self._close(code)

    async def finish(self) -> None:
        if self.account is not None and self.account.session is not None:
            self.account.session.live.discard(self)
        self.closed = True
        self.queue.put_nowait(None)
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, 2)
