"""Limits of what one client address may ask of the server over HTTP: pure ASGI middleware.

- **Requests per second** (:class:`RateLimitMiddleware`).

Each client address has a token bucket (``rate`` requests per second on average, bursts of up to
``burst``) for the JSON API (``/api/...``) and another, more generous one, for pages and static
files. A request over the limit is answered ``429`` with a JSON error and ``Retry-After`` before
the application sees it. The buckets live in a table of bounded size: when it is full, the
address seen longest ago is forgotten (it starts again with a full bucket). IPv6 addresses share
a bucket per ``/64``, the block one machine usually has. WebSocket connections are not counted
here (each has its own message limit, ``ratelimit.py``).

- **Open WebSockets** (:class:`WebSocketLimitMiddleware`): at most so many at once per address;
  the handshake of one more is refused ``429`` ``too-many-connections``.
- **Request bodies** (:class:`BodyLimitMiddleware`): at most ``limit`` bytes, refused ``413``
  ``too-large`` by their ``Content-Length`` before a byte is read, or as soon as a chunked body
  passes the limit; a JSON body (``application/json``) nested deeper than the protocol allows
  (``too-deep``) or holding half a surrogate pair (``bad-json``) is refused ``400`` before any
  endpoint parses it (a parser that recurses would fail on it with a ``500``).

Every refusal has the shape of every HTTP error, ``{"error", "code", "params"}``
(:func:`send_error`). Behind a reverse proxy every request comes from the proxy's address unless
the proxy is named with ``--forwarded-allow-ips``: then uvicorn takes the client's address from
``X-Forwarded-For`` (docs/server.md, *Behind a reverse proxy*).
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummikub.core import RummikubError

from ..protocol.codes import ServerCode
from ..protocol.messages import MAX_DEPTH
from ..runtime.admission import ConnectionCounter

__all__ = [
    "BodyLimitMiddleware",
    "BucketTable",
    "LimitError",
    "RateLimitMiddleware",
    "WebSocketLimitMiddleware",
    "address_key",
    "client_key",
    "error_body",
    "json_problem",
    "send_error",
]


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
    return address_key(str(client[0]))


def address_key(host: str) -> str:
    """The key of a client's address: an IPv4 address as it is (an IPv4-mapped IPv6 address as
    IPv4), an IPv6 address as its /64."""
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
        await send_error(
            scope,
            send,
            429,
            ServerCode.RATE_LIMITED,
            f"too many requests from your address; try again in {retry} s",
            {"seconds": retry},
            headers=[(b"retry-after", str(retry).encode())],
        )


def error_body(code: str, message: str, params: dict[str, Any] | None = None) -> bytes:
    """The JSON body of every HTTP error: ``{"error", "code", "params"}``."""
    return json.dumps({"error": message, "code": code, "params": params or {}}).encode()


async def send_error(
    scope: Scope,
    send: Send,
    status: int,
    code: str,
    message: str,
    params: dict[str, Any] | None = None,
    *,
    headers: Iterable[tuple[bytes, bytes]] = (),
    close: bool = False,
) -> None:
    """Answer a request (or refuse a WebSocket handshake) with an error of the usual shape.
    ``close``: the connection closes after it (a body left unread must not be read as the next
    request). A WebSocket handshake is refused with this HTTP answer where the server supports
    it (uvicorn does), else closed before it is accepted (HTTP 403)."""
    body = error_body(code, message, params)
    head = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *headers,
    ]
    if close:
        head.append((b"connection", b"close"))
    if scope["type"] == "websocket":
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        prefix = "websocket."
    else:
        prefix = ""
    await send({"type": f"{prefix}http.response.start", "status": status, "headers": head})
    await send({"type": f"{prefix}http.response.body", "body": body})


class WebSocketLimitMiddleware:
    """Refuses the WebSocket handshake of an address that has ``counter.limit`` open already
    (``429`` ``too-many-connections``); counts them by :func:`client_key`."""

    def __init__(self, app: ASGIApp, counter: ConnectionCounter) -> None:
        self.app = app
        self.counter = counter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        key = client_key(scope)
        if not self.counter.open(key):
            limit = self.counter.limit
            await send_error(
                scope,
                send,
                429,
                ServerCode.TOO_MANY_CONNECTIONS,
                f"your address has {limit} WebSocket connections open already",
                {"limit": limit},
            )
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.counter.close(key)


# a JSON string (with its escapes) and the brackets outside strings
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_problem(body: bytes) -> tuple[str, str] | None:
    """Why a JSON request body is refused before an endpoint parses it, as ``(code,
    message)``: nested deeper than :data:`~..protocol.messages.MAX_DEPTH` (counted without
    recursion), not JSON, or holding a lone surrogate (``"\\ud800"``: valid JSON, but no text,
    and it cannot be encoded). ``None``: the body may go on."""
    depth = deepest = 0
    for found in _BRACKET.finditer(_STRING.sub(b'""', body)):
        depth += 1 if found.group() in b"[{" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return ServerCode.TOO_DEEP, f"the body is nested deeper than {MAX_DEPTH} levels"
    try:
        value = json.loads(body)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError):  # UnicodeError is a ValueError
        return ServerCode.BAD_JSON, "the body is not valid JSON (UTF-8 text)"
    return None


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json" or kind.endswith(b"+json")
    return False


class BodyLimitMiddleware:
    """Reads the body of every HTTP request before the application does, refusing one larger
    than ``limit`` bytes (``413``, by ``Content-Length`` before reading, or once a chunked body
    passes it) and a JSON body :func:`json_problem` refuses (``400``); the application then gets
    the body from memory (at most ``limit`` bytes of it per request)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        if limit < 1:
            raise LimitError(f"bad body limit: at least 1 byte, not {limit}")
        self.app = app
        self.limit = limit

    async def too_large(self, scope: Scope, send: Send) -> None:
        await send_error(
            scope,
            send,
            413,
            ServerCode.TOO_LARGE,
            f"the request body is larger than {self.limit} bytes",
            {"limit": self.limit},
            close=True,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.strip().isdigit():
                    await send_error(
                        scope, send, 400, ServerCode.BAD_REQUEST, "a bad Content-Length",
                        close=True,
                    )  # fmt: skip
                    return
                if int(value) > self.limit:
                    await self.too_large(scope, send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client has gone
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self.too_large(scope, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = json_problem(body) if body and _is_json(scope) else None
        if problem is not None:
            await send_error(scope, send, 400, problem[0], problem[1])
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:  # after the body: what the server says next (a disconnect)
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
