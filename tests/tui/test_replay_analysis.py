"""The replay viewer's game review: A analyses the game in the background (its progress shown)
and shows each player's summary, the win-chance graph with the mistakes marked and each turn's
judgement; ] and [ jump between the mistakes; B lays out the better move's whole table (issue
28). And G, each player's standing over the game."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Static

from rummikub.analysis import GameAnalysis, TurnAnalysis, Verdict, analyse
from rummikub.bots import get_bot, play_match
from rummikub.core import Draw, Play, load_record, match_record, preset, rack_value
from rummikub.games import load_any
from rummikub.i18n import translator
from rummikub.tui import RummikubApp
from rummikub.tui.screens import replay as viewer
from rummikub.tui.screens.replay import BARS, ReplayScreen
from rummikub.tui.widgets import TableView
from rummikub.tui.widgets.review import ERRORS, HERE, MARKS, chance_graph

from .conftest import FakeClock, duel
from .test_finish import plain

t = translator("en")

#: deals a position in these reviews (the viewer's default is 32): a fourth of the time, and the
#: short game still has mistakes of both kinds at it
REVIEW = 8


def short_game() -> dict[str, Any]:
    """A seeded game (67 turns) with 19 inaccuracies or worse at :data:`REVIEW` deals, most
    better drawn (holding the tiles), some better played."""
    match = play_match(preset("standard"), [get_bot("random", 1), get_bot("greedy", 2)], 32)
    return match_record(match)


@pytest.fixture(scope="module")
def short() -> tuple[dict[str, Any], GameAnalysis]:
    """The short game and its analysis (made once: the tests that do not test the analysing
    itself give the viewer this one)."""
    data = short_game()
    return data, analyse(load_any(data), samples=REVIEW)


def missed_out() -> dict[str, Any]:
    """Ann draws although K1 K2 K3 would have taken her out (a blunder, whatever the
    evaluation says), then goes out a turn later."""
    match = duel()
    match.act(Play.of("R10 R11 R12", "R10 R11 R12"))
    match.act(Draw())
    match.act(Play.of("R9 B12 O12", "R9 R10 R11 | R12 B12 O12"))
    match.act(Draw())
    match.act(Draw())  # Ann draws K3
    match.act(Draw())
    match.act(Draw())  # Ann draws K4: K1 K2 K3 would have gone out
    match.act(Draw())
    match.act(Play.of("K1 K2 K3 K4", "R9 R10 R11 | R12 B12 O12 | K1 K2 K3 K4"))
    assert match.round_over
    return match_record(match)


def viewer_of(data: dict[str, Any]) -> RummikubApp:
    return RummikubApp(
        record=load_record(data), lang="en", clock=FakeClock(), tick=3600.0, review_samples=REVIEW
    )


def replay_screen(app: RummikubApp) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def text_of(screen: ReplayScreen, widget: str) -> str:
    return plain(screen.query_one(widget, Static).content)


def frame_of(screen: ReplayScreen, turn: TurnAnalysis) -> int:
    return next(
        i for i, f in enumerate(screen.frames) if (f.round, f.turn) == (turn.round, turn.turn)
    )


def percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def judgement(turn: TurnAnalysis) -> str:
    """The status line of a judged turn (English)."""
    assert turn.win_chance is not None and turn.loss is not None
    before, after = map(percent, turn.win_chance)
    mark = MARKS[turn.verdict] + " " if turn.verdict in MARKS else ""
    chance = f"win chance {before} → {after}" + (
        f" ({turn.loss:.1f} points of win chance lost)" if turn.loss > 0 else ""
    )
    findings = "".join(" · " + t(f"finding.{f}") for f in turn.findings)
    return f"{mark}Analysis: {t(f'verdict.{turn.verdict}')} · {chance}{findings}"


def better(turn: TurnAnalysis) -> str:
    """The better move as the status line words it (English)."""
    if turn.best_action in ("draw", "pass"):
        return f"Better: {turn.best_action}"
    return f"Better: play {' '.join(turn.best_pieces)} (worth {turn.best_points}); B lays it out"


def summary_rows(text: str, names: list[str]) -> list[list[str]]:
    """The summary's rows: name, accuracy, mean loss, inaccuracies, mistakes, blunders."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if "Accuracy" in line)
    assert lines[head].split() == [
        "Player", "Accuracy", "Mean", "loss", MARKS["inaccuracy"], "Inaccuracies",
        MARKS["mistake"], "Mistakes", MARKS["blunder"], "Blunders",
    ]  # fmt: skip
    return [lines[head + 1 + seat].split() for seat in range(len(names))]


def expected_rows(analysis: GameAnalysis) -> list[list[str]]:
    return [
        [
            p.name,
            "–" if p.accuracy is None else f"{p.accuracy:.0f}%",
            "–" if p.loss is None else f"{p.loss:.1f}",
            *(str(p.verdicts[v]) for v in ERRORS),
        ]
        for p in analysis.summary()
    ]


