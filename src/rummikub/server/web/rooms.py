"""The rooms over the web: the WebSocket every client plays through (``/ws``, the protocol of
docs/server.md), what a new room may be (``/api/info``), the lobby (``/api/rooms``) and one
room (``/api/rooms/{code}``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from rummikub.bots.registry import bot_levels
from rummikub.core import PRESETS
from rummikub.games import game_names
from rummikub.xpress import XpressRules

from ..handlers.rated import rated_games
from ..protocol.codes import ServerCode
from ..protocol.messages import MAX_ROOMS_PAGE, client_limits, settings_ranges
from ..protocol.refusals import ClientError
from .account_api import COOKIE
from .deps import EdgeDep, Manager
from .http_limits import client_key

__all__ = ["router"]

log = logging.getLogger("rummikub.server")

router = APIRouter()


def _person(client_id: str | None) -> str | None:
    """The browser's own id (the web client sends a random one it keeps), when well formed."""
    if client_id and 8 <= len(client_id) <= 64 and client_id.replace("-", "").isalnum():
        return f"client:{client_id}"
    return None


def _printable(text: str | None) -> str:
    """A header value as it may go into the log: one short line."""
    if text is None:
        return "(none)"
    return "".join(c if c.isprintable() else "?" for c in text[:200])


@router.websocket("/ws")
async def websocket(ws: WebSocket, m: Manager, edge: EdgeDep) -> None:
    origin, host = ws.headers.get("origin"), ws.headers.get("host")
    if not edge.origins.allows(origin, host):
        if edge.refusals_logged.take():
            client = ws.client.host if ws.client else "?"
            log.warning(
                "refused a WebSocket from %s: origin %s is not this server (host %s) "
                "nor allowed (--allow-origin)",
                client,
                _printable(origin),
                _printable(host),
            )
        refusal = ClientError(
            ServerCode.BAD_ORIGIN,
            "pages of this origin may not connect to this server",
            params={"origin": _printable(origin)},
        )
        # before accept: the handshake is answered 403 with the error
        await ws.send_denial_response(JSONResponse(refusal.http_body(), 403))
        return
    await ws.accept()
    # the session cookie the handshake carries: a logged-in player plays as his account
    session = ws.cookies.get(COOKIE)
    account = None
    if session:
        try:
            account = await asyncio.to_thread(m.accounts.session, session, m.clock.time())
        except Exception:  # the database is down: he plays as a guest meanwhile
            log.warning("the session of a WebSocket could not be read", exc_info=True)
    conn = m.new_connection(
        ws.send_text,
        lambda code: ws.close(code),
        client=client_key(ws.scope),
        person=_person(ws.query_params.get("client")),
        account=account,
    )
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            await m.receive(conn, data)
            # a client's queued frames are read without the event loop ever waiting; give
            # every other connection and room a turn after each message, so a flood (even
            # one dropped by the rate limit) cannot hold them up
            await asyncio.sleep(0)
    except WebSocketDisconnect:
        pass
    finally:
        await m.disconnect(conn)


@router.get("/api/info")
async def info() -> dict[str, Any]:
    rated = rated_games()
    return {
        "games": {
            name: {"bots": list(bot_levels(name)), "rated": name in rated}
            for name in game_names("room")
        },
        "presets": {name: r.to_dict() for name, r in PRESETS.items()},
        # Xpress's rules as printed: the lobby's sentence about the game counts from them
        "xpress": XpressRules().to_dict(),
        "settings": settings_ranges(),
        "limits": client_limits(),
    }


@router.get("/api/rooms")
async def rooms(
    m: Manager,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_ROOMS_PAGE)] = 50,
) -> dict[str, Any]:
    out = await m.lobby(offset, limit)
    out["finished"] = await m.finished()
    return out


@router.get("/api/rooms/{code}")
async def room(code: str, m: Manager) -> JSONResponse:
    info = await m.room_info(code)
    if info is None:
        missing = ClientError(
            ServerCode.NO_SUCH_ROOM,
            f"no open room with code {code.upper()}",
            params={"room": code.upper()},
        )
        return JSONResponse(missing.http_body(), 404)
    return JSONResponse(info)
