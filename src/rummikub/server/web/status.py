"""How the server is, for people and machines: ``/api/health`` (what is wrong, if anything),
``/api/ready`` (for a load balancer) and ``/metrics`` (Prometheus)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response

from ..manager import RoomManager
from ..runtime.metrics import CONTENT_TYPE
from .deps import Manager, started_manager

__all__ = ["router"]

router = APIRouter()


@router.get("/api/health")
async def health(m: Manager) -> dict[str, Any]:
    """``ok`` is false while storage is down or a room could not be restored; the details
    say which."""
    return await m.health()


@router.get("/api/ready")
async def ready(
    manager: Annotated[RoomManager | None, Depends(started_manager)],
) -> JSONResponse:
    """For a load balancer: 200 while this server takes players, 503 while its database is
    down (or before it started)."""
    up = manager is not None and manager.ready()
    return JSONResponse({"ready": up}, 200 if up else 503)


@router.get("/metrics", include_in_schema=False)
async def metrics(m: Manager) -> Response:
    """The server's metrics in the Prometheus text format (docs/server.md)."""
    return Response(m.metrics.text(), media_type=CONTENT_TYPE)
