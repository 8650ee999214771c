"""Accounts over HTTP: signing up, logging in and out, the session, changing the password,
deleting the account; players' profiles and the leaderboards.

The session is a cookie (``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the page came over
TLS) that the WebSocket handshake carries too. Every request that changes something must come
from a page of this server: a ``POST`` with a JSON body (which another site's form cannot
send) and an allowed ``Origin``; once logged in it must also carry the session's CSRF token in
``X-CSRF-Token`` (the page gets it from ``GET /api/account``). Sign-ups and logins are limited
per client address, and an account is locked for a while after repeated wrong passwords
(:mod:`..accounts.lockout`). A wrong name and a wrong password get the same answer, and lock
alike. Every answer that carries a session or its CSRF token is ``Cache-Control: no-store``.

When a session ends (logging out, everywhere, a new password, deleting the account) the
WebSockets it logged in lose the account at once (:mod:`..accounts.live`).

The password hashing (Argon2id, tens of milliseconds) and the database work run on a thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse

from rummikub.games import game_names

from ..accounts import AccountCode, AccountError, csrf_token, csrf_valid, token_hash
from ..accounts.games import MAX_CLAIMS
from ..accounts.live import Ended
from ..accounts.store import DELETED_NAME, SESSION_DAYS, Account, Standing
from ..manager import RoomManager
from ..protocol.codes import ServerCode
from ..protocol.messages import room_game_name
from .deps import Edge, EdgeDep, Manager
from .http_limits import BucketTable, client_key

__all__ = ["COOKIE", "CSRF_HEADER", "router"]

COOKIE = "rummikub_session"
CSRF_HEADER = "x-csrf-token"
#: the CSRF token is an HMAC of the session token under the server's secret of this name (made
#: at random on the first start, kept in the database: the same on every node and restart)
CSRF_SECRET = "csrf"
#: what the answers carrying a session or its CSRF token say to caches
PRIVATE = {"Cache-Control": "no-store"}
MAX_FIELD = 300  #: the longest name or password field read
MONTH = 30 * 86400.0

router = APIRouter()

_STATUS = {
    AccountCode.BAD_LOGIN: 401,
    AccountCode.NOT_LOGGED_IN: 401,
    AccountCode.LOCKED: 429,
    AccountCode.NAME_UNAVAILABLE: 409,
}


def _error(code: str, message: str, status: int, **params: Any) -> JSONResponse:
    headers = {}
    if "retry_after" in params:
        headers["Retry-After"] = str(params["retry_after"])
    body = {"error": message, "code": code, "params": params}
    return JSONResponse(body, status, headers=headers)


def _refusal(exc: AccountError) -> JSONResponse:
    return _error(exc.code, str(exc), _STATUS.get(exc.code, 400), **exc.params)


def _session(account: Account, token: str, key: bytes) -> dict[str, Any]:
    """What a page learns of its session: the account and the CSRF token to send back."""
    return {"account": {"id": account.id, "name": account.name},
            "csrf": csrf_token(token, key)}  # fmt: skip


def _claims(value: Any) -> list[tuple[str, str]]:
    """The (room, seat token) pairs a sign-up or login claims: ``[{"room", "token"}]``, the
    malformed ones left out."""
    if not isinstance(value, list):
        return []
    out = []
    for item in value[:MAX_CLAIMS]:
        if isinstance(item, dict):
            room, token = item.get("room"), item.get("token")
            if (
                isinstance(room, str)
                and isinstance(token, str)
                and 0 < len(room) <= 16
                and room.isalnum()
                and 0 < len(token) <= 200
            ):
                out.append((room, token))
    return out


def _standing(s: Standing) -> dict[str, Any]:
    return {
        "name": s.account.name,
        "rating": s.display,
        "mu": round(s.rating.mu, 3),
        "sigma": round(s.rating.sigma, 3),
        "games": s.games,
        "wins": s.wins,
    }


async def csrf_key(m: RoomManager, edge: Edge) -> bytes:
    """The server's CSRF key (read from the database once)."""
    if edge.csrf_key is None:
        edge.csrf_key = await asyncio.to_thread(m.accounts.secret, CSRF_SECRET, m.clock.time())
    return edge.csrf_key


def session_of(request: Request) -> str | None:
    return request.cookies.get(COOKIE)


async def current(request: Request, m: RoomManager) -> Account | None:
    token = session_of(request)
    if not token:
        return None
    return await asyncio.to_thread(m.accounts.session, token, m.clock.time())


