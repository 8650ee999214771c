"""Security headers on every HTTP response (pages, static files, the JSON API): a pure ASGI
middleware.

The Content-Security-Policy lets the page run only the server's own script files (no inline
script, no ``on...=`` attributes, no ``eval``), load only its own styles, images and translations,
connect only back to the server (its WebSocket on ``ws://`` or, behind TLS, ``wss://``), and
never be framed. The web client sets no inline ``style`` attribute; it only writes element
styles from script (``element.style``, which a policy without ``'unsafe-inline'`` allows).
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["SecurityHeadersMiddleware", "content_security_policy", "host_of", "security_headers"]

# A Host header that may be written into the policy as it is: a name or address and a port.
# Anything else (a ";" would start a new directive) gets the policy without it.
_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def content_security_policy(host: str | None) -> str:
    """The policy of a response to a request with this ``Host`` header.

    ``connect-src 'self'`` already covers the WebSocket in current browsers; the explicit
    ``ws://HOST`` and ``wss://HOST`` are for browsers that apply ``'self'`` to http(s) only."""
    connect = "'self'"
    if host and _HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            f"connect-src {connect}",
            "manifest-src 'self'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


FIXED_HEADERS: list[tuple[bytes, bytes]] = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    # nothing the server needs comes in a Referer, and room codes stay out of other sites' logs
    (b"referrer-policy", b"no-referrer"),
]

_SET = {name for name, _ in FIXED_HEADERS} | {b"content-security-policy"}

#: the ASGI messages that start a response: an HTTP one, or the refusal of a WebSocket
#: handshake (the ``websocket.http.response`` extension)
_STARTS = ("http.response.start", "websocket.http.response.start")


def host_of(scope: Scope) -> str | None:
    """The ``Host`` header of a request (``None`` when it has none)."""
    for name, value in scope["headers"]:
        if name == b"host":
            return str(value.decode("latin-1"))
    return None


def security_headers(host: str | None) -> list[tuple[bytes, bytes]]:
    """The headers every response to a request with this ``Host`` carries (for the responses
    written outside this middleware: the server's own 500s and the transport's refusals)."""
    csp = content_security_policy(host).encode("latin-1")
    return [*FIXED_HEADERS, (b"content-security-policy", csp)]


class SecurityHeadersMiddleware:
    """Adds the headers above to every HTTP response, and to the HTTP answer that refuses a
    WebSocket handshake (replacing any the app set itself)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        added = security_headers(host_of(scope))

        async def send_with_headers(message: Message) -> None:
            if message["type"] in _STARTS:
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _SET]
                message = {**message, "headers": headers + added}
            await send(message)

        await self.app(scope, receive, send_with_headers)
