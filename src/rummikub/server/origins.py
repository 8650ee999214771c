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
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from urllib.parse import urlsplit

from rummikub.core import RummikubError

__all__ = [
    "ENV_ALLOWED_ORIGINS",
    "OriginError",
    "OriginPolicy",
    "normalise_origin",
    "origins_from_env",
]

ENV_ALLOWED_ORIGINS = "RUMMIKUB_ALLOWED_ORIGINS"

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