async def from_our_page(
    request: Request, m: RoomManager, edge: Edge, *, logged_in: bool
) -> JSONResponse | None:
    """``None`` when the request may change something, else the refusal."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return _error("bad-message", "send the fields as JSON", 415)
    if not edge.origins.allows(request.headers.get("origin"), request.headers.get("host")):
        return _error("csrf", "this request did not come from this server's pages", 403)
    if logged_in and not csrf_valid(
        session_of(request), request.headers.get(CSRF_HEADER), await csrf_key(m, edge)
    ):
        return _error("csrf", "the request lacks this session's CSRF token", 403)
    return None


async def fields(request: Request, *names: str) -> dict[str, str] | JSONResponse:
    try:
        body = await request.json()
    except ValueError:
        return _error("bad-json", "the body is not JSON", 400)
    if not isinstance(body, dict):
        return _error("bad-message", "the body must be a JSON object", 400)
    out = {}
    for name in names:
        value = body.get(name)
        if not isinstance(value, str) or len(value) > MAX_FIELD:
            return _error("bad-message", f"{name} must be text", 400, field=name)
        out[name] = value
    return out


async def signed_in(
    request: Request, m: RoomManager, edge: Edge, account: Account, token: str, **more: Any
) -> JSONResponse:
    response = JSONResponse({**_session(account, token, await csrf_key(m, edge)), **more},
                            headers=PRIVATE)  # fmt: skip
    response.set_cookie(
        COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True, samesite="lax",
        secure=request.url.scheme == "https", path="/",
    )  # fmt: skip
    return response


def limited(table: BucketTable, request: Request, what: str) -> JSONResponse | None:
    wait = table.take(client_key(request.scope))
    if wait > 0:
        retry = max(1, round(wait + 0.5))
        return _error("rate-limited", f"too many {what}: try again later", 429,
                      retry_after=retry)  # fmt: skip
    return None


@router.get("/api/account")
async def session_route(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    """Who this browser is logged in as (``account`` null for a guest), the CSRF token its
    requests must carry, the games it is in and its puzzle rating with its counts."""
    account = await current(request, m)
    if account is None:
        return JSONResponse({"account": None, "csrf": None}, headers=PRIVATE)
    playing = await asyncio.to_thread(m.player_games.playing, account)
    puzzles = await asyncio.to_thread(m.accounts.puzzle_standing, account)
    return JSONResponse(
        {**_session(account, session_of(request) or "", await csrf_key(m, edge)),
         "playing": [g.to_json() for g in playing], "puzzles": puzzles.to_json()},
        headers=PRIVATE,
    )  # fmt: skip


async def enter(
    request: Request,
    m: RoomManager,
    edge: Edge,
    table: BucketTable,
    what: str,
    how: Callable[..., tuple[Account, str]],
) -> JSONResponse:
    """Sign up or log in (``how``) with the name and password of the request."""
    refused = await from_our_page(request, m, edge, logged_in=False) or limited(
        table, request, what
    )
    if refused is not None:
        return refused
    got = await fields(request, "name", "password")
    if isinstance(got, JSONResponse):
        return got
    try:
        account, token = await asyncio.to_thread(how, got["name"], got["password"], m.clock.time())
    except AccountError as exc:
        return _refusal(exc)
    # the games this browser played as a guest become the account's; the rooms running here
    # learn their account
    claims = _claims((await request.json()).get("claim"))
    games = m.player_games
    done = await asyncio.to_thread(games.claim, account, claims) if claims else []
    if done:
        m.claimed(account, done)
    playing = await asyncio.to_thread(games.playing, account)
    return await signed_in(
        request, m, edge, account, token, claimed=len(done), playing=[g.to_json() for g in playing]
    )


@router.post("/api/account/signup")
async def signup(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    return await enter(request, m, edge, edge.signups, "sign-ups", m.accounts.sign_up)


@router.post("/api/account/login")
async def login(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    return await enter(request, m, edge, edge.logins, "logins", m.accounts.log_in)


async def logged_in(request: Request, m: RoomManager, edge: Edge) -> Account | JSONResponse:
    refused = await from_our_page(request, m, edge, logged_in=True)
    if refused is not None:
        return refused
    account = await current(request, m)
    if account is None:
        return _error(AccountCode.NOT_LOGGED_IN, "not logged in", 401)
    return account


async def account_or_guest(
    request: Request, m: RoomManager, edge: Edge
) -> Account | JSONResponse | None:
    """Whom a request that may change an account is made for: ``None`` for a guest (no live
    session: nothing of his is stored), else his account once the request comes from our page
    with the session's CSRF token (as :func:`logged_in`), or the refusal."""
    account = await current(request, m)
    if account is None:
        return None
    return await from_our_page(request, m, edge, logged_in=True) or account


def signed_out() -> JSONResponse:
    response = JSONResponse({"account": None, "csrf": None}, headers=PRIVATE)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.post("/api/account/logout")
