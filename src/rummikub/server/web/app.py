"""The FastAPI application: the WebSocket endpoint, a small JSON API and the web client."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from rummikub.bots.registry import bot_levels
from rummikub.core import PRESETS
from rummikub.i18n import LANGUAGES, catalogue_bytes

from ..handlers.quick import QueueSettings
from ..manager import ClientError, RoomManager
from ..protocol.codes import ServerCode
from ..protocol.messages import MAX_ROOMS_PAGE, client_limits, settings_ranges
from ..runtime.admission import ConnectionCounter
from ..runtime.metrics import CONTENT_TYPE
from ..runtime.ratelimit import TokenBucket
from ..storage.startup import DatabaseUnavailable, open_store
from ..storage.store import Store
from . import account_api, assistant
from .headers import SecurityHeadersMiddleware, host_of, security_headers
from .http_limits import (
    BodyLimitMiddleware,
    BucketTable,
    RateLimitMiddleware,
    WebSocketLimitMiddleware,
    client_key,
)
from .origins import HostCheckMiddleware, HostPolicy, OriginPolicy, origin_host

__all__ = ["ServerConfig", "create_app"]

STATIC = Path(str(resources.files("rummikub.server.web") / "static"))

log = logging.getLogger("rummikub.server")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Options of one server. ``db_url`` ``None`` means the default SQLite file.

    ``rate``/``burst``: WebSocket messages per connection. ``allowed_origins``: web origins
    (``https://game.example.org``) besides the server's own whose pages may open the WebSocket.
    ``api_rate``/``api_burst``: requests per second and burst per client address to ``/api/...``;
    ``page_rate``/``page_burst``: the same for pages and static files (a rate of 0: no limit);
    ``http_clients``: how many addresses the limits remember. ``broker_url`` (``redis://``)
    makes the server a node of a cluster named ``node`` (docs/cluster.md).

    The edge (docs/server.md, *Security*): ``max_body``, the largest HTTP request body in
    bytes; ``max_websockets``, the WebSockets one client address may hold open (0: no limit);
    ``allowed_hosts``, names the server answers to (``Host``) besides ``localhost``, IP
    addresses and the hosts of ``allowed_origins`` (``*.example.org``, or ``*`` for any).
    Taken by :func:`~rummikub.server.web.run.serve`, for the connections uvicorn accepts:
    ``max_connections``, the TCP connections one address may hold open (0: no limit);
    ``request_timeout``, seconds a request's headers and body may take to arrive;
    ``keep_alive``, seconds an idle connection stays open between requests;
    ``forwarded_allow_ips``, the reverse proxies whose ``X-Forwarded-For`` is believed
    (addresses or networks; none by default)."""

    db_url: str | None = None
    rate: float = 20.0
    burst: float = 60.0
    bot_threads: int = 2
    allowed_origins: tuple[str, ...] = ()
    api_rate: float = 10.0
    api_burst: float = 200.0
    page_rate: float = 50.0
    page_burst: float = 500.0
    http_clients: int = 4096
    broker_url: str | None = None
    node: str | None = None
    #: seconds a quick-match player waits before bots may fill his table
    quick_bots_after: float = 30.0
    max_body: int = 65_536
    max_websockets: int = 64
    allowed_hosts: tuple[str, ...] = ()
    max_connections: int = 128
    request_timeout: float = 10.0
    keep_alive: float = 5.0
    forwarded_allow_ips: tuple[str, ...] = ()


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


#: the page of an address that has none (a person's browser asked for it)
NOT_FOUND_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Not found · Rummikub</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body>
  <header class="topbar">
    <a class="brand" href="/"><span class="brand-tile">R</span><span>Rummikub</span></a>
  </header>
  <main id="app">
    <section class="card">
      <h1>Page not found</h1>
      <p>There is no page at this address.</p>
      <p><a class="btn primary" href="/">Back to the lobby</a></p>
    </section>
  </main>
</body>
</html>
"""

_HTTP_CODES = {404: ServerCode.NOT_FOUND, 405: ServerCode.METHOD_NOT_ALLOWED}


def _wants_page(request: Request) -> bool:
    """A person's browser asking for a page (not the API, not a script or a file)."""
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith(("/api/", "/static/", "/i18n/"))
        and "text/html" in request.headers.get("accept", "")
    )


