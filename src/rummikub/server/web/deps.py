"""What the routes of the application depend on, as FastAPI dependencies: the room manager
the application started (:func:`room_manager`), and the edge the application was made with
(:class:`Edge`: the origins its pages come from, the limits of its account requests). Both are
kept in ``app.state`` by :func:`~.app.create_app` and its lifespan, so that the routers
(:mod:`.rooms`, :mod:`.records`, :mod:`.status`, :mod:`.pages`, :mod:`.account_api`,
:mod:`.assistant`) are plain modules with no closures over an application."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from fastapi.requests import HTTPConnection

from ..manager import RoomManager
from ..runtime.ratelimit import TokenBucket
from .http_limits import BucketTable
from .origins import OriginPolicy

__all__ = ["Edge", "EdgeDep", "Manager", "edge", "room_manager", "started_manager"]


#: sign-ups per client address: one a minute, bursts of 5 (rate, burst)
SIGNUPS = (1 / 60, 5.0)
#: logins per client address: one every 5 s, bursts of 10
LOGINS = (0.2, 10.0)
#: refused WebSockets logged: one a second, bursts of 10
REFUSALS_LOGGED = (1.0, 10.0)


@dataclass(slots=True)
class Edge:
    """What one application checks at its edge, beside its middleware: the web origins whose
    pages may open the WebSocket and change an account (``origins``), the sign-ups and
    logins per client address (defaults: 5 sign-ups, then one a minute; 10 logins, then one
    every 5 s), the refused WebSockets it logs (a page retrying cannot flood the log), and
    the server's CSRF key once read from the database."""

    origins: OriginPolicy
    signups: BucketTable = field(default_factory=lambda: BucketTable(*SIGNUPS))
    logins: BucketTable = field(default_factory=lambda: BucketTable(*LOGINS))
    refusals_logged: TokenBucket = field(default_factory=lambda: TokenBucket(*REFUSALS_LOGGED))
    csrf_key: bytes | None = None

    @classmethod
    def timed(cls, origins: OriginPolicy, clock: Callable[[], float]) -> Edge:
        """The edge with its limits on ``clock`` (a monotonic clock's seconds)."""
        return cls(
            origins,
            BucketTable(*SIGNUPS, clock=clock),
            BucketTable(*LOGINS, clock=clock),
            TokenBucket(*REFUSALS_LOGGED, clock),
        )


async def room_manager(conn: HTTPConnection) -> RoomManager:
    """The manager of the rooms, once the application has started."""
    manager: RoomManager = conn.app.state.manager
    return manager


async def started_manager(conn: HTTPConnection) -> RoomManager | None:
    """The manager of the rooms, or ``None`` before the application started."""
    manager: RoomManager | None = getattr(conn.app.state, "manager", None)
    return manager


async def edge(conn: HTTPConnection) -> Edge:
    """The edge of the application (:class:`Edge`)."""
    found: Edge = conn.app.state.edge
    return found


Manager = Annotated[RoomManager, Depends(room_manager)]
EdgeDep = Annotated[Edge, Depends(edge)]
