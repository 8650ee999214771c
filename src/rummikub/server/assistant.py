"""The assistant at a real table over HTTP: ``GET /api/assist`` takes a table and a rack as
typed (``R1 R2 R3 | K5 B5 O5``, ``R4 J``) and answers the best plays laid out as new tables
(:mod:`rummikub.solver.assistant`). No room, account or connection is needed.

The searches run in the assistant's worker process (:mod:`.work`), each view for at most
:data:`SECONDS_PER_VIEW`: client addresses are served in turn, and one address may have one
question asked at a time (another at once gets ``429 busy``), so one user asking in a loop
cannot keep the others waiting longer than one answer; past :data:`QUEUE` waiting questions
the server answers ``503 busy``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse

from rummikub.core import PRESETS, RummikubError
from rummikub.solver.assistant import alternatives, read_position

from .codes import ServerCode
from .http_limits import client_key
from .refusals import ClientError
from .work import Busy, JobFailed, JobTimeout, WorkPool

__all__ = ["MAX_TEXT", "QUEUE", "SECONDS_PER_VIEW", "assist", "assist_answer", "register"]

#: questions waiting for the assistant's worker, from every address, at most
QUEUE = 32
#: seconds of search for each view of the best play
SECONDS_PER_VIEW = 1.0
#: a question still being searched after this many seconds is stopped (four views at most)
ASSIST_STOP = 15.0
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


def assist_answer(table: str, rack: str, opened: bool, preset: str) -> tuple[int, dict[str, Any]]:
    """:func:`assist` as an HTTP status and body (run in a worker process: a refusal comes
    back as a value, since the engine's errors do not cross processes)."""
    try:
        return 200, assist(table, rack, opened=opened, preset=preset)
    except ClientError as exc:
        return 400, exc.http_body()
    except RummikubError as exc:
        return 400, {"error": str(exc), "code": exc.code, "params": exc.params}


def new_pool() -> WorkPool:
    """The assistant's worker: one process, one question per address at a time."""
    return WorkPool("assistant", 1, per_owner=1, queue=QUEUE)


def register(app: FastAPI, index: Path, pool: Callable[[], WorkPool]) -> None:
    """Add ``GET /api/assist`` and the assistant's page (``index``: the web client) to ``app``;
    ``pool()`` is the worker the questions run in (:func:`new_pool`)."""

    @app.get("/api/assist")
    async def assist_route(
        request: Request,
        table: Annotated[str, Query(max_length=MAX_TEXT)] = "",
        rack: Annotated[str, Query(max_length=MAX_TEXT)] = "",
        opened: bool = True,
        preset: Annotated[str, Query(max_length=32)] = "standard",
    ) -> JSONResponse:
        """The best plays for ``rack`` on ``table`` (most tiles, most value, fewest changes,
        keeping the joker), each a new table with every tile marked ``rack``, ``moved`` or
        ``kept``."""
        work = pool()
        address = client_key(request.scope)
        try:
            status, body = await work.run(
                f"addr:{address}", ASSIST_STOP, assist_answer, table, rack, opened, preset
            )
        except Busy:
            mine = work.load(f"addr:{address}") > 0
            busy = ClientError(
                ServerCode.BUSY,
                "your last question is still being answered; ask again when it is"
                if mine
                else "the assistant is busy; try again in a moment",
            )
            return JSONResponse(
                busy.http_body(), 429 if mine else 503, headers={"Retry-After": "1"}
            )
        except (JobTimeout, JobFailed):
            late = ClientError(ServerCode.BUSY, "the assistant could not answer in time")
            return JSONResponse(late.http_body(), 503, headers={"Retry-After": "5"})
        return JSONResponse(body, status)

    @app.get("/assistant", include_in_schema=False)
    async def assistant_page() -> FileResponse:
        return FileResponse(index)
