"""The puzzle endpoints (``/api/puzzles/...``) in process, on the fake clock: a position never
shows a solution, answers are judged by the engine on the server, bad answers are refused with
codes, and a guest's rating moves as Glicko-2 says."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from rummikub.puzzles.model import GOALS
from rummikub.puzzles.rating import Rating, attempt, daily
from rummikub.puzzles.themes import THEMES
from rummikub.puzzles.verify import shipped

from .inproc import Server

pytestmark = pytest.mark.asyncio

#: a shipped go-out puzzle: rack R3 R4 R6; the answer takes K5, R5, B5 out of their group
PID = "80c1efe6"


def _puzzle() -> Any:
    return next(p for p in shipped() if p.id == PID)


async def _post(server: Server, path: str, body: object) -> tuple[int, Any]:
    r = await server.request("POST", path, json=body)
    return r.status_code, r.json()


async def test_a_position_shows_the_puzzle_but_never_its_solutions(sqlite_app: Server) -> None:
    p = _puzzle()
    status, body = await sqlite_app.get(f"/api/puzzles/{PID}")
    assert status == 200
    assert body["table"] == p.table.to_json() and body["rack"] == p.rack.to_json()
    assert body["goal"] == "go-out" and body["target"] == 3 and body["opened"] is True
    assert body["rating"] == round(p.rating) and body["themes"] == list(p.themes)
    assert "solutions" not in body and "R5" not in str(body["rack"])
    # the daily puzzle is the one rating.daily picks for the application clock's date
    status, body = await sqlite_app.get("/api/puzzles/daily")
    day = dt.datetime.fromtimestamp(sqlite_app.manager.clock.time(), dt.UTC).date()
    assert status == 200 and body["id"] == daily(shipped(), day).id
    assert body["date"] == day.isoformat() and "solutions" not in body
    # the next puzzle: near the rating, of the theme, not one done
    status, body = await sqlite_app.get("/api/puzzles/next?rating=2100&theme=free-joker")
    assert status == 200 and body["goal"] == "free-joker" and "solutions" not in body
    again = await sqlite_app.get(
        f"/api/puzzles/next?rating=2100&theme=free-joker&done={body['id']}"
    )
    assert again[1]["id"] != body["id"]
    status, streak = await sqlite_app.get("/api/puzzles/next?streak=0")
    assert status == 200 and streak["rating"] < 1300
    # the menu's choices: every goal and theme, each of which `next` takes
    status, menu = await sqlite_app.get("/api/puzzles/themes")
    assert status == 200 and menu == {"goals": [g.value for g in GOALS], "themes": list(THEMES)}
    for choice in menu["goals"] + menu["themes"]:
        status, body = await sqlite_app.get(f"/api/puzzles/next?theme={choice}")
        assert status == 200 and choice in (body["goal"], *body["themes"]), (choice, body)
    status, err = await sqlite_app.get("/api/puzzles/next?theme=no-such-theme")
    assert (status, err["code"], err["params"]) == (
        404,
        "puzzle-unknown-theme",
        {"theme": "no-such-theme"},
    )


async def test_the_known_solution_and_any_other_right_answer_are_accepted(
    sqlite_app: Server,
) -> None:
    p = _puzzle()
    status, v = await _post(
        sqlite_app, f"/api/puzzles/{PID}/answer", {"table": p.solutions[0].table.to_json()}
    )
    assert status == 200 and v == {"solved": True, "placed": 3}
    # the same sets in another order, tiles in another order within a set: still right
    other = [list(reversed(m)) for m in reversed(p.solutions[0].table.to_json())]
    status, v = await _post(sqlite_app, f"/api/puzzles/{PID}/answer", {"table": other})
    assert status == 200 and v["solved"] is True


async def test_a_wrong_answer_says_what_is_wrong(sqlite_app: Server) -> None:
    p = _puzzle()
    table = p.table.to_json()
    # R3 R4 alone beside the table: an invalid set, named by its index
    status, v = await _post(
        sqlite_app, f"/api/puzzles/{PID}/answer", {"table": [*table, ["R3", "R4"]]}
    )
    assert status == 200 and v["solved"] is False
    assert v["code"] == "invalid-meld" and v["meld"] == len(table)
    # the table as it was: no rack tile placed
    status, v = await _post(sqlite_app, f"/api/puzzles/{PID}/answer", {"table": table})
    assert status == 200 and v["code"] == "puzzle-no-play"
    # a table tile gone
    status, v = await _post(sqlite_app, f"/api/puzzles/{PID}/answer", {"table": table[1:]})
    assert status == 200 and v["solved"] is False and v["code"] == "table-tile-missing"


async def test_too_few_tiles_is_counted(sqlite_app: Server) -> None:
    # go-out puzzle 902f8f6b's stored answer without K3 at the end of its set: valid, and
    # one tile short of the whole rack
    p = next(q for q in shipped() if q.id == "902f8f6b")
    table = p.solutions[0].table.to_json()
    i = next(i for i, m in enumerate(table) if len(m) >= 4 and "K3" in (m[0], m[-1]))
    m = table[i]
    cut = [*table[:i], m[1:] if m[0] == "K3" else m[:-1], *table[i + 1 :]]
    assert cut != table
    status, v = await _post(sqlite_app, f"/api/puzzles/{p.id}/answer", {"table": cut})
    assert status == 200 and v["solved"] is False and v["code"] == "puzzle-short"
    assert v["params"] == {"needed": 5, "placed": 4, "count": 1}


async def test_bad_answers_are_refused_with_codes(sqlite_app: Server) -> None:
    p = _puzzle()
    table = p.table.to_json()
    # no such puzzle
    status, err = await _post(sqlite_app, "/api/puzzles/nope1234/answer", {"table": table})
    assert (status, err["code"], err["params"]) == (404, "puzzle-unknown", {"id": "nope1234"})
    status, err = await sqlite_app.get("/api/puzzles/nope1234")
    assert (status, err["code"]) == (404, "puzzle-unknown")
    for path in ("hint", "solution"):
        status, err = await sqlite_app.get(f"/api/puzzles/nope1234/{path}")
        assert (status, err["code"]) == (404, "puzzle-unknown")
    # tiles the player does not hold (R5 is not on the rack R3 R4 R6)
    status, err = await _post(
        sqlite_app, f"/api/puzzles/{PID}/answer", {"table": [*table, ["R3", "R4", "R5"]]}
    )
    assert (status, err["code"], err["params"]) == (400, "not-on-rack", {"tiles": "R5"})
    # not tiles at all
    status, err = await _post(
        sqlite_app, f"/api/puzzles/{PID}/answer", {"table": [*table, ["R3", "X9"]]}
    )
    assert status == 400 and err["code"] == "bad-notation"
    status, err = await _post(sqlite_app, f"/api/puzzles/{PID}/answer", {"sets": []})
    assert status == 422 and err["code"] == "bad-message"
    # nothing of this changes a rating: the rating endpoint is separate and refuses it too
    status, err = await _post(
        sqlite_app, "/api/puzzles/nope1234/rating", {"player": {}, "solved": True}
    )
    assert (status, err["code"]) == (404, "puzzle-unknown")


async def test_hint_and_solution(sqlite_app: Server) -> None:
    p = _puzzle()
    status, hint = await sqlite_app.get(f"/api/puzzles/{PID}/hint")
    assert status == 200 and hint["key"] == "puzzle.hint.break"
    assert hint["params"]["meld"] == str(p.table.melds[hint["meld"]])
    status, hint2 = await sqlite_app.get(f"/api/puzzles/{PID}/hint?level=2")
    assert status == 200 and hint2["key"] == "puzzle.hint.build" and hint2["meld"] is None
    status, sol = await sqlite_app.get(f"/api/puzzles/{PID}/solution")
    assert status == 200 and sorted(sol["play"]) == ["R3", "R4", "R6"]
    marks = {x["tile"]: x["mark"] for m in sol["table"] for x in m}
    assert [marks[t] for t in ("R3", "R4", "R6", "O12")] == ["rack", "rack", "rack", "kept"]
    assert "moved" in marks.values()
    # changed sets first: the first set of the layout holds a tile not kept
    assert any(x["mark"] != "kept" for x in sol["table"][0])


async def test_the_rating_moves_as_glicko2_says(sqlite_app: Server) -> None:
    p = _puzzle()
    me = {"rating": 1500.0, "rd": 200.0, "volatility": 0.06}
    for solved in (True, False):
        status, body = await _post(
            sqlite_app, f"/api/puzzles/{PID}/rating", {"player": me, "solved": solved}
        )
        want, _ = attempt(Rating(1500.0, 200.0, 0.06), Rating(p.rating, p.rd), solved)
        assert status == 200 and body["player"] == want.to_json()
        assert (body["delta"] > 0) is solved
    status, err = await _post(
        sqlite_app, f"/api/puzzles/{PID}/rating", {"player": {"rating": -5}, "solved": True}
    )
    assert status == 422 and err["code"] == "bad-message"
