"""The assistant at a real table over HTTP: ``GET /api/assist`` takes a table and a rack as
typed and answers the best plays laid out as new tables (:mod:`..handlers.assist`);
``/assistant`` is its page (:mod:`.pages`). One address may have one question asked at a time
(another at once gets ``429 busy``); past :data:`~..handlers.assist.QUEUE` waiting questions
the server answers ``503 busy``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ..handlers.assist import ASSIST_STOP, MAX_TEXT, assist_answer
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..work.pool import Busy, JobFailed, JobTimeout
from .deps import Manager
from .http_limits import client_key

__all__ = ["router"]

router = APIRouter()


@router.get("/api/assist")
async def assist_route(
    request: Request,
    m: Manager,
    table: Annotated[str, Query(max_length=MAX_TEXT)] = "",
    rack: Annotated[str, Query(max_length=MAX_TEXT)] = "",
    opened: bool = True,
    preset: Annotated[str, Query(max_length=32)] = "standard",
) -> JSONResponse:
    """The best plays for ``rack`` on ``table`` (most tiles, most value, fewest changes,
    keeping the joker), each a new table with every tile marked ``rack``, ``moved`` or
    ``kept``; asked of the assistant's worker (:func:`~..handlers.assist.new_pool`)."""
    work = m.assistant
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
        return JSONResponse(busy.http_body(), 429 if mine else 503, headers={"Retry-After": "1"})
    except (JobTimeout, JobFailed):
        late = ClientError(ServerCode.BUSY, "the assistant could not answer in time")
        return JSONResponse(late.http_body(), 503, headers={"Retry-After": "5"})
    return JSONResponse(body, status)
