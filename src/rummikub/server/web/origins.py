"""Which web pages may open a WebSocket to the server: the ``Origin`` check.

A browser sends the ``Origin`` of the page that opens a WebSocket, and any page may open one to
any address, so without a check a page a person on the LAN visits could play from his browser.
The server accepts a handshake

- without ``Origin`` (not a browser: tests, bots, scripts; they cannot act for a person),
- whose ``Origin`` is the server itself: its host and port are those of the request's ``Host``
  (``http`` or ``https``, so the same check works behind a TLS proxy that keeps ``Host``),
- or whose ``Origin`` is in the configured list (``--allow-origin``, ``RUMMIKUB_ALLOWED_ORIGINS``):
  a reverse proxy that rewrites ``Host`` serves the client from an address the server cannot see.

Everything else (another site, ``null`` from a sandboxed frame or a file) is refused.

**Which names the server answers to: the ``Host`` check** (:class:`HostPolicy`). A page of
``evil.example`` whose DNS name is made to point at this server (*DNS rebinding*) is, to the
browser, its own origin: its requests carry ``Host: evil.example`` and pass the ``Origin``
check. So every HTTP request and WebSocket handshake must name the server: an IP address
(a browser only sends one it connects to, so rebinding cannot forge it), ``localhost``, the
name the server was bound to, the machine's names when it listens on every address, the hosts
of the allowed origins, or a name given with ``--allow-host`` (``*.example.org`` for a domain's
names, ``*`` for any). Others get ``400`` ``bad-host``.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from rummikub.core import RummikubError

from ..protocol.codes import ServerCode
from ..runtime.ratelimit import TokenBucket
from .headers import host_of
from .http_limits import send_error

__all__ = [
    "ENV_ALLOWED_HOSTS",
    "ENV_ALLOWED_ORIGINS",
    "HostCheckMiddleware",
    "HostPolicy",
    "OriginError",
    "OriginPolicy",
    "default_hosts",
    "hosts_from_env",
    "normalise_origin",
    "origin_host",
    "origins_from_env",
]

ENV_ALLOWED_ORIGINS = "RUMMIKUB_ALLOWED_ORIGINS"
ENV_ALLOWED_HOSTS = "RUMMIKUB_ALLOWED_HOSTS"

log = logging.getLogger("rummikub.server")

DEFAULT_PORTS = {"http": 80, "https": 443}

# An origin as (scheme, host, port): host lower-case, IPv6 without brackets.
Origin = tuple[str, str, int]


class OriginError(RummikubError):
    """A configured origin that is not ``scheme://host[:port]``."""


def _parse(text: str) -> Origin | None:
    """``(scheme, host, port)`` of ``http(s)://host[:port]``, or ``None`` for anything else."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host or parts.username or parts.password:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    return scheme, host, port if port is not None else DEFAULT_PORTS[scheme]


def normalise_origin(text: str) -> str:
    """``text`` as the origin a browser sends (``https://game.example.org``, default port left
    out), or :class:`OriginError` naming it if it is not ``http(s)://host[:port]``."""
    parsed = _parse(text)
    if parsed is None:
        raise OriginError(
            f"not a web origin: {text!r} (expected http://HOST[:PORT] or https://HOST[:PORT], "
            "without a path)"
        )
    scheme, host, port = parsed
    shown = f"[{host}]" if ":" in host else host
    if port != DEFAULT_PORTS[scheme]:
        shown += f":{port}"
    return f"{scheme}://{shown}"


def origin_host(origin: str) -> str:
    """The host name of a web origin (``https://game.example.org`` -> ``game.example.org``)."""
    parsed = _parse(origin)
    return parsed[1] if parsed is not None else ""


def origins_from_env(environ: dict[str, str] | None = None) -> list[str]:
    """The origins listed (comma-separated) in ``RUMMIKUB_ALLOWED_ORIGINS``."""
    env = os.environ if environ is None else environ
    return [o.strip() for o in env.get(ENV_ALLOWED_ORIGINS, "").split(",") if o.strip()]


