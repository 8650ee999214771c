"""Accounts in the server tests: signing up over HTTP (as a page of the server does) and a
WebSocket client logged in with the session cookie."""

from __future__ import annotations

from typing import Any

import httpx

from .helpers import Client, ServerProcess

PASSWORD = "correct horse battery"


def sign_up(srv: ServerProcess, name: str, **extra: Any) -> str:
    """Sign ``name`` up; his session token (the cookie's value)."""
    with httpx.Client(base_url=srv.base, headers={"Origin": srv.base}, timeout=30) as c:
        r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD, **extra})
        assert r.status_code == 200, r.text
        token = r.cookies.get("rummikub_session")
    assert token
    return str(token)


def player(srv: ServerProcess, session: str | None) -> Client:
    """A WebSocket client, logged in when ``session`` is given."""
    return Client(srv.ws_url, session=session)


def account_info(srv: ServerProcess, session: str) -> dict[str, Any]:
    with httpx.Client(base_url=srv.base, cookies={"rummikub_session": session}) as c:
        r = c.get("/api/account")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
    return out


def get_json(srv: ServerProcess, path: str) -> dict[str, Any]:
    r = httpx.get(srv.base + path, timeout=30)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out
