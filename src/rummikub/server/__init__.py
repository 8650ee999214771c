"""The game server and web client: ``rummikub serve``.

A FastAPI application speaking a JSON protocol over WebSocket (see ``docs/server.md``), storing
rooms, the event log of every game and results with SQLAlchemy, and serving the browser client
from ``static/``.
"""

from __future__ import annotations

from .app import ServerConfig, create_app
from .run import serve

__all__ = ["ServerConfig", "create_app", "serve"]
