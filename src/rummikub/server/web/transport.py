"""Guards below the application, on the TCP connections uvicorn accepts: how many one address
may hold open, and how long a request may take to arrive.

The application (ASGI) only sees a request once its headers are complete, so it cannot see a
client that opens connections and never finishes a request (*slowloris*): uvicorn keeps such
a connection open for ever (its keep-alive timeout runs only between requests, and any byte
stops it). These uvicorn protocol classes (:func:`protocols`) add what production servers do
(nginx's ``client_header_timeout``/``client_body_timeout``/``limit_conn``, Apache's
``mod_reqtimeout``):

- **Connections per address**: an address (an IPv6 client: its /64) may hold at most
  ``max_connections`` TCP connections open, HTTP and WebSocket together; one more is answered
  ``429`` ``too-many-connections`` and closed. A trusted reverse proxy (``--forwarded-allow-ips``)
  is not counted: all its clients come from its address, and it limits them itself.
- **Request time**: a request whose headers and body have not all arrived ``request_timeout``
  seconds after its first byte (or after the connection opened) is cut off, its connection
  closed. Between requests uvicorn's keep-alive timeout closes an idle connection; a stray
  byte there starts the request clock.
- **Header size**: a request whose headers pass ``max_header_bytes`` is answered ``431`` and
  closed (httptools, unlike h11, sets no limit of its own).
- uvicorn's own refusal of a request that is not HTTP is answered ``400`` ``bad-request`` with
  the JSON shape and security headers of every other error.

They extend uvicorn's httptools and websockets (sans-I/O) protocols, the ones uvicorn picks
itself when those libraries are installed (the ``server`` extra installs them).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Iterable
from http import HTTPStatus
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from rummikub.core import RummikubError

from ..protocol.codes import ServerCode
from ..runtime.admission import ConnectionCounter
from .headers import security_headers
from .http_limits import address_key, error_body

__all__ = [
    "GuardedHttp",
    "GuardedWebSocket",
    "ProxyError",
    "TransportGuard",
    "parse_proxies",
    "protocols",
]

log = logging.getLogger("rummikub.server")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ProxyError(RummikubError):
    """A ``--forwarded-allow-ips`` entry that is neither an address nor a network."""


def parse_proxies(entries: Iterable[str]) -> tuple[str, ...]:
    """The trusted proxies as given (addresses, networks such as ``10.0.0.0/8``, or ``*``),
    checked: anything else raises :class:`ProxyError` naming it (uvicorn would take it as a
    literal that never matches, silently)."""
    out = []
    for entry in entries:
        entry = entry.strip()
        if not entry:
            continue
        if entry != "*":
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                raise ProxyError(
                    f"not an address or network: {entry!r} (--forwarded-allow-ips takes IP "
                    "addresses such as 10.0.0.2, networks such as 10.0.0.0/8, or *)"
                ) from None
        out.append(entry)
    return tuple(out)


class TransportGuard:
    """The limits of :mod:`this module` and the connections each address holds open."""

    def __init__(
        self,
        *,
        max_connections: int = 128,
        request_timeout: float = 10.0,
        max_header_bytes: int = 65_536,
        trusted_proxies: Iterable[str] = (),
    ) -> None:
        self.counter = ConnectionCounter(max_connections)
        self.request_timeout = request_timeout
        self.max_header_bytes = max_header_bytes
        proxies = parse_proxies(trusted_proxies)
        self.trust_all = "*" in proxies
        self.proxies: tuple[Network, ...] = tuple(
            ipaddress.ip_network(p, strict=False) for p in proxies if p != "*"
        )
        self.held: dict[asyncio.BaseTransport, str] = {}
        self.refused = 0  #: connections refused for their address's limit
        self.timed_out = 0  #: requests cut off for taking too long

    def trusted(self, host: str) -> bool:
        """Whether ``host`` is a trusted reverse proxy."""
        if self.trust_all:
            return True
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        return any(ip in net for net in self.proxies)

    def admit(self, transport: asyncio.BaseTransport, client: tuple[str, int] | None) -> bool:
        """Count a new connection; ``False`` when its address holds as many as it may."""
        if client is None or self.trusted(client[0]):
            return True
        key = address_key(client[0])
        if not self.counter.open(key):
            self.refused += 1
            return False
        self.held[transport] = key
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """A connection has closed (once per connection is counted, whatever calls this)."""
        key = self.held.pop(transport, None)
        if key is not None:
            self.counter.close(key)


def _raw_error(status: int, code: str, message: str, params: dict[str, Any]) -> bytes:
    """A whole HTTP/1.1 error response that closes the connection, written on the transport."""
    body = error_body(code, message, params)
    head = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode(),
        b"content-type: application/json",
        f"content-length: {len(body)}".encode(),
        b"connection: close",
        *(name + b": " + value for name, value in security_headers(None)),
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with :class:`TransportGuard`'s limits (made for a guard
    by :func:`protocols`)."""

    guard: ClassVar[TransportGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._in_message = False  # a request has begun and not all of it has arrived
        self._in_head = True  # the headers of the next request have not all arrived
        self._head_bytes = 0
        self._upgraded = False

    # -- the connection ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(transport, self.client):
            limit = self.guard.counter.limit
            transport.write(
                _raw_error(
                    429,
                    ServerCode.TOO_MANY_CONNECTIONS,
                    f"your address has {limit} connections open already",
                    {"limit": limit},
                )
            )
            transport.close()
            return
        self._arm()  # the first request must come in time too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._upgraded or self.transport.is_closing():
            return
        if self._in_head:  # what came is still (part of) headers: how much of them so far
            self._head_bytes += len(data)
            if self._head_bytes > self.guard.max_header_bytes:
                self._refuse(
                    431,
                    ServerCode.TOO_LARGE,
                    f"the request headers are larger than {self.guard.max_header_bytes} bytes",
                    {"limit": self.guard.max_header_bytes},
                )
                return
        if self._deadline is not None:
            return
        idle = self.cycle is None or self.cycle.response_complete
        if self._in_message or idle:
            self._arm()

    def handle_websocket_upgrade(self) -> None:
        # the connection is the WebSocket protocol's now (GuardedWebSocket releases it)
        self._upgraded = True
        self._disarm()
        super().handle_websocket_upgrade()

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, ServerCode.BAD_REQUEST, "the request is not valid HTTP", {})

    # -- the parser's callbacks --------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_message = True

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_bytes = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_message = False
        self._in_head = True
        self._head_bytes = 0
        self._disarm()

    # -- the request clock -------------------------------------------------------------------

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.guard.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.guard.timed_out += 1
            self.transport.close()

    def _refuse(self, status: int, code: str, message: str, params: dict[str, Any]) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_raw_error(status, code, message, params))
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, releasing its connection's count when it closes."""

    guard: ClassVar[TransportGuard]

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        super().connection_lost(exc)


def protocols(guard: TransportGuard) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
    """The HTTP and WebSocket protocol classes of a server with ``guard``'s limits (uvicorn's
    ``http`` and ``ws`` options)."""
    http = type("GuardedHttp", (GuardedHttp,), {"guard": guard})
    ws = type("GuardedWebSocket", (GuardedWebSocket,), {"guard": guard})
    return http, ws
