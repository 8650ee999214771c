"""The assistant at a real table over HTTP: ``GET /api/assist`` takes a table and a rack as
typed and answers the best plays laid out as new tables (:mod:`..handlers.assist`), and
``/assistant`` is its page. One address may have one question asked at a time (another at
once gets ``429 busy``); past :data:`~..handlers.assist.QUEUE` waiting questions the server
answers ``503 busy``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse

from ..handlers.assist import ASSIST_STOP, MAX_TEXT, assist_answer
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..work.pool import Busy, JobFailed, JobTimeout, WorkPool
from .http_limits import client_key

__all__ = ["register"]


def register(app: FastAPI, index: Path, pool: Callable[[], WorkPool]) -> None:
    """Add ``GET /api/assist`` and the assistant's page (``index``: the web client) to ``app``;
    ``pool()`` is the worker the questions run in (:func:`~..handlers.assist.new_pool`)."""

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
