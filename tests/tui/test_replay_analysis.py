"""The replay viewer's analysis: A shows each turn's verdict, B lays out the better play."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from rummikub.analysis import analyse
from rummikub.bots import get_bot, play_match
from rummikub.core import Table, load_record, match_record, preset, rack_value
from rummikub.games import load_any
from rummikub.i18n import translator
from rummikub.tui import RummikubApp
from rummikub.tui.screens.replay import BARS, ReplayScreen
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
            t = translator("en")
            for found in miss.findings:
                assert t(f"finding.{found}") in text
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


def test_the_replay_graphs_each_players_standing() -> None:
    match = play_match(preset("standard"), [get_bot("beginner", 1), get_bot("greedy", 2)], 3)
    data = match_record(match)
    app = RummikubApp(record=load_record(data), lang="en", clock=FakeClock(), tick=3600.0)

    async def run() -> None:
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            racks = screen.query_one("#replay-racks", Static)
            assert "Points left in each rack" not in plain(racks.content)  # off until asked for
            await pilot.press("g")
            text = plain(racks.content)
            assert "Points left in each rack over the game" in text
            names = [p.name for p in load_record(data).players]
            graphs = graph_lines(text, names)
            assert [g[0] for g in graphs] == names, text
            # one column per position (up to 60), and each player's points at the position shown
            first = screen.frames[0].state.racks
            for (_, bars, points), rack in zip(graphs, first, strict=True):
                assert len(bars) == min(60, len(screen.frames))
                assert points == rack_value(rack, preset("standard"))
            await pilot.press("end")
            last = screen.frames[-1].state.racks
            assert [g[2] for g in graph_lines(plain(racks.content), names)] == [
                rack_value(r, preset("standard")) for r in last
            ]
            await pilot.press("g")
            assert "Points left in each rack" not in plain(racks.content)

    asyncio.run(run())


def graph_lines(text: str, names: list[str]) -> list[tuple[str, str, int]]:
    """The standings lines of the viewer: (name, sparkline, points) per player."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in names and set(parts[1]) <= set(BARS):
            out.append((parts[0], parts[1], int(parts[2])))
    return out
