"""Game analysis for the HTTP API: every turn of a finished game judged against the best move
(:mod:`rummikub.analysis`), computed off the event loop on the server's CPU pool once per game
and kept (the most recent :data:`ANALYSIS_CACHE`)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from rummikub.analysis import analyse
from rummikub.games import load_any

from .records import Records

__all__ = ["ANALYSIS_CACHE", "Analyses", "analysis_text"]

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
        record = await self._records.record(code)
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(self._cpu, analysis_text, record)
        self._done[code] = text
        while len(self._done) > ANALYSIS_CACHE:
            self._done.popitem(last=False)
        return text