async def logout(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    account = await logged_in(request, m, edge)
    if isinstance(account, JSONResponse):
        return account
    token = session_of(request) or ""
    await asyncio.to_thread(m.accounts.log_out, token)
    m.sessions_ended(Ended(account.id, "logout", session=token_hash(token)))
    return signed_out()


@router.post("/api/account/logout-all")
async def logout_all(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    """End every session of the account, on every browser."""
    account = await logged_in(request, m, edge)
    if isinstance(account, JSONResponse):
        return account
    await asyncio.to_thread(m.accounts.log_out_everywhere, account)
    m.sessions_ended(Ended(account.id, "logout-all"))
    return signed_out()


@router.post("/api/account/password")
async def password(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    account = await logged_in(request, m, edge)
    if isinstance(account, JSONResponse):
        return account
    got = await fields(request, "old", "new")
    if isinstance(got, JSONResponse):
        return got
    try:
        token = await asyncio.to_thread(
            m.accounts.change_password, account, got["old"], got["new"], m.clock.time()
        )
    except AccountError as exc:
        return _refusal(exc)
    # every other session ended; this browser's sockets stay logged in, by its new one
    here = token_hash(session_of(request) or "")
    m.accounts.live.rekey(here, token_hash(token))
    m.sessions_ended(Ended(account.id, "password", keep=token_hash(token)))
    return await signed_in(request, m, edge, account, token)


@router.post("/api/account/delete")
async def delete(request: Request, m: Manager, edge: EdgeDep) -> JSONResponse:
    """Delete the account: name, password, sessions and ratings go; the games it played stay,
    under an anonymous name."""
    account = await logged_in(request, m, edge)
    if isinstance(account, JSONResponse):
        return account
    got = await fields(request, "password")
    if isinstance(got, JSONResponse):
        return got
    try:
        gone = await asyncio.to_thread(m.accounts.delete, account, got["password"], m.clock.time())
    except AccountError as exc:
        return _refusal(exc)
    m.sessions_ended(Ended(account.id, "deleted", seats=gone.seats, name=DELETED_NAME))
    return signed_out()


@router.get("/api/leaderboard", response_model=None)
async def leaderboard(
    m: Manager,
    game: Annotated[str, Query(max_length=32)] = "tiles",
    period: Annotated[str, Query(pattern="^(all|month)$")] = "all",
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> dict[str, Any] | JSONResponse:
    """The best shown ratings: of everyone, or of those who played a rated game in the last 30
    days; paged."""
    try:
        room_game_name(game)
    except ValueError as exc:
        return _error(ServerCode.BAD_MESSAGE, f"game: {exc}", 422, field="game")
    since = m.clock.time() - MONTH if period == "month" else None
    rows = await asyncio.to_thread(
        m.accounts.leaderboard, game, since=since, offset=offset, limit=limit
    )
    return {
        "game": game, "period": period, "offset": offset,
        "players": [{"place": offset + i + 1, **_standing(s)} for i, s in enumerate(rows)],
    }  # fmt: skip


@router.get("/api/players/{name}")
async def profile(
    name: Annotated[str, Path(max_length=64)],
    m: Manager,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    puzzle_offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    puzzle_limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> JSONResponse:
    """A player's ratings, games and wins per game, his rating after each of his last rated
    games, and a page of his finished games (newest first); his puzzle rating, the puzzles he
    solved of those he attempted, his puzzle rating after each of his last rated attempts, and
    a page of his attempts (newest first)."""
    store, games = m.accounts, m.player_games
    account = await asyncio.to_thread(store.find, name)
    if account is None:
        return _error("no-such-player", f"no player named {name!r}", 404, name=name)

    def gather() -> dict[str, Any]:
        recent = games.recent(account, offset=offset, limit=limit)
        out: dict[str, Any] = {
            "name": account.name, "games": {}, "offset": offset,
            "recent": [g.to_json() for g in recent],
        }  # fmt: skip
        for game in game_names("room"):
            standing = store.rating(account, game)
            out["games"][game] = {
                **_standing(standing),
                "history": [{"at": at, "rating": r} for at, r in store.history(account, game)],
            }
        puzzles = store.puzzle_standing(account)
        out["puzzles"] = {
            "rating": round(puzzles.rating.rating), "rd": round(puzzles.rating.rd),
            "solved": puzzles.solved, "attempted": puzzles.attempted,
            "history": [{"at": at, "rating": r} for at, r in store.puzzle_history(account)],
            "offset": puzzle_offset,
            "recent": [a.to_json() for a in store.puzzle_attempts(
                account, offset=puzzle_offset, limit=puzzle_limit)],
        }  # fmt: skip
        return out

    return JSONResponse(await asyncio.to_thread(gather))