def _add_error_handlers(app: FastAPI) -> None:
    """Every error the application answers has the shape ``{"error", "code", "params"}``
    (FastAPI's own say ``{"detail": ...}``), and a 500 the security headers too (it is
    written outside the middleware that adds them)."""

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404 and _wants_page(request):
            return HTMLResponse(NOT_FOUND_PAGE, 404)
        code = _HTTP_CODES.get(exc.status_code, ServerCode.BAD_REQUEST)
        path = request.url.path[:200]
        params: dict[str, Any] = {}
        if code == ServerCode.NOT_FOUND:
            message, params = f"nothing at {path}", {"path": path}
        elif code == ServerCode.METHOD_NOT_ALLOWED:
            message, params = f"{path} does not take {request.method}", {"method": request.method}
        else:
            message = str(exc.detail)
        body = {"error": message, "code": code, "params": params}
        return JSONResponse(body, exc.status_code, headers=exc.headers)

    async def invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first: dict[str, Any] = dict(errors[0]) if errors else {}
        field = str(list(first.get("loc", ["request"]))[-1])
        said = str(first.get("msg", "is not valid"))
        body = {"error": f"{field}: {said}", "code": ServerCode.BAD_MESSAGE,
                "params": {"field": field}}  # fmt: skip
        return JSONResponse(body, 422)

    async def internal(request: Request, exc: Exception) -> Response:
        log.error("an HTTP request failed: %s %s", request.method, request.url.path,
                  exc_info=exc)  # fmt: skip
        body = {"error": "the server failed to handle this request", "code": ServerCode.INTERNAL,
                "params": {}}  # fmt: skip
        headers = {k.decode(): v.decode() for k, v in security_headers(host_of(request.scope))}
        return JSONResponse(body, 500, headers=headers)

    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Exception, internal)


