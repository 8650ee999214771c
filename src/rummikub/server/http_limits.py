"""Rate limits of HTTP requests per client address: a pure ASGI middleware.

Each client address has a token bucket (``rate`` requests per second on average, bursts of up to
``burst``) for the JSON API (``/api/...``) and another, more generous one, for pages and static
files. A request over the limit is answered ``429`` with a JSON error and ``Retry-After`` before
the application sees it. The buckets live in a table of bounded size: when it is full, the
address seen longest ago is forgotten (it starts again with a full bucket). IPv6 addresses share
a bucket per ``/64``, the block one machine usually has. WebSocket connections are not counted
here (each has its own message limit, ``ratelimit.py``).

Behind a reverse proxy every request comes from the proxy's address unless uvicorn takes the
client's from ``X-Forwarded-For`` (it does for proxies on 127.0.0.1, ``--forwarded-allow-ips``).
"""

from __future__ import annotations

import ipaddress
import json
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from rummikub.core import RummikubError

from .codes import ServerCode

__all__ = ["BucketTable", "LimitError", "RateLimitMiddleware", "client_key"]


class LimitError(RummikubError):
    """A rate limit that cannot work (negative rate, burst below one request...)."""


class BucketTable:
    """Token buckets per key, at most ``size`` of them (least recently used forgotten first).

    ``rate`` ``0`` means no limit."""

    def __init__(
        self,
        rate: float,
        burst: float,
        size: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not (math.isfinite(rate) and rate >= 0):
            raise LimitError(f"bad rate limit: the rate must be 0 (no limit) or more, not {rate}")
        if not (math.isfinite(burst) and burst >= 1):
            raise LimitError(f"bad rate limit: the burst must be at least 1, not {burst}")
        if size < 1:
            raise LimitError(f"bad rate limit: the table must hold at least 1 address, not {size}")
        self.rate = rate
        self.burst = burst
        self.size = size
        self.clock = clock
        # key -> (tokens, time they were counted)
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> float:
        """Take one token from ``key``'s bucket: ``0.0`` if there was one, else the seconds until
        there will be (nothing is taken then)."""
        if self.rate == 0:
            return 0.0
        now = self.clock()
        entry = self.buckets.get(key)
        if entry is None:
            tokens = self.burst
            if len(self.buckets) >= self.size:
                self.buckets.popitem(last=False)
        else:
            tokens = min(self.burst, entry[0] + (now - entry[1]) * self.rate)
            self.buckets.move_to_end(key)
        if tokens >= 1.0:
            self.buckets[key] = (tokens - 1.0, now)
            return 0.0
        self.buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate


def client_key(scope: Scope) -> str:
    """The address a request is counted under: the client's IPv4 address, or its IPv6 /64."""
    client = scope.get("client")
    if not client:
        return "-"
    host = str(client[0])
    if ":" in host:
        try:
            addr = ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return host
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return f"{ipaddress.IPv6Address(int(addr) >> 64 << 64)}/64"
    return host


class RateLimitMiddleware:
    """Answers ``429`` to an address over its limit; ``api`` counts ``/api/...``, ``other`` the
    rest of the HTTP requests (``None``: not limited)."""

    def __init__(self, app: ASGIApp, api: BucketTable, other: BucketTable | None = None) -> None:
        self.app = app
        self.api = api
        self.other = other

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        table = self.api if path.startswith("/api/") else self.other
        wait = table.take(client_key(scope)) if table is not None else 0.0
        if wait == 0.0:
            await self.app(scope, receive, send)
            return
        retry = max(1, math.ceil(wait))
        body = json.dumps(
            {
                "error": f"too many requests from your address; try again in {retry} s",
                "code": ServerCode.RATE_LIMITED,
                "params": {"seconds": retry},
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