def _host_port(host_header: str) -> tuple[str, int | None] | None:
    """Host and port (``None`` when absent) of a ``Host`` header, or ``None`` if malformed."""
    try:
        parts = urlsplit("//" + host_header.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.path or parts.query or parts.username:
        return None
    return parts.hostname.lower(), port


class OriginPolicy:
    """Decides whether a WebSocket handshake's ``Origin`` may connect."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed: frozenset[Origin] = frozenset(
            o for o in (_parse(normalise_origin(a)) for a in allowed) if o is not None
        )

    def allows(self, origin: str | None, host: str | None) -> bool:
        """Whether a handshake with these ``Origin`` and ``Host`` headers may connect."""
        if origin is None:
            return True
        parsed = _parse(origin)
        if parsed is None:  # "null", a file, an extension, garbage
            return False
        if parsed in self.allowed:
            return True
        target = _host_port(host) if host else None
        if target is None:
            return False
        scheme, name, port = parsed
        want_name, want_port = target
        if want_port is None:  # "Host: example.org": the default port of the page's scheme
            want_port = DEFAULT_PORTS[scheme]
        return name == want_name and port == want_port


def hosts_from_env(environ: dict[str, str] | None = None) -> list[str]:
    """The host names listed (comma-separated) in ``RUMMIKUB_ALLOWED_HOSTS``."""
    env = os.environ if environ is None else environ
    return [h.strip() for h in env.get(ENV_ALLOWED_HOSTS, "").split(",") if h.strip()]


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    return True


def default_hosts(bind: str) -> list[str]:
    """The names a server bound to ``bind`` answers to without ``--allow-host``: ``localhost``
    and the bound name; listening on every address (``0.0.0.0``, ``::``, ``""``), also the
    machine's host name, its fully qualified name and its ``.local`` (mDNS) name. IP addresses
    are always allowed (:class:`HostPolicy`)."""
    names = ["localhost"]
    if bind and not _is_address(bind):
        names.append(bind)
    if bind in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
        names += [host, f"{host.split('.')[0]}.local", socket.getfqdn()]
    return [n.lower() for n in names if n]


class HostPolicy:
    """Decides whether a request's ``Host`` names this server (the port is not looked at: the
    request reached it). Allowed: no ``Host`` (not a browser), any IP address, the names given
    (``*.example.org``: that domain's names; ``*``: anything)."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        cleaned = {n.strip().lower().rstrip(".") for n in names if n.strip()}
        self.anything = "*" in cleaned
        self.suffixes = tuple(n[1:] for n in cleaned if n.startswith("*."))
        self.names = frozenset(n for n in cleaned if not n.startswith("*"))

    def allows(self, host: str | None) -> bool:
        """Whether a request with this ``Host`` header may be answered."""
        if host is None or self.anything:
            return True
        target = _host_port(host)
        if target is None:
            return False
        name = target[0].rstrip(".")
        if _is_address(name):
            return True
        return name in self.names or name.endswith(self.suffixes)


class HostCheckMiddleware:
    """Answers a request whose ``Host`` the policy refuses ``400`` ``bad-host`` (a WebSocket
    handshake gets the same answer), and logs it (about once a second at most)."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app = app
        self.policy = policy
        self.logged = TokenBucket(1.0, 10.0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = host_of(scope)
        several = sum(1 for name, _ in scope["headers"] if name == b"host") > 1
        if self.policy.allows(host) and not several:
            await self.app(scope, receive, send)
            return
        shown = "".join(c if c.isprintable() else "?" for c in (host or "")[:200])
        if self.logged.take():
            client = scope.get("client")
            log.warning(
                "refused a request from %s: Host %s is not a name of this server (--allow-host)",
                client[0] if client else "?",
                shown,
            )
        await send_error(
            scope,
            send,
            400,
            ServerCode.BAD_HOST,
            f"this server does not answer to {shown!r} (its operator may allow it with "
            "--allow-host)",
            {"host": shown},
        )
