"""An account's puzzles in process (SQLite and PostgreSQL, on the fake clock): its first attempt
at a puzzle is stored and rated on the server as lichess rates (the verdict of its answer, the
solution shown before solving as a failure, a hint leaves the attempt unrated), later attempts
are practice, a guest's requests store nothing, an account's requests need the session's CSRF
token, and the profile shows the puzzle rating, the counts and the attempts."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from rummikub.puzzles.rating import Rating, attempt
from rummikub.puzzles.verify import shipped
from rummikub.server.accounts.store import AccountStore

from .inproc import Server

PASSWORD = "correct horse battery"
#: a shipped go-out puzzle: rack R3 R4 R6 (as in test_puzzle_api)
PID = "80c1efe6"
#: another shipped puzzle
OTHER = "902f8f6b"


def _puzzle(ident: str = PID) -> Any:
    return next(p for p in shipped() if p.id == ident)


class Player:
    """A signed-up account's browser: its session cookie and CSRF token."""

    def __init__(self, server: Server, session: str, csrf: str) -> None:
        self.server, self.session, self.csrf = server, session, csrf

    async def post(
        self, path: str, body: object, *, csrf: bool = True, cookie: bool = True
    ) -> tuple[int, Any]:
        headers = {"Cookie": f"rummikub_session={self.session}"} if cookie else {}
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        r = await self.server.request("POST", path, json=body, headers=headers)
        return r.status_code, r.json()

    async def get(self, path: str) -> tuple[int, Any]:
        headers = {"Cookie": f"rummikub_session={self.session}"}
        r = await self.server.request("GET", path, headers=headers)
        return r.status_code, r.json()


async def sign_up(server: Server, name: str) -> Player:
    r = await server.request(
        "POST", "/api/account/signup", json={"name": name, "password": PASSWORD}
    )
    assert r.status_code == 200, r.text
    return Player(server, str(r.cookies.get("rummikub_session")), r.json()["csrf"])


def _right() -> dict[str, Any]:
    return {"table": _puzzle().solutions[0].table.to_json()}


def _wrong() -> dict[str, Any]:
    return {"table": [*_puzzle().table.to_json(), ["R3", "R4"]]}


def _stored(server: Server) -> int:
    """How many attempts the database holds."""
    from sqlalchemy import func, select

    from rummikub.server.storage.account_tables import PuzzleAttemptRow

    with server.manager.accounts._session() as s:
        return int(s.scalar(select(func.count()).select_from(PuzzleAttemptRow)) or 0)


@pytest.mark.asyncio
async def test_a_solved_first_attempt_is_rated_and_stored_a_second_is_not(
    app_server: Server,
) -> None:
    ann = await sign_up(app_server, "Ann")
    status, me = await ann.get("/api/account")
    assert status == 200 and me["puzzles"] == {
        "rating": 1500.0, "rd": 350.0, "volatility": 0.06, "solved": 0, "attempted": 0,
    }  # fmt: skip
    p = _puzzle()
    status, v = await ann.post(f"/api/puzzles/{PID}/answer", _right())
    want, _ = attempt(Rating(), Rating(p.rating, p.rd), True)
    assert status == 200 and v["solved"] is True
    assert v["attempt"]["counted"] is True and v["attempt"]["rated"] is True
    assert v["attempt"]["player"] == want.to_json() and v["attempt"]["delta"] > 0
    status, me = await ann.get("/api/account")
    assert me["puzzles"]["rating"] == want.rating and me["puzzles"]["solved"] == 1
    # a second attempt, wrong this time: practice, nothing moves
    status, v = await ann.post(f"/api/puzzles/{PID}/answer", _wrong())
    assert status == 200 and v["solved"] is False
    assert v["attempt"] == {
        "counted": False, "rated": False, "player": want.to_json(), "delta": 0.0,
    }  # fmt: skip
    status, v = await ann.post(f"/api/puzzles/{PID}/solution", {})
    assert status == 200 and v["attempt"]["counted"] is False and "table" in v
    assert _stored(app_server) == 1
    status, me = await ann.get("/api/account")
    assert me["puzzles"]["rating"] == want.rating
    assert (me["puzzles"]["solved"], me["puzzles"]["attempted"]) == (1, 1)
    # the next puzzle for him is near his rating and never one he attempted
    for salt in range(5):
        status, nxt = await ann.get(f"/api/puzzles/next?salt={salt}")
        assert status == 200 and nxt["id"] != PID


