"""Finished games over HTTP: a game's record (``/api/rooms/{code}/record``), its analysis
(``/api/rooms/{code}/analysis``) and how far that analysis is (``.../analysis/progress``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..manager import RoomManager
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from .account_api import COOKIE
from .deps import Manager
from .http_limits import client_key

__all__ = ["asker", "finished_game", "refusal", "router"]

router = APIRouter()


def refusal(exc: ClientError) -> JSONResponse:
    """Why there is nothing about a finished game (404: no such game; 403: not finished, or
    never started; 429: a budget spent, or the workers full)."""
    if exc.code == ServerCode.BUSY:  # a budget spent, or the workers full
        wait = float(exc.extra.get("retry_after") or 1)
        headers = {"Retry-After": str(max(1, round(wait)))}
        return JSONResponse(exc.http_body(), 429, headers=headers)
    status = 404 if exc.code == ServerCode.NO_SUCH_ROOM else 403
    return JSONResponse(exc.http_body(), status)


async def finished_game(text: Awaitable[str]) -> Response:
    """JSON text about a finished game, or why there is none (:func:`refusal`)."""
    try:
        return Response(await text, media_type="application/json")
    except ClientError as exc:
        return refusal(exc)


async def asker(request: Request, m: RoomManager) -> tuple[str, str | None]:
    """Who a new analysis is charged to: the client's address, and its account's id when it is
    logged in (none when the database cannot say)."""
    account = None
    session = request.cookies.get(COOKIE)
    if session:
        with contextlib.suppress(Exception):  # the database is down: charged as a guest
            found = await asyncio.to_thread(m.accounts.session, session, m.clock.time())
            account = None if found is None else str(found.id)
    return client_key(request.scope), account


@router.get("/api/rooms/{code}/record")
async def record(code: str, m: Manager) -> Response:
    return await finished_game(m.record(code))


@router.get("/api/rooms/{code}/analysis")
async def analysis(code: str, request: Request, m: Manager) -> Response:
    """Every turn of a finished game judged by the winning chances it gave away
    (rummikub-analysis/2). A new analysis is charged to the asking address and account
    (429 past the budget)."""
    return await finished_game(m.analysis(code, *await asker(request, m)))


@router.get("/api/rooms/{code}/analysis/progress")
async def analysis_progress(code: str, m: Manager) -> Response:
    """How far the analysis of a finished game is: ``done`` (kept), ``running`` (``done``
    of ``total`` turns judged) or ``none``. It makes nothing and is charged to no budget."""
    return await finished_game(m.analysis_progress(code))
