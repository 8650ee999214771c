"""Puzzles over HTTP (docs/server.md, *Puzzles*): the shipped set's positions (never their
solutions, except through ``/solution``), answers checked by the engine on the server, a hint,
the solution laid out, and a player's Glicko-2 rating after an attempt; the shipped puzzles'
ratings do not move. A guest's rating and streak live in his browser (docs/web.md): for him
every endpoint is stateless. A logged-in account's first attempt at each puzzle is stored and
rated on the server (docs/puzzles.md): the verdict of its answer, a hint (the attempt is not
rated) or the solution shown before solving (failed); its requests that do so carry the
session's CSRF token (:func:`.account_api.account_or_guest`).

- ``GET /api/puzzles/themes``: the goals and themes ``next`` takes as ``theme``.
- ``GET /api/puzzles/{id}``: the position (table, rack, opened, rules, goal, target, rating,
  themes).
- ``GET /api/puzzles/daily``: the puzzle of the day (the application clock's UTC date).
- ``GET /api/puzzles/next?rating=&theme=&done=&salt=&streak=``: a puzzle near ``rating``
  (of ``theme``, a theme or a goal), not one of ``done`` (ids, comma-separated); with
  ``streak=N`` the puzzle number N + 1 of a streak. For an account, ``rating`` is its puzzle
  rating unless given, and the puzzles it attempted count as done.
- ``POST /api/puzzles/{id}/answer`` ``{"table": [[...], ...]}``: the verdict (an account's:
  and ``attempt``, what it did to the account's rating).
- ``GET /api/puzzles/{id}/hint?level=``, ``POST`` with ``{"level"}``: one step (an account's
  ``POST``: and ``attempt``).
- ``GET /api/puzzles/{id}/solution``, ``POST``: the first stored solution, every tile marked
  (an account's ``POST``: and ``attempt``).
- ``POST /api/puzzles/{id}/rating`` ``{"player": {rating, rd, volatility}, "solved"}``: a
  guest's new rating after the attempt (Glicko-2, :func:`rummikub.puzzles.rating.attempt`).

A finished game's review (``/api/rooms/{code}/analysis``) lists as ``puzzles`` the positions
where a player could have gone out and did not; each is a puzzle here under the id
``CODE-ROUND-TURN`` (1-based, ``ABCD-1-14``), with ``game`` (code, round, turn, seat) in its
position. Asking for one reads the game's review (made, and charged, as ``/analysis`` makes
it); attempts at it are never rated (``rated``: false), for an account or a guest.

A puzzle that does not exist is ``404 puzzle-unknown``; an unknown theme ``404
puzzle-unknown-theme``; an answer in bad notation ``400 bad-notation``; an answer placing
tiles the rack does not hold ``400 not-on-rack`` (the tiles named); an account's request
without the session's CSRF token ``403 csrf``. A refused request changes nothing. A wrong
answer (an invalid set, a table tile gone, too few tiles) is a ``200`` verdict saying what is
wrong."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import re
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from rummikub.core import Play, Table
from rummikub.core.errors import Code, RummikubError
from rummikub.core.tiles import format_tiles, sort_key
from rummikub.puzzles import (
    Puzzle,
    PuzzleCode,
    PuzzleError,
    Verdict,
    check_answer,
    hint,
    solution_layout,
)
from rummikub.puzzles.model import GOALS, rules_to_json
from rummikub.puzzles.rating import Rating, attempt, daily, next_puzzle, streak_puzzle
from rummikub.puzzles.themes import THEMES
from rummikub.puzzles.verify import shipped

from ..accounts import AccountError
from ..accounts.store import Account
from ..manager import RoomManager
from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..work.jobs import game_puzzle_id
from .account_api import PRIVATE, account_or_guest, current
from .deps import Edge, EdgeDep, Manager
from .records import asker, refusal

__all__ = ["router"]

router = APIRouter()

#: the most ids of ``done`` a request for the next puzzle names (the oldest are dropped)
MAX_DONE = 500
#: the id of a finished game's puzzle: the game's code, the round and the turn (1-based),
#: ``ABCD-1-14`` (:func:`..work.jobs.game_puzzle_id`); a shipped puzzle's id has no dash
GAME_PUZZLE = re.compile(r"([A-Za-z0-9]{1,16})-([1-9][0-9]{0,3})-([1-9][0-9]{0,3})")


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in shipped()}


def _refused(status: int, code: str, message: str, **params: Any) -> JSONResponse:
    return JSONResponse({"error": message, "code": code, "params": params}, status)


async def _puzzle(ident: str, request: Request, m: RoomManager) -> Puzzle | JSONResponse:
    """The puzzle ``ident``: a shipped one, or one of a finished game's review
    (:data:`GAME_PUZZLE`: its review is read, or made and charged as ``/analysis`` makes it);
    or the refusal (404 ``puzzle-unknown``; the game's own refusals when it cannot be
    reviewed now: 429 busy)."""
    found = _by_id().get(ident)
    game = GAME_PUZZLE.fullmatch(ident)
    if found is None and game is not None:
        code, round_, turn = game[1].upper(), int(game[2]), int(game[3])
        try:
            review = await m.game_puzzles(code, *await asker(request, m))
        except ClientError as exc:
            if exc.code == ServerCode.BUSY:
                return refusal(exc)
            review = {}  # no such game, or not finished: no such puzzle
        found = review.get(game_puzzle_id(code, round_ - 1, turn - 1))
    if found is None:
        shown = ident[:20]
        return _refused(404, PuzzleCode.UNKNOWN_PUZZLE, f"there is no puzzle {shown!r}", id=shown)
    return found


def _rated(p: Puzzle) -> bool:
    """Whether attempts at ``p`` are rated: the shipped puzzles' are; a game's own are
    practice (their ratings are only the starting guess of their difficulty)."""
    return p.id in _by_id()


def position(p: Puzzle) -> dict[str, Any]:
    """What a player is shown of a puzzle: the position and the goal, never a solution; for a
    game's puzzle, which game, round, turn and seat it comes from."""
    out = {
        "id": p.id,
        **p.position(),
        "rules": rules_to_json(p.rules),
        "opening_value": p.rules.opening_value,
        "goal": p.goal.value,
        "target": p.target,
        "rating": round(p.rating),
        "rd": round(p.rd),
        "themes": list(p.themes),
        "rated": _rated(p),
    }
    game = GAME_PUZZLE.fullmatch(p.id)
    if game is not None and p.source is not None:
        out["game"] = {
            "code": game[1],
            "round": p.source.round + 1,
            "turn": p.source.turn + 1,
            "seat": p.source.player,
        }
    return out