def graph_of(text: str, names: list[str]) -> tuple[list[tuple[str, str]], str]:
    """The evaluation graph: per player his two rows of bars (top, bottom; the name and his
    chance cut off) and the row of marks, each one character per turn."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("Win chance over the game"))
    left = max(map(len, names)) + 1
    rows = [line[left:].ljust(200) for line in lines[top + 1 : top + 2 + 2 * len(names)]]
    for seat, name in enumerate(names):
        assert lines[top + 1 + 2 * seat].startswith(name + " ")
    bars = [(rows[2 * s], rows[2 * s + 1]) for s in range(len(names))]
    return bars, rows[-1]


def level(top: str, bottom: str) -> int:
    """The height of a column of two rows of bars, in eighths of a row."""
    low = BARS.index(bottom) + 1
    return low + (BARS.index(top) + 1 if top != " " else 0)


def test_the_review_analyses_in_the_background_then_summarises_and_graphs_the_game(
    short: tuple[dict[str, Any], GameAnalysis], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, expected = short
    turns = len(expected.turns)
    names = [p.name for p in load_record(data).players]
    gate = threading.Event()  # the analysis waits until the test has looked at its progress
    seen: list[tuple[int, int]] = []
    real = viewer.analyse_record

    def gated(record: Any, progress: Any, samples: int | None) -> GameAnalysis:
        assert gate.wait(60)
        assert samples == REVIEW  # the viewer's own setting

        def counted(done: int, total: int) -> None:
            seen.append((done, total))
            progress(done, total)

        return real(record, counted, samples)

    monkeypatch.setattr(viewer, "analyse_record", gated)
    app = viewer_of(data)

    async def run() -> None:
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.pause()
            screen = replay_screen(app)
            review = screen.query_one("#review", Static)
            assert not review.display  # off until asked for
            await pilot.press("a")
            assert review.display
            assert f"Analysing the game… 0/{turns} turns" in text_of(screen, "#review")
            await pilot.press("right")  # the viewer steps while the game is analysed
            assert screen.index == 1
            assert "Analysis:" not in text_of(screen, "#replay-status")
            gate.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert seen == [(k, turns) for k in range(1, turns + 1)]
            assert screen.analysis is not None
            assert screen.analysis.to_json() == expected.to_json()  # the same, seeded
            text = text_of(screen, "#review")
            assert summary_rows(text, names) == expected_rows(expected)
            # the graph: one column per turn, each player's win chance after it (two rows of
            # eighths), the position shown (the first turn) marked, every mistake marked
            bars, marks = graph_of(text, names)
            chances = [turn.chances for turn in expected.turns]
            assert all(c is not None and len(c) == len(names) for c in chances)
            for seat, (top, bottom) in enumerate(bars):
                heights = [level(top[k], bottom[k]) for k in range(turns)]
                assert heights == [max(1, round(16 * c[seat])) for c in chances if c is not None]
            first = expected.turns[0]
            assert marks[:turns] == "".join(
                MARKS[turn.verdict] if turn.verdict in ERRORS else (HERE if turn is first else " ")
                for turn in expected.turns
            )
            assert sum(marks.count(m) for m in MARKS.values()) >= 2  # seeded: there are some
            for seat, name in enumerate(names):  # each player's chance after the first turn
                row = next(line for line in text.splitlines() if line.startswith(name + " "))
                assert first.chances is not None
                assert row.split()[-1] == percent(first.chances[seat])
            assert judgement(first) in text_of(screen, "#replay-status")
            await pilot.press("a")  # and off again
            assert not review.display
            assert "Analysis:" not in text_of(screen, "#replay-status")

    asyncio.run(run())


def test_the_mistake_keys_go_from_mistake_to_mistake(
    short: tuple[dict[str, Any], GameAnalysis], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, expected = short

    def made(record: Any, progress: Any, samples: int | None) -> GameAnalysis:
        progress(len(expected.turns), len(expected.turns))
        return expected

    monkeypatch.setattr(viewer, "analyse_record", made)
    app = viewer_of(data)
    mistakes = [turn for turn in expected.turns if turn.verdict in ERRORS]
    assert len(mistakes) >= 3  # seeded: inaccuracies better drawn and some better played
    assert {m.best_action for m in mistakes} >= {"draw", "play"}
    names = [p.name for p in load_record(data).players]

    async def run() -> None:
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.pause()
            screen = replay_screen(app)
            await pilot.press("right_square_bracket")  # before the analysis: once it is there
            await app.workers.wait_for_complete()
            await pilot.pause()
            visited = [screen.index]
            for _ in mistakes[1:]:
                await pilot.press("right_square_bracket")
                visited.append(screen.index)
            assert visited == [frame_of(screen, m) for m in mistakes]
            await pilot.press("right_square_bracket")  # no mistake after the last: it stays
            assert screen.index == visited[-1]
            for mistake in reversed(mistakes):  # each one's judgement, better move and mark
                assert screen.index == frame_of(screen, mistake)
                status = text_of(screen, "#replay-status")
                assert judgement(mistake) in status
                assert better(mistake) in status
                k = expected.turns.index(mistake)
                assert graph_of(text_of(screen, "#review"), names)[1][k] == MARKS[mistake.verdict]
                await pilot.press("left_square_bracket")
            assert screen.index == visited[0]  # none before the first: it stays
            await pilot.press("n")  # the other keys
            assert screen.index == visited[1]
            await pilot.press("N")
            assert screen.index == visited[0]

    asyncio.run(run())


def test_b_lays_out_the_better_moves_table_with_its_new_melds_and_tiles_marked() -> None:
    data = missed_out()
    app = viewer_of(data)

    async def run() -> None:
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.pause()
            screen = replay_screen(app)
            await pilot.press("a")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.analysis is not None
            # the bot never had a choice: no accuracy; Ann's blunder counted
            assert summary_rows(text_of(screen, "#review"), ["Ann", "Bot"]) == expected_rows(
                screen.analysis
            )
            assert summary_rows(text_of(screen, "#review"), ["Ann", "Bot"])[1] == [
                "Bot", "–", "–", "0", "0", "0",
            ]  # fmt: skip
            miss = next(turn for turn in screen.analysis.turns if "missed-out" in turn.findings)
            assert (miss.turn, miss.verdict, miss.best_action) == (6, "blunder", "play")
            assert miss.best is not None
            index = frame_of(screen, miss)
            for _ in range(screen.mistakes().index(index) + 1):
                await pilot.press("right_square_bracket")
            assert screen.index == index
            status = text_of(screen, "#replay-status")
            assert judgement(miss) in status
            assert "the whole rack could have gone out" in status
            assert better(miss) in status
            assert f"Better: play {' '.join(miss.best_pieces)} (worth " in status
            view = screen.query_one("#table", TableView)
            box = screen.query_one("#table-box", VerticalScroll)
            played = screen.frames[index].state.table
            await pilot.press("b")
            assert str(box.border_title) == (
                "The best move of turn 7: new and changed melds marked (B: the move made)"
            )
            # the whole new table: the melds it leaves plain, its new ones marked, the tiles it
            # places from the rack highlighted
            assert [sorted(str(x) for _, x in row.pieces) for row in view.rows] == [
                sorted(meld) for meld in miss.best
            ]
            assert [row.changed for row in view.rows] == [
                i in miss.best_changed for i in range(len(miss.best))
            ]
            assert miss.best_changed == (2,)  # K1 K2 K3 beside the two melds already there
            assert [
                sorted(str(x) for p, x in row.pieces if p in view.fresh) for row in view.rows
            ] == [
                sorted(miss.best_pieces) if i in miss.best_changed else []
                for i in range(len(miss.best))
            ]
            assert all(view.look(p).fresh == (p in view.fresh) for p in view.order)
            graph = graph_of(text_of(screen, "#review"), ["Ann", "Bot"])[1]
            assert graph[miss.turn] == MARKS["blunder"]
            await pilot.press("b")  # back to the move made (a draw: the table as it was)
            assert str(box.border_title) == "Table"
            assert [str(x) for row in view.rows for _, x in row.pieces] == [
                str(x) for x in played.tiles()
            ]
            assert view.fresh == frozenset()

    asyncio.run(run())


def judged(turn: int, verdict: Verdict, mine: float) -> TurnAnalysis:
    """A turn of player ``turn % 2`` judged ``verdict``, after which player 0 has the chance
    ``mine``."""
    return TurnAnalysis(
        round=0, turn=turn, player=turn % 2, action="draw", verdict=verdict, placed=(),
        points=0, best_pieces=(), best_points=0, lost=0, best=None, could_go_out=False,
        win_chance=(0.5, 0.5), loss=0.0, chances=(mine, 1 - mine), best_action="draw",
    )  # fmt: skip


def test_the_graph_marks_each_kind_of_mistake_with_its_own_symbol() -> None:
    verdicts: list[Verdict] = ["best", "inaccuracy", "forced", "mistake", "good", "blunder"]
    turns = [judged(k, v, k / 5) for k, v in enumerate(verdicts)]
    lines = plain(chance_graph(turns, ["Ann", "Bo"], 2, width=60)).splitlines()
    assert lines[-1].rstrip() == "     ○▲◆ ✖"  # the position shown: the third turn
    assert [line[:4] for line in lines[:4]] == ["Ann ", "    ", "Bo  ", "    "]
    assert lines[0].split()[-1] == "40%" and lines[2].split()[-1] == "60%"
    assert [level(top, low) for top, low in zip(lines[0][4:10], lines[1][4:10], strict=True)] == [
        1, 3, 6, 10, 13, 16,
    ]  # fmt: skip
    # a long game: each column its turns' worst mistake, the column of the position reversed
    lines = plain(chance_graph(turns, ["Ann", "Bo"], 5, width=3)).splitlines()
    assert lines[-1].rstrip() == "    ○◆✖"
    before = plain(chance_graph(turns, ["Ann", "Bo"], None, width=60)).splitlines()
    assert before[-1].rstrip() == "     ○ ◆ ✖"  # the deal: no turn shown yet
    assert before[0].split()[-1] == "–"


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
