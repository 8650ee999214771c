"""The assistant at a real table over HTTP: ``GET /api/assist`` takes a table and a rack as
typed (``R1 R2 R3 | K5 B5 O5``, ``R4 J``) and answers the best plays laid out as new tables
(:mod:`rummikub.solver.assistant`). No room, account or connection is needed.

The searches run on a thread, at most :data:`AT_ONCE` at a time (more: ``503 busy``), each view
for at most :data:`SECONDS_PER_VIEW`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query
from fastapi.responses import FileResponse, JSONResponse

from rummikub.core import PRESETS, RummikubError
from rummikub.solver.assistant import alternatives, read_position

from .codes import ServerCode
from .refusals import ClientError

__all__ = ["AT_ONCE", "MAX_TEXT", "SECONDS_PER_VIEW", "assist", "register"]

#: searches running at once (the server's other work keeps its cores)
AT_ONCE = 2
#: seconds of search for each view of the best play
SECONDS_PER_VIEW = 1.0
#: the longest table or rack text taken (a full table of 106 tiles is about 400 characters)
MAX_TEXT = 1000


def assist(table: str, rack: str, *, opened: bool, preset: str) -> dict[str, Any]:
    """The answer of ``/api/assist``: the position as read, and its alternatives. Raises
    :class:`~rummikub.core.RummikubError` (naming what was wrong) for a position that cannot be."""
    rules = PRESETS.get(preset)
    if rules is None:
        raise ClientError(
            ServerCode.BAD_MESSAGE,
            f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})",
            params={"field": "preset"},
        )
    board, tiles = read_position(table, rack)
    found = alternatives(board, tiles, opened=opened, rules=rules, time_limit=SECONDS_PER_VIEW)
    return {
        "table": board.to_json(),
        "rack": [str(t) for t in tiles],
        "opened": opened,
        "preset": preset,
        "alternatives": [a.to_json() for a in found],
    }


def register(app: FastAPI, index: Path, ready: Callable[[], Awaitable[None]]) -> None:
    """Add ``GET /api/assist`` and the assistant's page (``index``: the web client) to ``app``;
    ``ready`` waits until the solver's kernels are loaded."""
    running = asyncio.Semaphore(AT_ONCE)

    @app.get("/api/assist")
    async def assist_route(
        table: Annotated[str, Query(max_length=MAX_TEXT)] = "",
        rack: Annotated[str, Query(max_length=MAX_TEXT)] = "",
        opened: bool = True,
        preset: Annotated[str, Query(max_length=32)] = "standard",
    ) -> JSONResponse:
        """The best plays for ``rack`` on ``table`` (most tiles, most value, fewest changes,
        keeping the joker), each a new table with every tile marked ``rack``, ``moved`` or
        ``kept``."""
        if running.locked():
            busy = ClientError(ServerCode.BUSY, "the assistant is busy; try again in a moment")
            return JSONResponse(busy.http_body(), 503, headers={"Retry-After": "1"})
        async with running:
            await ready()
            try:
                answer = await asyncio.to_thread(assist, table, rack, opened=opened, preset=preset)
            except ClientError as exc:
                return JSONResponse(exc.http_body(), 400)
            except RummikubError as exc:
                body = {"error": str(exc), "code": exc.code, "params": exc.params}
                return JSONResponse(body, 400)
        return JSONResponse(answer)

    @app.get("/assistant", include_in_schema=False)
    async def assistant_page() -> FileResponse:
        return FileResponse(index)