@pytest.mark.asyncio
async def test_a_wrong_first_answer_lowers_the_rating(app_server: Server) -> None:
    ann = await sign_up(app_server, "Ann")
    p = _puzzle()
    status, v = await ann.post(f"/api/puzzles/{PID}/answer", _wrong())
    want, _ = attempt(Rating(), Rating(p.rating, p.rd), False)
    assert status == 200 and v["solved"] is False and v["code"] == "invalid-meld"
    assert v["attempt"]["counted"] is True and v["attempt"]["player"] == want.to_json()
    assert v["attempt"]["delta"] < 0
    # solving it afterwards does not count
    status, v = await ann.post(f"/api/puzzles/{PID}/answer", _right())
    assert v["solved"] is True and v["attempt"]["counted"] is False
    status, me = await ann.get("/api/account")
    assert me["puzzles"]["rating"] == want.rating
    assert (me["puzzles"]["solved"], me["puzzles"]["attempted"]) == (0, 1)


@pytest.mark.asyncio
async def test_the_solution_before_solving_is_a_failure_a_hint_leaves_it_unrated(
    app_server: Server,
) -> None:
    ann = await sign_up(app_server, "Ann")
    p = _puzzle()
    status, v = await ann.post(f"/api/puzzles/{PID}/solution", {})
    want, _ = attempt(Rating(), Rating(p.rating, p.rd), False)
    assert status == 200 and sorted(v["play"]) == ["R3", "R4", "R6"]
    assert v["attempt"]["counted"] is True and v["attempt"]["player"] == want.to_json()
    status, v = await ann.post(f"/api/puzzles/{PID}/answer", _right())
    assert v["solved"] is True and v["attempt"]["counted"] is False
    # a hint first (as on lichess): the attempt is stored, the rating does not move, and the
    # answer after it is not rated
    q = _puzzle(OTHER)
    status, v = await ann.post(f"/api/puzzles/{OTHER}/hint", {"level": 2})
    assert status == 200 and v["key"] == "puzzle.hint.build"
    assert v["attempt"] == {
        "counted": True, "rated": False, "player": want.to_json(), "delta": 0.0,
    }  # fmt: skip
    status, v = await ann.post(
        f"/api/puzzles/{OTHER}/answer", {"table": q.solutions[0].table.to_json()}
    )
    assert v["solved"] is True and v["attempt"]["counted"] is False
    status, me = await ann.get("/api/account")
    assert me["puzzles"]["rating"] == want.rating
    assert (me["puzzles"]["solved"], me["puzzles"]["attempted"]) == (0, 2)


@pytest.mark.asyncio
async def test_a_guest_stores_nothing_and_an_account_needs_its_csrf_token(
    app_server: Server,
) -> None:
    ann = await sign_up(app_server, "Ann")
    # a guest: the same answers, no attempt, nothing stored
    for path, body in (("answer", _right()), ("hint", {}), ("solution", {})):
        status, v = await ann.post(f"/api/puzzles/{PID}/{path}", body, cookie=False, csrf=False)
        assert status == 200 and "attempt" not in v, (path, v)
    assert _stored(app_server) == 0
    # the account without its token, or with another: refused, nothing stored
    for path, body in (("answer", _right()), ("hint", {}), ("solution", {})):
        status, err = await ann.post(f"/api/puzzles/{PID}/{path}", body, csrf=False)
        assert (status, err["code"]) == (403, "csrf"), (path, err)
    ann.csrf = "0" * 64
    status, err = await ann.post(f"/api/puzzles/{PID}/answer", _right())
    assert (status, err["code"]) == (403, "csrf")
    assert _stored(app_server) == 0
    status, me = await ann.get("/api/account")
    assert me["puzzles"]["attempted"] == 0 and me["puzzles"]["rating"] == 1500.0