def _answer(p: Puzzle | JSONResponse) -> JSONResponse:
    return p if isinstance(p, JSONResponse) else JSONResponse(position(p))


@router.get("/api/puzzles/daily")
async def daily_route(m: Manager) -> JSONResponse:
    """The puzzle of the day (UTC), the same for everyone."""
    day = dt.datetime.fromtimestamp(m.clock.time(), dt.UTC).date()
    body = position(daily(shipped(), day))
    body["date"] = day.isoformat()
    return JSONResponse(body)


@router.get("/api/puzzles/next")
async def next_route(
    request: Request,
    m: Manager,
    rating: Annotated[float | None, Query(ge=0, le=4000)] = None,
    theme: Annotated[str | None, Query(max_length=40)] = None,
    done: Annotated[str, Query(max_length=MAX_DONE * 9)] = "",
    salt: Annotated[str, Query(max_length=40)] = "",
    streak: Annotated[int | None, Query(ge=0, le=1000)] = None,
) -> JSONResponse:
    """A puzzle near ``rating`` not yet done (or the next of a streak); for an account near
    its puzzle rating (unless ``rating`` is given), not one it attempted."""
    seen = [x for x in done.split(",") if x][-MAX_DONE:]
    account = await current(request, m)
    if account is not None and streak is None:
        seen += await asyncio.to_thread(m.accounts.puzzles_done, account, limit=MAX_DONE)
        if rating is None:
            standing = await asyncio.to_thread(m.accounts.puzzle_standing, account)
            rating = standing.rating.rating
    try:
        if streak is not None:
            p = streak_puzzle(shipped(), streak, theme=theme or None, salt=salt)
        else:
            near = 1500.0 if rating is None else rating
            p = next_puzzle(shipped(), near, done=seen, theme=theme or None, salt=salt)
    except PuzzleError as exc:
        return JSONResponse({"error": str(exc), "code": exc.code, "params": exc.params}, 404)
    return JSONResponse(position(p), headers=PRIVATE if account is not None else None)


