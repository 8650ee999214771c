"""Game analysis for the HTTP API: every turn of a finished game judged against the best move
(:mod:`rummikub.analysis`), computed off the event loop on the server's CPU pool once per game
and stored with the game in the database (the most recent :data:`ANALYSIS_CACHE` also in memory).
An analysis made by an older judging (:data:`rummikub.analysis.VERSION`) is made again."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from rummikub.analysis import VERSION, analyse
from rummikub.games import load_any

from .records import Records

__all__ = ["ANALYSIS_CACHE", "Analyses", "analysis_text"]

log = logging.getLogger("rummikub.server")

#: analyses of finished games kept ready to serve
ANALYSIS_CACHE = 64
#: seconds of search per position of an analysis the server makes
SECONDS_PER_POSITION = 1.0


def analysis_text(record: str) -> str:
    """The analysis (JSON text) of a record (JSON text)."""
    result = analyse(load_any(json.loads(record)), time_limit=SECONDS_PER_POSITION)
    return json.dumps(result.to_json(), separators=(",", ":"))


class Analyses:
    def __init__(self, records: Records, cpu: ThreadPoolExecutor) -> None:
        self._records = records
        self._cpu = cpu
        self._done: OrderedDict[str, str] = OrderedDict()

    async def analysis(self, code: str) -> str:
        """The analysis of the finished game ``code`` (its record's refusals otherwise: no such
        game, not finished)."""
        code = code.upper()
        cached = self._done.get(code)  # only finished games are analysed, and they stay so
        if cached is not None:
            self._done.move_to_end(code)
            return cached
        storage = self._records.storage
        try:
            text = await storage.db(storage.store.load_analysis, code, VERSION)
        except Exception:  # the database is down: the game may still be in memory
            log.exception("could not read the kept analysis of %s", code)
            text = None
        if text is None:
            record = await self._records.record(code)
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self._cpu, analysis_text, record)
            try:
                await storage.db(storage.store.save_analysis, code, VERSION, text)
            except Exception:  # kept in memory all the same; asked again, it is stored then
                log.exception("could not store the analysis of %s", code)
        self._done[code] = text
        while len(self._done) > ANALYSIS_CACHE:
            self._done.popitem(last=False)
        return text
