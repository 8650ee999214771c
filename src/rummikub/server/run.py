"""Running the server with uvicorn."""

from __future__ import annotations

from collections.abc import Callable

import uvicorn

from .app import ServerConfig, create_app
from .protocol import MAX_MESSAGE_BYTES

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    db_url: str | None = None,
    on_ready: Callable[[str], None] | None = None,
    log_level: str = "warning",
) -> None:
    """Start the server and block until it is stopped (Ctrl+C)."""
    app = create_app(ServerConfig(db_url=db_url))
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=4 * MAX_MESSAGE_BYTES,
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
    server = uvicorn.Server(config)
    if on_ready is not None:
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        original = server.startup

        async def startup(sockets: object = None) -> None:
            await original(sockets)  # type: ignore[arg-type]
            on_ready(f"http://{shown}:{port}/")

        server.startup = startup  # type: ignore[method-assign]
    server.run()