def create_app(config: ServerConfig | None = None, *, store: Store | None = None) -> FastAPI:
    """A new application; the database is opened (and created) when it starts, unless ``store``
    is one opened already (``run.serve`` opens it first, to report a bad database plainly).

    Should the database fail to open, the :class:`DatabaseUnavailable` error is kept in
    ``app.state.startup_error`` as well as raised."""
    cfg = config or ServerConfig()
    state: dict[str, RoomManager] = {}
    origins = OriginPolicy(cfg.allowed_origins)
    hosts = HostPolicy(
        ["localhost", *cfg.allowed_hosts, *(origin_host(o) for o in cfg.allowed_origins)]
    )
    refusals_logged = TokenBucket(1.0, 10.0)  # a page retrying cannot flood the log
    given = [store] if store is not None else []

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            store = given.pop() if given else open_store(cfg.db_url)
        except DatabaseUnavailable as exc:
            app.state.startup_error = exc
            raise
        manager = RoomManager(
            store,
            rate=cfg.rate,
            burst=cfg.burst,
            bot_threads=cfg.bot_threads,
            broker=cfg.broker_url,
            node=cfg.node,
            quick=QueueSettings(bots_after=cfg.quick_bots_after),
        )
        await manager.start()
        state["manager"] = manager
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(title="Rummikub", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.startup_error = None
    _add_error_handlers(app)
    # the last added runs first: every response (a 429 too) gets the security headers; a
    # request naming another site is refused before anything is counted or read, an address
    # over its limits before its body is read
    app.add_middleware(BodyLimitMiddleware, limit=cfg.max_body)
    app.add_middleware(
        RateLimitMiddleware,
        api=BucketTable(cfg.api_rate, cfg.api_burst, cfg.http_clients),
        other=BucketTable(cfg.page_rate, cfg.page_burst, cfg.http_clients),
    )
    app.add_middleware(WebSocketLimitMiddleware, counter=ConnectionCounter(cfg.max_websockets))
    app.add_middleware(HostCheckMiddleware, policy=hosts)
    app.add_middleware(SecurityHeadersMiddleware)

    def mgr() -> RoomManager:
        return state["manager"]

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        origin, host = ws.headers.get("origin"), ws.headers.get("host")
        if not origins.allows(origin, host):
            if refusals_logged.take():
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
        m = mgr()
        # the session cookie the handshake carries: a logged-in player plays as his account
        session = ws.cookies.get(account_api.COOKIE)
        account = None
        if session:
            try:
                account = await asyncio.to_thread(m.accounts.session, session, time.time())
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

    @app.get("/api/info")
    async def info() -> dict[str, Any]:
        return {
            "bots": list(bot_levels("tiles")),
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "xpress_bots": list(bot_levels("xpress")),
            "settings": settings_ranges(),
            "limits": client_limits(),
        }

    @app.get("/api/rooms")
    async def rooms(
        offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_ROOMS_PAGE)] = 50,
    ) -> dict[str, Any]:
        out = await mgr().lobby(offset, limit)
        out["finished"] = await mgr().finished()
        return out

    @app.get("/api/rooms/{code}")
    async def room(code: str) -> JSONResponse:
        info = await mgr().room_info(code)
        if info is None:
            missing = ClientError(
                ServerCode.NO_SUCH_ROOM,
                f"no open room with code {code.upper()}",
                params={"room": code.upper()},
            )
            return JSONResponse(missing.http_body(), 404)
        return JSONResponse(info)

    async def finished_game(text: Awaitable[str]) -> Response:
        """JSON text about a finished game, or why there is none (404: no such game; 403:
        not finished, or never started)."""
        try:
            return Response(await text, media_type="application/json")
        except ClientError as exc:
            if exc.code == ServerCode.BUSY:  # a budget spent, or the workers full
                wait = float(exc.extra.get("retry_after") or 1)
                headers = {"Retry-After": str(max(1, round(wait)))}
                return JSONResponse(exc.http_body(), 429, headers=headers)
            status = 404 if exc.code == ServerCode.NO_SUCH_ROOM else 403
            return JSONResponse(exc.http_body(), status)

    @app.get("/api/rooms/{code}/record")
    async def record(code: str) -> Response:
        return await finished_game(mgr().record(code))

    @app.get("/api/rooms/{code}/analysis")
    async def analysis(code: str, request: Request) -> Response:
        """Every turn of a finished game judged by the winning chances it gave away
        (rummikub-analysis/2). A new analysis is charged to the asking address and account
        (429 past the budget)."""
        m = mgr()
        account = None
        session = request.cookies.get(account_api.COOKIE)
        if session:
            with contextlib.suppress(Exception):  # the database is down: charged as a guest
                found = await asyncio.to_thread(m.accounts.session, session, time.time())
                account = None if found is None else str(found.id)
        return await finished_game(m.analysis(code, client_key(request.scope), account))

    @app.get("/api/rooms/{code}/analysis/progress")
    async def analysis_progress(code: str) -> Response:
        """How far the analysis of a finished game is: ``done`` (kept), ``running`` (``done``
        of ``total`` turns judged) or ``none``. It makes nothing and is charged to no budget."""
        return await finished_game(mgr().analysis_progress(code))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """``ok`` is false while storage is down or a room could not be restored; the
        details say which."""
        return await mgr().health()

    @app.get("/api/ready")
    async def ready() -> JSONResponse:
        """For a load balancer: 200 while this server takes players, 503 while its database
        is down (or before it started)."""
        manager = state.get("manager")
        up = manager is not None and manager.ready()
        return JSONResponse({"ready": up}, 200 if up else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """The server's metrics in the Prometheus text format (docs/server.md)."""
        return Response(mgr().metrics.text(), media_type=CONTENT_TYPE)

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def messages(lang: str) -> Response:
        """The message catalogue of a language: the one the terminal games use too."""
        if lang not in LANGUAGES:
            missing = ClientError(
                ServerCode.NOT_FOUND, f"no catalogue for {lang[:20]!r}", params={"path": lang[:20]}
            )
            return JSONResponse(missing.http_body(), 404)
        return Response(catalogue_bytes(lang), media_type="application/json")

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(index)

    @app.get("/r/{code}", include_in_schema=False)
    async def invite(code: str) -> FileResponse:
        return FileResponse(index)

    assistant.register(app, index, lambda: mgr().assistant)
    account_api.register(
        app,
        lambda: mgr().accounts,
        origins,
        games=lambda: mgr().player_games,
        claimed=lambda account, seats: mgr().claimed(account, seats),
        ended=lambda e: mgr().sessions_ended(e),
    )

    @app.get("/account", include_in_schema=False)
    @app.get("/leaderboard", include_in_schema=False)
    async def account_pages() -> FileResponse:
        return FileResponse(index)

    @app.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: str) -> FileResponse:
        return FileResponse(index)

    @app.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return FileResponse(index)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
