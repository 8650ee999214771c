"""Running the server with uvicorn."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import uvicorn

from ..protocol.messages import MAX_MESSAGE_BYTES
from ..storage.startup import check_cluster, open_store
from .app import ServerConfig, create_app
from .origins import default_hosts
from .transport import TransportGuard, parse_proxies, protocols

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    db_url: str | None = None,
    config: ServerConfig | None = None,
    on_ready: Callable[[str], None] | None = None,
    log_level: str = "warning",
) -> None:
    """Start the server and block until it is stopped (Ctrl+C).

    ``db_url`` (if given) replaces ``config.db_url``. The database is opened before the server
    listens: one that cannot be opened or written raises
    :class:`~rummikub.server.storage.startup.DatabaseUnavailable` naming it and the cause; cluster
    options (``config.broker_url``) without PostgreSQL raise
    :class:`~rummikub.server.storage.startup.BadClusterOptions`.

    The server answers to the names of :func:`~rummikub.server.web.origins.default_hosts` for
    ``host`` besides ``config.allowed_hosts``; its connections are guarded by
    :class:`~rummikub.server.web.transport.TransportGuard` (``config.max_connections``,
    ``request_timeout``, ``forwarded_allow_ips``)."""
    cfg = config or ServerConfig()
    if db_url is not None:
        cfg = dataclasses.replace(cfg, db_url=db_url)
    cfg = dataclasses.replace(cfg, allowed_hosts=(*default_hosts(host), *cfg.allowed_hosts))
    proxies = parse_proxies(cfg.forwarded_allow_ips)
    guard = TransportGuard(
        max_connections=cfg.max_connections,
        request_timeout=cfg.request_timeout,
        trusted_proxies=proxies,
    )
    http, ws = protocols(guard)
    check_cluster(cfg.db_url, cfg.broker_url)
    store = open_store(cfg.db_url)
    try:
        app = create_app(cfg, store=store)
    except BaseException:
        store.close()
        raise
    config_ = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=http,
        ws=ws,
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_keep_alive=cfg.keep_alive,  # type: ignore[arg-type] # a float works
        # X-Forwarded-For and -Proto are believed from the proxies named, from no one else
        # (uvicorn's own default believes 127.0.0.1)
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies) or None,
        server_header=False,
    )
    server = uvicorn.Server(config_)
    if on_ready is not None:
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        original = server.startup

        async def startup(sockets: object = None) -> None:
            await original(sockets)  # type: ignore[arg-type]
            if not server.should_exit:
                on_ready(f"http://{shown}:{port}/")

        server.startup = startup  # type: ignore[method-assign]
    server.run()
    if app.state.startup_error is not None:
        raise app.state.startup_error