@router.get("/api/puzzles/themes")
async def themes_route() -> JSONResponse:
    """What ``/next?theme=`` takes: the goals and the themes (the page's menu)."""
    return JSONResponse({"goals": [g.value for g in GOALS], "themes": list(THEMES)})


@router.get("/api/puzzles/{ident}")
async def puzzle_route(ident: str, request: Request, m: Manager) -> JSONResponse:
    return _answer(await _puzzle(ident, request, m))


class AnswerBody(BaseModel):
    """An answer: the new table as the web client builds it (sets of tiles in the project's
    notation, a joker ``J`` or ``J=R6``)."""

    table: list[list[str]] = Field(max_length=60)


async def _attempt(
    m: RoomManager, player: Account | None, p: Puzzle, how: str, solved: bool, body: dict[str, Any]
) -> JSONResponse:
    """``body``, and for an account (``player``) what the attempt did to its puzzle rating
    (``attempt``: :meth:`~..accounts.store.PuzzleOutcome.to_json`) once stored."""
    if player is None or not _rated(p):
        return JSONResponse(body)
    try:
        outcome = await asyncio.to_thread(
            m.accounts.attempt_puzzle, player, p.id, Rating(p.rating, p.rd), how, solved,
            m.clock.time(),
        )  # fmt: skip
    except AccountError as exc:
        return _refused(401, exc.code, str(exc), **exc.params)
    return JSONResponse({**body, "attempt": outcome.to_json()}, headers=PRIVATE)


async def _target(
    ident: str, request: Request, m: RoomManager, edge: Edge
) -> tuple[Puzzle, Account | None] | JSONResponse:
    """The puzzle of a request that may be an account's attempt, and whose it is (``None``:
    a guest's); or the refusal (no such puzzle, an account's request without its token)."""
    p = await _puzzle(ident, request, m)
    if isinstance(p, JSONResponse):
        return p
    player = await account_or_guest(request, m, edge)
    return player if isinstance(player, JSONResponse) else (p, player)


@router.post("/api/puzzles/{ident}/answer")
async def answer_route(
    ident: str, body: AnswerBody, request: Request, m: Manager, edge: EdgeDep
) -> JSONResponse:
    """The verdict on an answer (``solved``, else ``code``/``params``/``meld``); 400 when it is
    not an answer to this puzzle at all (bad notation, tiles not on the rack). An account's
    answer is its attempt, rated by the verdict (the table as it was is none)."""
    target = await _target(ident, request, m, edge)
    if isinstance(target, JSONResponse):
        return target
    p, player = target
    try:
        table = Table.from_json(body.table, where="answer")
    except RummikubError as exc:
        return _refused(400, exc.code, str(exc), **exc.params)
    new = table.counts()
    placed = new - p.table.counts()
    missing = placed - p.rack.counts()
    if missing:
        shown = format_tiles(sorted(missing.elements(), key=sort_key))
        return _refused(400, Code.NOT_ON_RACK, f"not on the rack: {shown}", tiles=shown)
    tiles = tuple(sorted(placed.elements(), key=sort_key))
    lost = p.table.counts() - new
    if not tiles and not lost:  # the table as it was
        return JSONResponse({"solved": False, "placed": 0, "code": "puzzle-no-play", "params": {}})
    if not tiles:  # the engine would only say that no rack tile was placed
        shown = format_tiles(sorted(lost.elements(), key=sort_key))
        verdict = Verdict(False, Code.TABLE_TILE_MISSING.value, {"tiles": shown})
    else:
        verdict = check_answer(p, Play(tiles, table))
    return await _attempt(m, player, p, "answer", verdict.solved, verdict.to_json())


