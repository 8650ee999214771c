"""The replay viewer's analysis: A shows each turn's verdict, B lays out the better play."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from rummikub.analysis import analyse
from rummikub.bots import get_bot, play_match
from rummikub.core import Table, load_record, match_record, preset
from rummikub.games import load_any
from rummikub.tui import RummikubApp
from rummikub.tui.screens.replay import ReplayScreen
from rummikub.tui.widgets import TableView

from .conftest import FakeClock
from .test_finish import plain


def test_the_replay_shows_verdicts_and_the_better_play() -> None:
    match = play_match(preset("standard"), [get_bot("beginner", 1), get_bot("greedy", 2)], 3)
    data = match_record(match)
    judged = analyse(load_any(data))
    # the first turn the beginner could have done better (seeded: there is one)
    miss = next(t for t in judged.turns if t.verdict not in ("best", "forced"))
    app = RummikubApp(record=load_record(data), lang="en", clock=FakeClock(), tick=3600.0)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            index = next(
                i for i, f in enumerate(screen.frames)
                if (f.round, f.turn) == (miss.round, miss.turn)
            )  # fmt: skip
            status = screen.query_one("#replay-status", Static)
            for _ in range(index):
                await pilot.press("right")
            assert "Analysis:" not in plain(status.content)  # off until asked for
            await pilot.press("a")
            text = plain(status.content)
            assert f"Analysis: {miss.verdict} (points lost: {miss.lost})" in text
            assert "Better: place " + " ".join(miss.best_pieces) in text
            played = screen.frames[index].state.table
            await pilot.press("b")
            assert miss.best is not None
            shown = screen.query_one("#table", TableView)
            better = Table.from_json(miss.best)
            assert sorted(map(str, shown_tiles(shown))) == sorted(map(str, better.tiles()))
            assert sorted(map(str, better.tiles())) != sorted(map(str, played.tiles()))
            await pilot.press("b")  # back to the play that was made
            assert sorted(map(str, shown_tiles(shown))) == sorted(map(str, played.tiles()))

    asyncio.run(run())


def shown_tiles(view: TableView) -> list[object]:
    return [tile for row in view.rows for _, tile in row.pieces]
