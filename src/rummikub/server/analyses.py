"""Game analysis for the HTTP API: every turn of a finished game judged against the best move
(:mod:`rummikub.analysis`), computed in the server's review worker process (:mod:`.work`) once
per game and stored with the game in the database (the most recent :data:`ANALYSIS_CACHE` also
in memory). An analysis made by an older judging (:data:`rummikub.analysis.VERSION`) is made
again.

What one client may cost is bounded: concurrent requests for the same game share the one
computation in flight; a *new* computation is charged to the asking address and, when logged
in, to the account (:data:`NEW_PER_HOUR` an hour, :data:`NEW_BURST` at once), and refused with
``busy`` and the seconds to wait beyond that; the review worker serves addresses in turn, and
an address may have one analysis in it at a time."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterable

from rummikub.analysis import VERSION

from . import jobs
from .codes import ServerCode
from .ratelimit import TokenBucket
from .records import Records
from .refusals import ClientError
from .work import Busy, JobFailed, JobTimeout, WorkPool

__all__ = ["ANALYSIS_CACHE", "NEW_BURST", "NEW_PER_HOUR", "Analyses"]

log = logging.getLogger("rummikub.server")

#: analyses of finished games kept ready to serve
ANALYSIS_CACHE = 64
#: seconds of search per position of an analysis the server makes
SECONDS_PER_POSITION = 1.0
#: an analysis still running after this many seconds is stopped
ANALYSIS_STOP = 600.0
#: new analyses an address (and an account) may start an hour, on average ...
NEW_PER_HOUR = 30.0
#: ... and at once
NEW_BURST = 5.0
#: addresses and accounts whose analysis budgets are remembered (the oldest are forgotten)
BUDGETS_KEPT = 10_000


class Analyses:
    def __init__(self, records: Records, work: WorkPool) -> None:
        self._records = records
        self._work = work
        self._done: OrderedDict[str, str] = OrderedDict()
        #: the computations in flight, by game: every asker of that game waits for the one
        self._flight: dict[str, asyncio.Future[str]] = {}
        self._budgets: OrderedDict[str, TokenBucket] = OrderedDict()

    def _charge(self, who: str) -> float:
        """Take one new analysis from ``who``'s budget; 0, or the seconds to wait."""
        bucket = self._budgets.pop(who, None) or TokenBucket(NEW_PER_HOUR / 3600, NEW_BURST)
        self._budgets[who] = bucket
        while len(self._budgets) > BUDGETS_KEPT:
            self._budgets.popitem(last=False)
        if bucket.take():
            return 0.0
        return max(1.0, (1 - bucket.tokens) / bucket.rate)

    async def analysis(self, code: str, address: str = "local", account: str | None = None) -> str:
        """The analysis of the finished game ``code`` (its record's refusals otherwise: no such
        game, not finished), asked by a client at ``address`` (logged in as ``account``)."""
        code = code.upper()
        cached = self._done.get(code)  # only finished games are analysed, and they stay so
        if cached is not None:
            self._done.move_to_end(code)
            return cached
        flight = self._flight.get(code)
        if flight is None:
            flight = asyncio.ensure_future(self._make(code, address, account))
            self._flight[code] = flight
            flight.add_done_callback(lambda f: self._landed(code, f))
        # shield: one asker who gives up does not stop the others' computation
        return await asyncio.shield(flight)

    def _landed(self, code: str, flight: asyncio.Future[str]) -> None:
        self._flight.pop(code, None)
        if not flight.cancelled():
            flight.exception()  # retrieved: every asker may have gone

    async def _make(self, code: str, address: str, account: str | None) -> str:
        storage = self._records.storage
        try:
            text = await storage.db(storage.store.load_analysis, code, VERSION)
        except Exception:  # the database is down: the game may still be in memory
            log.exception("could not read the kept analysis of %s", code)
            text = None
        if text is None:
            record = await self._records.record(code)
            self._admit(address, account)
            try:
                text = await self._work.run(
                    f"addr:{address}",
                    ANALYSIS_STOP,
                    jobs.analysis_text,
                    record,
                    SECONDS_PER_POSITION,
                )
            except Busy:
                raise ClientError(
                    ServerCode.BUSY,
                    "the server is analysing another game for you; ask again when it is done",
                    retry_after=5.0,
                ) from None
            except (JobTimeout, JobFailed) as exc:
                raise ClientError(
                    ServerCode.BUSY, f"the analysis could not be made ({exc})", retry_after=60.0
                ) from None
            try:
                await storage.db(storage.store.save_analysis, code, VERSION, text)
            except Exception:  # kept in memory all the same; asked again, it is stored then
                log.exception("could not store the analysis of %s", code)
        self._done[code] = text
        while len(self._done) > ANALYSIS_CACHE:
            self._done.popitem(last=False)
        return text

    def _admit(self, address: str, account: str | None) -> None:
        """Charge a new analysis to the address and the account, or refuse it."""
        waits = [self._charge(f"addr:{address}")]
        if account is not None:
            waits.append(self._charge(f"account:{account}"))
        wait = max(waits)
        if wait > 0:
            raise ClientError(
                ServerCode.BUSY,
                "you have asked for many new analyses; wait a while before the next",
                retry_after=round(wait, 1),
            )

    def forget(self, codes: Iterable[str]) -> None:
        """Drop the kept analyses of the games ``codes`` (a player of theirs deleted his
        account: the stored ones were renamed with it, the copies in memory go)."""
        for code in codes:
            self._done.pop(code.upper(), None)