def _hint(p: Puzzle, level: int) -> dict[str, Any]:
    h = hint(p, level)
    return {"key": h.key, "params": h.params, "meld": h.old}


@router.get("/api/puzzles/{ident}/hint")
async def hint_route(
    ident: str, request: Request, m: Manager, level: Annotated[int, Query(ge=1, le=2)] = 1
) -> JSONResponse:
    """One step: the set of the table to break up (level 1) or a set to build (level 2):
    ``key`` (a catalogue key), ``params``, ``meld`` (the index of the table set named)."""
    p = await _puzzle(ident, request, m)
    return p if isinstance(p, JSONResponse) else JSONResponse(_hint(p, level))


class HintBody(BaseModel):
    level: int = Field(1, ge=1, le=2)


@router.post("/api/puzzles/{ident}/hint")
async def hint_attempt_route(
    ident: str, body: HintBody, request: Request, m: Manager, edge: EdgeDep
) -> JSONResponse:
    """The hint, as ``GET``; an account's first attempt at the puzzle ends there, not rated."""
    target = await _target(ident, request, m, edge)
    if isinstance(target, JSONResponse):
        return target
    p, player = target
    return await _attempt(m, player, p, "hint", False, _hint(p, body.level))


def _solution(p: Puzzle) -> dict[str, Any]:
    layout = solution_layout(p)
    return {
        "play": [str(t) for t in p.solutions[0].tiles],
        "table": [[m.to_json() for m in meld] for meld in layout],
    }


@router.get("/api/puzzles/{ident}/solution")
async def solution_route(ident: str, request: Request, m: Manager) -> JSONResponse:
    """The first stored solution as the new table, changed sets first, each tile marked
    ``rack`` (placed), ``moved`` (from another table set) or ``kept``."""
    p = await _puzzle(ident, request, m)
    return p if isinstance(p, JSONResponse) else JSONResponse(_solution(p))


@router.post("/api/puzzles/{ident}/solution")
async def solution_attempt_route(
    ident: str, request: Request, m: Manager, edge: EdgeDep
) -> JSONResponse:
    """The solution, as ``GET``; an account's first attempt at the puzzle ends there, failed."""
    target = await _target(ident, request, m, edge)
    if isinstance(target, JSONResponse):
        return target
    p, player = target
    return await _attempt(m, player, p, "solution", False, _solution(p))


class RatingIn(BaseModel):
    rating: float = Field(1500.0, ge=0, le=4000)
    rd: float = Field(350.0, ge=0, le=350)
    volatility: float = Field(0.06, gt=0, le=1)


class AttemptBody(BaseModel):
    player: RatingIn
    solved: bool


@router.post("/api/puzzles/{ident}/rating")
async def rating_route(
    ident: str, body: Annotated[AttemptBody, Body()], request: Request, m: Manager
) -> JSONResponse:
    """The player's Glicko-2 rating after one attempt at the puzzle (``solved`` or not), and
    how much it moved; the puzzle's shipped rating does not move. A game's own puzzle is not
    rated: the rating comes back as it was (``rated``: false)."""
    p = await _puzzle(ident, request, m)
    if isinstance(p, JSONResponse):
        return p
    before = Rating(body.player.rating, body.player.rd, body.player.volatility)
    after = attempt(before, Rating(p.rating, p.rd), body.solved)[0] if _rated(p) else before
    return JSONResponse(
        {
            "player": after.to_json(),
            "delta": round(after.rating - before.rating, 1),
            "rated": _rated(p),
        }
    )
