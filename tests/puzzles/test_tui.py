"""``rummikub puzzle`` on a terminal of 80x24: the puzzle, its goal and the keys on screen;
solving it with the mouse and the keys updates the player's puzzle rating."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from rummikub.core import parse_tiles
from rummikub.puzzles import Goal
from rummikub.puzzles.store import PlayerStore
from rummikub.tui.puzzle_app import PuzzleApp
from rummikub.tui.widgets import RackView, TableView

from .helpers import make_one

pytestmark = pytest.mark.asyncio

DAY = dt.date(2026, 12, 3)


def screen_lines(app: App[Any]) -> list[str]:
    """The text the terminal shows, one string per row (what a user sees)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def _app(tmp_path: Path, **kwargs: Any) -> PuzzleApp:
    p = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT).with_rating(1500, 80)
    q = make_one("R5 R6 J", "R7 K9 B9 O2", Goal.FREE_JOKER).with_rating(1600, 80)
    return PuzzleApp(
        [p, q], first=p, store_path=tmp_path / "puzzles.json", lang="en", today=DAY, **kwargs
    )


async def _click(pilot: Pilot[None], app: PuzzleApp, tile: str, origin: str) -> None:
    want = parse_tiles(tile)[0]
    ed = app.editor
    pool = ed.rack if origin == "rack" else [pc for m in ed.melds for pc in m]
    pid = next(pc.id for pc in pool if pc.tile == want)
    view = app.query_one(
        "#rack" if origin == "rack" else "#table", RackView if origin == "rack" else TableView
    )
    offset = view.offset_of(lambda h: h.kind == "tile" and h.piece == pid)
    assert await pilot.click(view, offset=(offset.x, offset.y))
    await pilot.pause()


async def test_the_puzzle_goal_and_keys_fit_80x24(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert f"Puzzle {app.puzzle.id}" in text
        assert "Goal: place your whole rack (3 tiles)." in text
        for tile in ("K5", "K8", "R1", "R3"):
            assert tile in text
        assert "c check" in text and "h hint" in text and "v solution" in text
        # the rack, above the keys
        assert any("R8" in line and "B8" in line for line in screen_lines(app)[18:22])


async def test_solving_updates_the_rating_and_the_history(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # K8 out of the run with R8 B8: a new group; R4 onto R1 R2 R3
        await _click(pilot, app, "K8", "table")
        await _click(pilot, app, "R8", "rack")
        await _click(pilot, app, "B8", "rack")
        await pilot.press("n")
        await _click(pilot, app, "R4", "rack")
        await pilot.pause()
        table = app.query_one("#table", TableView)
        offset = table.offset_of(lambda h: h.kind == "drop" and h.meld == 1)
        assert await pilot.click(table, offset=(offset.x, offset.y))
        await pilot.press("c")
        await pilot.pause()
        assert app.result is True
        assert "Solved! 3 tiles placed." in "\n".join(screen_lines(app))
    saved = json.loads((tmp_path / "puzzles.json").read_text())
    assert saved["rating"]["rating"] > 1500
    assert saved["history"][0]["solved"] is True
    assert PlayerStore.open(tmp_path / "puzzles.json").rating.rating > 1500


async def test_a_wrong_answer_says_why_and_the_solution_counts_as_a_miss(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _click(pilot, app, "R8", "rack")
        await _click(pilot, app, "B8", "rack")
        await pilot.press("n")
        await pilot.press("c")
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "Not yet: R8 B8 is not a valid set" in text
        assert app.result is False
        await pilot.press("h")
        await pilot.pause()
        assert "Hint: break up the set K5 K6 K7 K8." in "\n".join(screen_lines(app))
        await pilot.press("x")
        await pilot.pause()
        assert app.puzzle.goal is Goal.FREE_JOKER
    assert PlayerStore.open(tmp_path / "puzzles.json").rating.rating < 1500


async def test_streak_mode_ends_at_the_first_miss(tmp_path: Path) -> None:
    app = _app(tmp_path, streak=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "streak 0" in screen_lines(app)[0]
        await pilot.press("v")
        await pilot.pause()
        assert "Streak over: 0 solved" in "\n".join(screen_lines(app))
        assert "+R8" in "\n".join(screen_lines(app))
