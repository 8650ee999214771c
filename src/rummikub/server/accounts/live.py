"""The open connections (WebSockets) logged in to an account, by the session that logged
them in, so that a session's end reaches them at once: logging out ends this browser's
session, logging out everywhere and deleting the account end every session of the account,
and a new password every other one. A connection whose session ended loses its account
(:meth:`Holder.lose_account`: from then on a guest, and the socket is closed so that the page
connects again as the guest it now is — what lichess does).

What ends elsewhere (on another node of a cluster, by the operator's ``rummikub accounts
reset-password``, or a session that expires) is found by a sweep: every
:data:`SWEEP_SECONDS` the sessions of the open connections are looked up in the database, and
those gone end here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["SWEEP_SECONDS", "Ended", "Holder", "LiveSessions", "SessionRef"]

log = logging.getLogger("rummikub.server")

#: how often the sessions of open connections are checked against the database
SWEEP_SECONDS = 10.0


class Holder(Protocol):
    """An open connection logged in by a session."""

    def lose_account(self, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class SessionRef:
    """The session an :class:`~.store.Account` was read from (the hash of its token), and the
    registry of the connections it logs in."""

    token_hash: str
    live: LiveSessions = field(repr=False)


@dataclass(frozen=True, slots=True)
class Ended:
    """Sessions that ended: of ``account``, the one of ``session`` (a token hash), or every
    one (``session`` ``None``) but the one of ``keep``; ``reason`` says why (``logout``,
    ``logout-all``, ``password``, ``deleted``, ``ended``). A deletion lists the seats the
    account held (``(room code, seat)``) and the name they now show."""

    account: int
    reason: str
    session: str | None = None
    keep: str | None = None
    seats: tuple[tuple[str, int], ...] = ()
    name: str | None = None

    @property
    def deleted(self) -> bool:
        return self.reason == "deleted"


class LiveSessions:
    """The open connections of one server by account and session. ``alive(hashes)`` answers
    which of those session token hashes are still valid (a database lookup, run on a thread
    by the sweep)."""

    def __init__(
        self,
        alive: Callable[[Collection[str]], set[str]] | None = None,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._alive = alive
        self._sleep = sleep
        self._holders: weakref.WeakKeyDictionary[Holder, tuple[int, str]] = (
            weakref.WeakKeyDictionary()
        )
        self._sweep: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._holders)

    def add(self, holder: Holder, account: int, session: str) -> None:
        """``holder`` is logged in to ``account`` by the session of token hash ``session``."""
        self._holders[holder] = (account, session)
        if self._alive is not None and (self._sweep is None or self._sweep.done()):
            with contextlib.suppress(RuntimeError):  # no event loop: no sweep
                self._sweep = asyncio.get_running_loop().create_task(self._sweeping())

    def discard(self, holder: Holder) -> None:
        self._holders.pop(holder, None)

    def rekey(self, old: str, new: str) -> None:
        """The connections of the session ``old`` go on under the session ``new`` (a new
        password gives this browser a new session and ends the old one)."""
        for h, (account, session) in list(self._holders.items()):
            if session == old:
                self._holders[h] = (account, new)

    def end(self, ended: Ended) -> int:
        """Every connection of the sessions that ``ended`` loses its account; how many."""
        hit = [
            h
            for h, (account, session) in list(self._holders.items())
            if account == ended.account
            and (ended.session is None or session == ended.session)
            and session != ended.keep
        ]
        for h in hit:
            self._holders.pop(h, None)
            h.lose_account(ended.reason)
        return len(hit)

    def end_sessions(self, gone: Collection[str], reason: str = "ended") -> int:
        """The connections of the sessions whose token hashes are ``gone`` lose their
        account."""
        hit = [h for h, (_, session) in list(self._holders.items()) if session in gone]
        for h in hit:
            self._holders.pop(h, None)
            h.lose_account(reason)
        return len(hit)

    async def sweep(self) -> int:
        """Check the sessions of the open connections now; how many connections lost theirs."""
        if self._alive is None:
            return 0
        sessions = {session for _, session in list(self._holders.values())}
        if not sessions:
            return 0
        alive = await asyncio.to_thread(self._alive, sessions)
        return self.end_sessions(sessions - alive)

    async def _sweeping(self) -> None:
        while len(self._holders) > 0:
            await self._sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:  # the database is down: the next sweep tries again
                log.warning("the sessions of open connections could not be checked", exc_info=True)
