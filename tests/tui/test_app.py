"""Drive the real app with Textual's pilot: a whole round against a bot."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from rummikub.core import load_record, verify
from rummikub.tui import RummikubApp
from rummikub.tui.screens import HandoverScreen, NewGameScreen, RoundEndScreen
from rummikub.tui.widgets import RackView

from ..waiting import until
from .conftest import SIZE, FakeClock, click_hit, click_tile, duel, game, settle, table_text

#: seconds enough for every deal of an evaluation: the hint is then the same on any machine
UNTIMED = 1e6

pytestmark = pytest.mark.asyncio


async def test_start_a_game_against_bots_from_the_new_game_screen(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(seed=42)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#start")
        await settle(pilot, app)
        screen = game(app)
        session = screen.session
        assert [p.kind for p in session.players] == ["human", "bot", "bot", "bot"]
        assert session.match.seed == 42
        assert screen.editor is not None and session.current == 0  # bots moved first
        rack = screen.query_one("#rack", RackView)
        obs = session.match.observation(0)
        assert sorted(t for _, t in rack.pieces) == sorted(obs.rack.tiles)


async def test_new_game_form_rejects_bad_input(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#opening").value = "lots"  # type: ignore[attr-defined]
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "Opening value" in _plain(screen, "#setup-error")


async def test_a_whole_round(make_app, clock: FakeClock, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(duel())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        # -- the opening, with the keyboard: run view is K1 K2 R9 R10 R11 R12 B12 O12
        screen.query_one("#rack", RackView).focus()
        await pilot.press(
            "t", "home", "right", "right", "right", "space", "right", "space", "right", "space"
        )
        assert screen.editor is not None
        assert [str(screen.editor.pieces[p].tile) for p in screen.selected] == ["R10", "R11", "R12"]
        await pilot.press("n")
        assert table_text(screen) == ["R10 R11 R12"]
        assert "Opening: 33 of 30" in _plain(screen, "#problems")
        await pilot.press("e")
        await settle(pilot, app)
        assert screen.session.match.state.opened == (True, False)
        assert [t.action for t in screen.session.match.rounds[0].turns] == ["play", "draw"]

        # -- a play that rearranges the table, with the mouse: R12 joins B12 O12, R9 the run
        await click_tile(pilot, "R12", "table")
        await click_tile(pilot, "B12")
        await click_tile(pilot, "O12")
        await click_hit(pilot, "#table", "new")
        assert table_text(screen) == ["R10 R11", "R12 B12 O12"]
        # -- the invalid meld is flagged at once, with the reason
        problems = _plain(screen, "#problems")
        assert "Meld 1: a set needs at least 3 tiles (this has 2)" in problems
        # -- end turn is refused and explains itself; nothing reaches the match
        await pilot.press("e")
        assert len(screen.session.match.rounds[0].turns) == 2
        assert (
            "Not accepted: R10 R11 is not a valid set: a set needs at least 3 tiles (this has 2)."
            in _plain(screen, "#problems")
        )
        # -- reset puts everything back
        await pilot.click("#reset")
        assert table_text(screen) == ["R10 R11 R12"]
        assert screen.editor is not None and not screen.editor.changed
        # -- the same play again, completed this time
        await click_tile(pilot, "R12", "table")
        await click_tile(pilot, "B12")
        await click_tile(pilot, "O12")
        await click_hit(pilot, "#table", "new")
        await click_tile(pilot, "R9")
        await click_hit(pilot, "#table", "drop", meld=0)
        assert table_text(screen) == ["R9 R10 R11", "R12 B12 O12"]
        await pilot.click("#end-turn")
        await settle(pilot, app)
        turns = screen.session.match.rounds[0].turns
        assert [t.action for t in turns] == ["play", "draw", "play", "draw"]
        assert str(screen.session.match.state.table) == "R9 R10 R11 | R12 B12 O12"

        # -- draw
        await pilot.press("d")
        await settle(pilot, app)
        turns = screen.session.match.rounds[0].turns
        assert turns[4].action == "draw" and str(turns[4].tile) == "K3"

        # -- hit the timer: the fake clock jumps past the limit
        assert screen.editor is not None
        await click_tile(pilot, "K1")
        await click_hit(pilot, "#table", "new")  # half-made meld: the timeout undoes it
        clock.now += 121
        await pilot.pause(0.2)
        await settle(pilot, app)
        turns = screen.session.match.rounds[0].turns
        assert turns[6].action == "timeout" and [str(t) for t in turns[6].penalty] == ["K4"]
        assert str(screen.session.match.state.table) == "R9 R10 R11 | R12 B12 O12"

        # -- go out: K1 K2 K3 K4 ends the round
        for tile in ("K1", "K2", "K3", "K4"):
            await click_tile(pilot, tile)
        await pilot.press("n", "e")
        await settle(pilot, app)
        await until(pilot, lambda: isinstance(app.screen, RoundEndScreen), "the round's end")
        end_screen = app.screen
        assert isinstance(end_screen, RoundEndScreen)
        text = _plain(end_screen, "#end-scores")
        assert "Ann" in text and "Bot" in text and "Total" in text
        end = screen.session.match.state.end
        assert end is not None and end.winner == 0 and end.scores[0] > 0
        assert f"{end.scores[0]:+d}" in text and f"{end.scores[1]:+d}" in text
        assert "Rummikub!" in _plain(end_screen, "#end-title")
        # the match (one round) is over: no "next round"
        assert not end_screen.query("#next")
        # save from the end screen; the record replays
        await pilot.press("ctrl+s")
        await pilot.pause()
        record = load_record(json.loads((tmp_path / "saved.json").read_text()))
        assert verify(record) == 9 == len(screen.session.match.rounds[0].turns)


async def ask_hint(pilot: Pilot[object], app: RummikubApp) -> None:
    """Press H and wait for the hint, computed on all its deals (``UNTIMED``: the same hint
    on any machine)."""
    if app.session is not None:
        app.session.bot_seconds = UNTIMED
    await pilot.press("h")
    await app.workers.wait_for_complete()
    await pilot.pause()


def _plain(screen: object, selector: str) -> str:
    from rich.console import Console

    widget = screen.query_one(selector)  # type: ignore[attr-defined]
    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def test_hot_seat_hides_the_rack_between_people(make_app) -> None:  # type: ignore[no-untyped-def]
    from rummikub.core import PlayerInfo, Rules

    from .conftest import rigged_match

    match = rigged_match(
        Rules(rack_size=8),
        [PlayerInfo("Ann"), PlayerInfo("Ben")],
        ["R10 R11 R12 R9 B12 O12 K1 K2", "K5 R2 B3 O4 R6 B8 O10 K12"],
        "O1",
    )
    app = make_app(match)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        assert "Pass the keyboard to Ann" in _plain(app.screen, "#handover-text")
        await pilot.press("space")
        await pilot.pause()
        screen = game(app)
        assert screen.editor is not None
        assert {str(p.tile) for p in screen.editor.rack} >= {"R10", "K1"}
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        # behind the handover, the game screen shows no rack at all
        rack = screen.query_one("#rack", RackView)
        assert rack.hidden_note is not None and rack.pieces == []
        await pilot.press("enter")
        await pilot.pause()
        assert {str(t) for _, t in rack.pieces} == {
            "K5",
            "R2",
            "B3",
            "O4",
            "R6",
            "B8",
            "O10",
            "K12",
        }


async def test_rack_views_and_manual_reordering(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(duel())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        rack = screen.query_one("#rack", RackView)
        rack.focus()
        await pilot.press("g")  # group view: number then colour
        assert [str(t) for _, t in rack.pieces] == [
            "K1",
            "K2",
            "R9",
            "R10",
            "R11",
            "B12",
            "O12",
            "R12",
        ] or [str(t) for _, t in rack.pieces] == [
            "K1",
            "K2",
            "R9",
            "R10",
            "R11",
            "R12",
            "B12",
            "O12",
        ]
        await pilot.press("t")  # run view: colour then number
        assert [str(t) for _, t in rack.pieces] == [
            "K1",
            "K2",
            "R9",
            "R10",
            "R11",
            "R12",
            "B12",
            "O12",
        ]
        await pilot.press("home", "shift+right", "shift+right")
        assert [str(t) for _, t in rack.pieces][:3] == ["K2", "R9", "K1"]


async def test_swedish_interface(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(duel(), lang="sv")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert "Avsluta tur" in str(screen.query_one("#end-turn", Button).label)
        assert "Öppning: 0 av 30" in _plain(screen, "#problems")


async def test_resume_a_saved_game(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from rummikub.core import Draw, write_record
    from rummikub.tui import Session

    match = duel()
    match.act(Draw())
    match.act(Draw())
    path = tmp_path / "game.json"
    write_record(match, path)
    session = Session.resume(path)
    assert len(session.match.rounds[0].turns) == 2
    app = make_app()
    app.session = session
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert screen.session.match.state.turn == 2
        assert len(screen.editor.rack) == 9  # type: ignore[union-attr]


async def test_hint_is_shown_on_the_board_and_recorded(make_app) -> None:  # type: ignore[no-untyped-def]
    from rummikub.bots.hints import hint
    from rummikub.core import Play
    from rummikub.core.tiles_game import TILES

    match = duel()
    # the best move by the evaluation (the analysis's and the expert's) for the seat to move,
    # on all its deals: no time limit cuts them short, here or in the app, on a busy machine
    suggested = hint(TILES, match.observation(match.state.current), UNTIMED)
    assert isinstance(suggested, Play)
    expected = [" ".join(str(t) for t in m.tiles) for m in suggested.table.melds]
    app = make_app(match)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        await ask_hint(pilot, app)
        assert table_text(screen) == expected and expected
        assert "Hint:" in _plain(screen, "#problems")
        await pilot.press("e")
        await settle(pilot, app)
        first = screen.session.match.rounds[0].turns[0]
        assert first.action == "play" and first.hint


async def test_a_hint_to_keep_the_tiles_says_they_would_fit(make_app) -> None:  # type: ignore[no-untyped-def]
    # opened, R1 R2 R3 could go down: the hint draws (holding the tiles is the better move,
    # docs/bots.md) and says so, not that nothing fits
    shown, table = await _hint_for_ann(make_app, "R1 R2 R3 B9 K5 O12 K7 B2", opened=True)
    assert "you could place 3 tiles, but keeping them and drawing a tile is the better" in shown
    assert "no play is possible" not in shown and table == []


async def _hint_for_ann(make_app, rack: str, *, opened: bool) -> tuple[str, list[str]]:  # type: ignore[no-untyped-def]
    """The hint's message and the table it lays out for Ann, to move with ``rack`` against
    a beginner bot (racks of 8), opened or not."""
    import dataclasses

    from rummikub.core import PlayerInfo, Rules

    from .conftest import BOT, rigged_match

    match = rigged_match(
        Rules(rack_size=8, turn_seconds=120),
        [PlayerInfo("Ann"), PlayerInfo("Bot", "bot", "beginner")],
        [rack, BOT],
        "O1 B1 K3 R1 K4 B2",
    )
    match.state = dataclasses.replace(match.state, opened=(opened, True))
    app = make_app(match)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        await ask_hint(pilot, app)
        return " ".join(_plain(screen, "#problems").split()), table_text(screen)


async def test_hints_can_be_disabled(make_app) -> None:  # type: ignore[no-untyped-def]
    from rummikub.tui import Session

    app = make_app()
    app.session = Session(duel(), hints=False, autosave=None)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert not screen.query_one("#hint").display
        await ask_hint(pilot, app)
        assert table_text(screen) == [] and not screen.session.hint_used


async def test_a_hint_undone_does_not_mark_the_play(make_app) -> None:  # type: ignore[no-untyped-def]
    """The hint is laid out, undone (U) or reset (R), and another play is made: the turn is
    not "with a hint", in the record or the log."""
    from rummikub.tui.widgets import GameLog

    for key in ("u", "r"):
        app = make_app(duel())
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            screen = game(app)
            await ask_hint(pilot, app)
            assert "Hint:" in _plain(screen, "#problems")
            await pilot.press(key)
            assert table_text(screen) == []
            for tile in ("R10", "R11", "R12"):
                await click_tile(pilot, tile)
            await click_hit(pilot, "#table", "new")
            await pilot.press("e")
            await settle(pilot, app)
            first = screen.session.match.rounds[0].turns[0]
            assert first.action == "play" and not first.hint, key
            lines = screen.query_one(GameLog).entries
            assert any(line.startswith("You played R10 R11 R12") for line in lines), lines
            assert not any(app.t("log.hinted") in line for line in lines), lines


async def test_the_rack_order_survives_a_resume(make_app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Sorted 777 (G) and saved, the rack comes back 777 after --resume, not 789."""
    from rummikub.tui import Session

    path = tmp_path / "auto.json"
    app = make_app()
    app.session = Session(duel(), autosave=path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = game(app)
        await pilot.press("g")
        await pilot.press("d")  # the turn ends: autosaved
        await settle(pilot, app)
        kept = [str(p.tile) for p in screen.editor.rack]  # type: ignore[union-attr]
    # by number, then colour; the tile drawn since follows
    assert kept == ["K1", "K2", "R9", "R10", "R11", "R12", "B12", "O12", "O1"]
    again = make_app()
    again.session = Session.resume(path, autosave=None)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot, again)
        screen = game(again)
        assert [str(p.tile) for p in screen.editor.rack] == kept  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("rack", "expected"),
    [
        ("R6 R7 R8 K1 B3 O5 K9 B11", "Hint: your best opening is worth 21 of the 30 needed"),
        ("R1 K3 B5 O7 R9 K11 B13 O2", "Hint: your rack holds no set yet, so no opening"),
    ],
)
async def test_the_hint_before_the_opening_says_how_far_it_is(  # type: ignore[no-untyped-def]
    make_app, rack: str, expected: str
) -> None:
    shown, _ = await _hint_for_ann(make_app, rack, opened=False)
    assert expected in shown and "no play is possible" not in shown
