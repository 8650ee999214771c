"""The FastAPI application: its configuration (:class:`ServerConfig`), its middleware, its error
answers and its routers (:func:`create_app`)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from ..handlers.quick import QueueSettings
from ..manager import RoomManager
from ..protocol.codes import ServerCode
from ..runtime.admission import ConnectionCounter
from ..runtime.clock import Clock, RealClock
from ..storage.startup import DatabaseUnavailable, open_store
from ..storage.store import Store
from . import account_api, assistant, pages, puzzle_api, records, rooms, status
from .deps import Edge
from .headers import SecurityHeadersMiddleware, host_of, security_headers
from .http_limits import (
    BodyLimitMiddleware,
    BucketTable,
    RateLimitMiddleware,
    WebSocketLimitMiddleware,
)
from .origins import HostCheckMiddleware, HostPolicy, OriginPolicy, origin_host
from .pages import STATIC, VARY, not_found_page, page_language

__all__ = ["ServerConfig", "create_app"]

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
    #: seconds a bot pauses before each move in a quick match's room
    quick_bot_delay: float = 1.0
    #: deals a position in the game reviews the server makes (None: the default depth's)
    analysis_samples: int | None = None
    max_body: int = 65_536
    max_websockets: int = 64
    allowed_hosts: tuple[str, ...] = ()
    max_connections: int = 128
    request_timeout: float = 10.0
    keep_alive: float = 5.0
    forwarded_allow_ips: tuple[str, ...] = ()


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
            return HTMLResponse(not_found_page(page_language(request)), 404, headers=VARY)
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


def create_app(
    config: ServerConfig | None = None,
    *,
    store: Store | None = None,
    clock: Clock | None = None,
    seed: int | None = None,
) -> FastAPI:
    """A new application; the database is opened (and created) when it starts, unless ``store``
    is one opened already (``run.serve`` opens it first, to report a bad database plainly).

    ``clock`` is the time of the whole application — its rooms, budgets and rate limits
    (:class:`~..runtime.clock.RealClock` by default; tests give a
    :class:`~..runtime.clock.FakeClock`); ``seed`` fixes the deals, for tests (the n-th room
    made is dealt with ``seed * 1000 + n``).

    Should the database fail to open, the :class:`DatabaseUnavailable` error is kept in
    ``app.state.startup_error`` as well as raised. The routes are the routers of
    :mod:`.rooms`, :mod:`.records`, :mod:`.status`, :mod:`.pages`, :mod:`.assistant`,
    :mod:`.puzzle_api` and :mod:`.account_api`; what they depend on (the manager, the edge) is
    in ``app.state`` (:mod:`.deps`)."""
    cfg = config or ServerConfig()
    time = clock or RealClock()
    hosts = HostPolicy(
        ["localhost", *cfg.allowed_hosts, *(origin_host(o) for o in cfg.allowed_origins)]
    )
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
            quick_bot_delay=cfg.quick_bot_delay,
            analysis_samples=cfg.analysis_samples,
            clock=time,
            seed=seed,
        )
        await manager.start()
        app.state.manager = manager
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(title="Rummikub", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.startup_error = None
    app.state.edge = Edge.timed(OriginPolicy(cfg.allowed_origins), time.monotonic)
    _add_error_handlers(app)
    # the last added runs first: every response (a 429 too) gets the security headers; a
    # request naming another site is refused before anything is counted or read, an address
    # over its limits before its body is read
    app.add_middleware(BodyLimitMiddleware, limit=cfg.max_body)
    app.add_middleware(
        RateLimitMiddleware,
        api=BucketTable(cfg.api_rate, cfg.api_burst, cfg.http_clients, time.monotonic),
        other=BucketTable(cfg.page_rate, cfg.page_burst, cfg.http_clients, time.monotonic),
    )
    app.add_middleware(WebSocketLimitMiddleware, counter=ConnectionCounter(cfg.max_websockets))
    app.add_middleware(HostCheckMiddleware, policy=hosts)
    app.add_middleware(SecurityHeadersMiddleware)
    for router in (rooms.router, records.router, status.router, pages.router):
        app.include_router(router)
    app.include_router(assistant.router)
    app.include_router(puzzle_api.router)
    app.include_router(account_api.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
