"""The game server and web client: ``rummikub serve``.

A FastAPI application speaking a JSON protocol over WebSocket (see ``docs/server.md``), storing
rooms, the event log of every game and results with SQLAlchemy, and serving the browser client
from ``static/``.

The public names are imported when first used, so that a part of the server that needs none
of the web side (the worker processes' jobs, :mod:`.work.jobs`) starts without FastAPI and
SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .web.app import ServerConfig, create_app
    from .web.run import serve

__all__ = ["ServerConfig", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in ("ServerConfig", "create_app"):
        from .web import app

        return getattr(app, name)
    if name == "serve":
        from .web.run import serve

        return serve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
