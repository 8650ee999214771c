"""Game analysis for the HTTP API: every turn of a finished game judged against the best move
(:mod:`rummikub.analysis`), computed in the server's review worker process (:mod:`..work.pool`) once
per game and stored with the game in the database (the most recent :data:`ANALYSIS_CACHE` also
in memory). An analysis made by an older judging (:data:`rummikub.analysis.VERSION`) is made
again. With it come the positions where a player missed going out, as puzzles for him
(``puzzles``, :func:`..work.jobs.review_text`).

What one client may cost is bounded: concurrent requests for the same game share the one
computation in flight; a *new* computation is charged to the asking address and, when logged
in, to the account (:data:`NEW_PER_HOUR` an hour, :data:`NEW_BURST` at once), and refused with
``busy`` and the seconds to wait beyond that; the review worker serves addresses in turn, and
an address may have one analysis in it at a time.

How far an analysis being made is (:meth:`Analyses.progress`) the worker tells through a file
of its own in a private temporary directory (:class:`..work.jobs.ProgressFile`): a file outlives a
killed worker and needs nothing shared with the forkserver's processes. It goes when the
computation lands or fails."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rummikub.analysis import VERSION
from rummikub.puzzles import Puzzle

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..runtime.clock import Clock, RealClock
from ..runtime.ratelimit import TokenBucket
from ..work import jobs
from ..work.pool import Busy, JobFailed, JobTimeout, WorkPool
from .records import Records

__all__ = ["ANALYSIS_CACHE", "KEPT", "NEW_BURST", "NEW_PER_HOUR", "Analyses"]

log = logging.getLogger("rummikub.server")

#: the version a review is kept under: the analysis's judging and what the server adds to it
#: (the missed go-outs as puzzles, :func:`..work.jobs.review_text`); a review kept under
#: another is made again
KEPT = f"{VERSION}+puzzles1"
#: analyses of finished games kept ready to serve
ANALYSIS_CACHE = 64
#: an analysis still running after this many seconds is stopped
ANALYSIS_STOP = 600.0
#: new analyses an address (and an account) may start an hour, on average ...
NEW_PER_HOUR = 30.0
#: ... and at once
NEW_BURST = 5.0
#: addresses and accounts whose analysis budgets are remembered (the oldest are forgotten)
BUDGETS_KEPT = 10_000


class Analyses:
    def __init__(
        self,
        records: Records,
        work: WorkPool,
        clock: Clock | None = None,
        *,
        samples: int | None = None,
    ) -> None:
        """``samples``: deals a position in the analyses made (the default depth's when
        ``None``)."""
        self._records = records
        self._samples = samples
        self._clock = (clock or RealClock()).monotonic
        self._work = work
        self._done: OrderedDict[str, str] = OrderedDict()
        #: the puzzles of the reviews read lately, by game and id
        self._puzzles: OrderedDict[str, dict[str, Puzzle]] = OrderedDict()
        #: the computations in flight, by game: every asker of that game waits for the one
        self._flight: dict[str, asyncio.Future[str]] = {}
        self._budgets: OrderedDict[str, TokenBucket] = OrderedDict()
        #: the progress file of each computation handed to the worker, by game
        self._making: dict[str, Path] = {}
        self._dir: Path | None = None  # of the progress files, made with the first
        self._serial = itertools.count(1)

    def _charge(self, who: str) -> float:
        """Take one new analysis from ``who``'s budget; 0, or the seconds to wait."""
        bucket = self._budgets.pop(who, None) or TokenBucket(
            NEW_PER_HOUR / 3600, NEW_BURST, self._clock
        )
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

    async def puzzles(
        self, code: str, address: str = "local", account: str | None = None
    ) -> dict[str, Puzzle]:
        """The puzzles of the finished game ``code``'s review (the positions where a player
        missed going out), by id; the review is made as :meth:`analysis` makes it."""
        code = code.upper()
        found = self._puzzles.get(code)
        if found is None:
            text = await self.analysis(code, address, account)
            found = self._puzzles.get(code)  # read meanwhile by another asker?
            if found is None:
                kept = await asyncio.to_thread(_read_puzzles, text)
                found = self._puzzles.setdefault(code, kept)
        self._puzzles.move_to_end(code)
        while len(self._puzzles) > ANALYSIS_CACHE:
            self._puzzles.popitem(last=False)
        return found

    def _landed(self, code: str, flight: asyncio.Future[str]) -> None:
        self._flight.pop(code, None)
        if not flight.cancelled():
            flight.exception()  # retrieved: every asker may have gone

    async def _make(self, code: str, address: str, account: str | None) -> str:
        try:
            return await self._made(code, address, account)
        finally:  # landed or failed: its progress file goes
            self._drop_progress(code)

    async def _made(self, code: str, address: str, account: str | None) -> str:
        storage = self._records.storage
        try:
            text = await storage.db(storage.store.load_analysis, code, KEPT)
        except Exception:  # the database is down: the game may still be in memory
            log.exception("could not read the kept analysis of %s", code)
            text = None
        if text is None:
            record = await self._records.record(code)
            self._admit(address, account)
            progress = self._making[code] = self._progress_file(code)
            try:
                text = await self._work.run(
                    f"addr:{address}",
                    ANALYSIS_STOP,
                    jobs.review_text,
                    code,
                    record,
                    str(progress),
                    self._samples,
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
                await storage.db(storage.store.save_analysis, code, KEPT, text)
            except Exception:  # kept in memory all the same; asked again, it is stored then
                log.exception("could not store the analysis of %s", code)
        self._done[code] = text
        while len(self._done) > ANALYSIS_CACHE:
            self._done.popitem(last=False)
        return text

    async def progress(self, code: str) -> dict[str, Any]:
        """How far the analysis of the finished game ``code`` is (its record's refusals
        otherwise): ``{"state": "done"}`` when it is kept (in memory or in the database),
        ``{"state": "running", "done": 12, "total": 89}`` (turns judged, of all; 0 of 0 until
        the worker has judged the first) while it is being made, ``{"state": "none"}`` when
        nothing is. Cheap: it makes nothing, writes nothing and is charged to no budget."""
        code = code.upper()
        known = self._known(code)
        if known is not None:
            return known
        await self._records.record(code)  # the refusals: no such game, not finished
        known = self._known(code)
        if known is not None:
            return known
        if code in self._flight:  # looking for a kept one, or waiting for the record
            return {"state": "running", "done": 0, "total": 0}
        storage = self._records.storage
        try:
            kept = await storage.db(storage.store.has_analysis, code, KEPT)
        except Exception:  # the database is down: none is known to be kept
            kept = False
        known = self._known(code)  # made meanwhile?
        if known is not None:
            return known
        return {"state": "done" if kept else "none"}

    def _known(self, code: str) -> dict[str, Any] | None:
        """The progress of ``code`` as this object knows it without asking anyone."""
        if code in self._done:
            return {"state": "done"}
        path = self._making.get(code)
        if path is None:
            return None
        done, total = jobs.read_progress(str(path)) or (0, 0)
        return {"state": "running", "done": done, "total": total}

    def _progress_file(self, code: str) -> Path:
        """A new progress file's path for a computation of ``code`` (the directory private,
        made again should something have removed it)."""
        if self._dir is None or not self._dir.is_dir():
            self._dir = Path(tempfile.mkdtemp(prefix="rummikub-analyses-"))
        name = "".join(ch for ch in code if ch.isalnum())[:40]
        return self._dir / f"{name}-{next(self._serial)}"

    def _drop_progress(self, code: str) -> None:
        path = self._making.pop(code, None)
        if path is not None:
            path.unlink(missing_ok=True)
            path.with_name(path.name + ".part").unlink(missing_ok=True)

    def close(self) -> None:
        """Remove the progress files (the workers are stopped)."""
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

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
            self._puzzles.pop(code.upper(), None)


def _read_puzzles(text: str) -> dict[str, Puzzle]:
    """The puzzles of a review's JSON text, by id."""
    data = json.loads(text)
    return {p.id: p for p in (Puzzle.from_json(x) for x in data.get("puzzles", ()))}
