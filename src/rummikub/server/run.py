"""Running the server with uvicorn."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import uvicorn

from .app import ServerConfig, create_app
from .protocol import MAX_MESSAGE_BYTES
from .startup import check_cluster, open_store

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
    :class:`~rummikub.server.startup.DatabaseUnavailable` naming it and the cause; cluster
    options (``config.broker_url``) without PostgreSQL raise
    :class:`~rummikub.server.startup.BadClusterOptions`."""
    cfg = config or ServerConfig()
    if db_url is not None:
        cfg = dataclasses.replace(cfg, db_url=db_url)
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
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_ping_interval=20,
        ws_ping_timeout=20,
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
