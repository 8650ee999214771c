"""Session and CSRF tokens.

A session token is 32 random bytes sent to the browser in an ``HttpOnly``, ``SameSite=Lax``
cookie (``Secure`` behind TLS); the database keeps only its SHA-256, so a copy of the database
opens no session. The CSRF token is derived from the session token with HMAC and a server key:
pages read it from the session answer and send it back in a header with every request that
changes something, which a page of another site cannot do.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["csrf_token", "csrf_valid", "new_token", "token_hash"]


def new_token() -> str:
    """A new session token (URL-safe text, 256 bits)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def csrf_token(session: str, key: bytes) -> str:
    """The CSRF token of a session, under the server's secret ``key``."""
    return hmac.new(key, b"csrf:" + session.encode("utf-8"), hashlib.sha256).hexdigest()


def csrf_valid(session: str | None, sent: str | None, key: bytes) -> bool:
    """Whether ``sent`` is the CSRF token of ``session`` (compared in constant time)."""
    if not session or not sent:
        return False
    return hmac.compare_digest(csrf_token(session, key), sent)