@pytest.mark.asyncio
async def test_bad_requests_change_no_rating(app_server: Server) -> None:
    ann = await sign_up(app_server, "Ann")
    table = _puzzle().table.to_json()
    refused = [
        ("/api/puzzles/nope1234/answer", {"table": table}, 404, "puzzle-unknown"),
        ("/api/puzzles/nope1234/solution", {}, 404, "puzzle-unknown"),
        ("/api/puzzles/nope1234/hint", {}, 404, "puzzle-unknown"),
        (f"/api/puzzles/{PID}/answer", {"table": [*table, ["R3", "X9"]]}, 400, "bad-notation"),
        (f"/api/puzzles/{PID}/answer", {"table": [*table, ["R5"]]}, 400, "not-on-rack"),
        (f"/api/puzzles/{PID}/hint", {"level": 3}, 422, "bad-message"),
    ]
    for path, body, code, name in refused:
        status, err = await ann.post(path, body)
        assert (status, err["code"]) == (code, name), (path, err)
    # the table as it was is no attempt
    status, v = await ann.post(f"/api/puzzles/{PID}/answer", {"table": table})
    assert v["code"] == "puzzle-no-play" and "attempt" not in v
    assert _stored(app_server) == 0
    status, me = await ann.get("/api/account")
    assert me["puzzles"]["attempted"] == 0 and me["puzzles"]["rating"] == 1500.0


@pytest.mark.asyncio
async def test_the_profile_shows_the_puzzle_rating_counts_and_attempts(
    app_server: Server,
) -> None:
    ann = await sign_up(app_server, "Ann")
    await ann.post(f"/api/puzzles/{PID}/answer", _right())
    await app_server.advance(60)
    _, v = await ann.post(f"/api/puzzles/{OTHER}/solution", {})
    after = v["attempt"]["player"]["rating"]
    status, prof = await app_server.get("/api/players/ann")
    assert status == 200
    puzzles = prof["puzzles"]
    assert puzzles["rating"] == round(after) and puzzles["rd"] < 350
    assert (puzzles["solved"], puzzles["attempted"]) == (1, 2)
    assert [h["rating"] for h in puzzles["history"]][-1] == round(after)
    assert len(puzzles["history"]) == 2
    assert [(a["id"], a["solved"], a["how"]) for a in puzzles["recent"]] == [
        (OTHER, False, "solution"),
        (PID, True, "answer"),
    ]
    assert puzzles["recent"][0]["at"] - puzzles["recent"][1]["at"] == 60
    # paged like the recent games
    status, prof = await app_server.get("/api/players/ann?puzzle_offset=1&puzzle_limit=1")
    assert [a["id"] for a in prof["puzzles"]["recent"]] == [PID]
    assert prof["puzzles"]["offset"] == 1
    status, err = await app_server.get("/api/players/ann?puzzle_limit=0")
    assert (status, err["code"]) == (422, "bad-message")


def test_deleting_an_account_deletes_its_attempts(accounts: AccountStore) -> None:
    ann, _ = accounts.sign_up("Ann", PASSWORD, 1.0)
    bob, _ = accounts.sign_up("Bob", PASSWORD, 1.0)
    p = _puzzle()
    for who in (ann, bob):
        out = accounts.attempt_puzzle(who, PID, Rating(p.rating, p.rd), "answer", True, 2.0)
        assert out.counted and out.rated
    accounts.delete(ann, PASSWORD, 3.0)
    assert accounts.puzzle_standing(bob).attempted == 1
    assert accounts.puzzle_attempts(ann) == [] and accounts.puzzles_done(bob) == [PID]
    with pytest.raises(ValueError, match="how"):
        accounts.attempt_puzzle(bob, OTHER, Rating(), "peek", True, 4.0)


def test_attempts_at_once_are_rated_one_after_another(accounts: AccountStore) -> None:
    """Eight attempts of one account at eight puzzles on eight threads let go together: each
    is rated from the rating the one before left (none is lost), as on several nodes."""
    ann, _ = accounts.sign_up("Ann", PASSWORD, 1.0)
    puzzles = sorted(shipped(), key=lambda p: p.id)[:8]
    start = threading.Barrier(len(puzzles))

    def solve(i: int) -> None:
        p = puzzles[i]
        start.wait()
        accounts.attempt_puzzle(ann, p.id, Rating(p.rating, p.rd), "answer", i % 2 == 0, 2.0)

    threads = [threading.Thread(target=solve, args=(i,)) for i in range(len(puzzles))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = list(reversed(accounts.puzzle_attempts(ann)))  # in the order they were rated
    assert len(lines) == len(puzzles)
    rating = Rating()
    by_id = {p.id: p for p in puzzles}
    for line in lines:
        p = by_id[line.puzzle]
        rating, _ = attempt(rating, Rating(p.rating, p.rd), line.solved)
        assert line.rating == round(rating.rating)
    assert accounts.puzzle_standing(ann).rating == rating
