"""Puzzles from a player's own games: the review of a finished game lists the positions where a
player could have placed his whole rack and did not, and each is a puzzle of the puzzle API
(``/api/puzzles/CODE-ROUND-TURN``): shown, answered, hinted and solved as a shipped puzzle is,
never rated. In process (:mod:`.inproc`), on a seeded deal where Ann misses going out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummikub.core import Rules
from rummikub.server import ServerConfig

from .helpers import SMALL, missing_go_outs, to_move_or_over
from .inproc import Client, Server, create_vs_bots, draw_and_wait, game, play_and_wait, running

pytestmark = pytest.mark.asyncio

#: 2 deals a position: the puzzles matter here, not how well the review judges
CONFIG = ServerConfig(analysis_samples=2)
#: the application's seed (as the browser test's server, ``seeded_server``): its first room's
#: deal lets Ann open, then go out, more than once
SEED = 7


async def _miss_go_outs(c: Client, rules: Rules) -> list[tuple[int, int, list[str]]]:
    """Play Ann (seat 0) to the end of the round, missing every go-out
    (:func:`.helpers.missing_go_outs`). The (round, turn, rack) of each go-out she missed."""
    missed: list[tuple[int, int, list[str]]] = []
    for _ in range(200):
        state = await c.wait_state(to_move_or_over)
        g = game(state)
        if g["round_over"]:
            return missed
        table, could = missing_go_outs(g, state["you"], rules)
        if could:
            missed.append((g["round"], g["turn"], list(g["rack"])))
        if table is None:
            await draw_and_wait(c, g)
            continue
        await play_and_wait(c, g, table)
    raise AssertionError("the round did not end in 200 of Ann's turns")


async def _post(server: Server, path: str, body: object) -> tuple[int, Any]:
    r = await server.request("POST", path, json=body)
    return r.status_code, r.json()


async def test_the_review_offers_each_missed_go_out_as_an_unrated_puzzle(tmp_path: Path) -> None:
    rules = Rules.from_dict(SMALL)
    async with running(tmp_path, seed=SEED, config=CONFIG) as srv:
        c = await srv.connect()
        code = (await create_vs_bots(c, bots=1, rules=SMALL))["room"]
        missed = await _miss_go_outs(c, rules)
        assert len(missed) >= 2, missed  # the seeded deal: Ann misses more than one

        # the review lists exactly her missed go-outs (and the bot's, if it missed any)
        status, review = await srv.get(f"/api/rooms/{code}/analysis")
        assert status == 200, review
        mine = [p for p in review["puzzles"] if p["source"]["player"] == 0]
        assert [(p["source"]["round"], p["source"]["turn"]) for p in mine] == [
            (r, t) for r, t, _ in missed
        ]
        for p, (r, t, rack) in zip(mine, missed, strict=True):
            assert p["id"] == f"{code}-{r + 1}-{t + 1}"
            assert p["goal"] == "go-out" and sorted(p["rack"]) == sorted(rack)

        first = mine[0]
        status, shown = await srv.get(f"/api/puzzles/{first['id']}")
        assert status == 200, shown
        assert shown["rated"] is False and "solutions" not in shown
        assert shown["game"] == {
            "code": code,
            "round": first["source"]["round"] + 1,
            "turn": first["source"]["turn"] + 1,
            "seat": 0,
        }
        assert shown["table"] == first["table"] and shown["target"] == len(first["rack"])
        # the code may be written in small letters, as a player types it
        status, same = await srv.get(
            f"/api/puzzles/{code.lower()}-{shown['game']['round']}-{shown['game']['turn']}"
        )
        assert status == 200 and same["id"] == first["id"]

        # answered as any puzzle: a right answer is solved, the table as it was is not
        ok, verdict = await _post(
            srv, f"/api/puzzles/{first['id']}/answer", {"table": first["solutions"][0]["table"]}
        )
        assert ok == 200 and verdict["solved"] is True and "attempt" not in verdict
        ok, verdict = await _post(
            srv, f"/api/puzzles/{first['id']}/answer", {"table": first["table"]}
        )
        assert ok == 200 and verdict["solved"] is False
        # the hint and the solution, as for a shipped puzzle
        status, step = await srv.get(f"/api/puzzles/{first['id']}/hint")
        assert status == 200 and step["key"]
        ok, laid = await _post(srv, f"/api/puzzles/{first['id']}/solution", {})
        assert ok == 200 and laid["play"] == first["solutions"][0]["play"]
        # never rated: the rating comes back as it was
        before = {"rating": 1500.0, "rd": 200.0, "volatility": 0.06}
        ok, rated = await _post(
            srv, f"/api/puzzles/{first['id']}/rating", {"player": before, "solved": True}
        )
        assert ok == 200 and rated["rated"] is False and rated["delta"] == 0
        assert rated["player"]["rating"] == 1500.0

        # a turn without a missed go-out, and a game that does not exist: no such puzzle
        status, none = await srv.get(f"/api/puzzles/{code}-1-999")
        assert status == 404 and none["code"] == "puzzle-unknown"
        status, none = await srv.get("/api/puzzles/ZZZZZZ-1-1")
        assert status == 404 and none["code"] == "puzzle-unknown"
