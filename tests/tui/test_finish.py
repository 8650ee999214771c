"""The game screen at a small and a large terminal, in English and Swedish: focus, scrolling,
resuming, the layout, bot speed, penalties and reset (issue 18)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from rummikub.core import Draw, Match, Play, PlayerInfo, Rules, write_record
from rummikub.tui import RummikubApp, Session
from rummikub.tui.widgets import GameLog, RackView, TableView

from .conftest import RULES, FakeClock, click_hit, click_tile, duel, game, rigged_match, settle

pytestmark = pytest.mark.asyncio

SMALL = (80, 24)
LARGE = (200, 60)
SIZES = pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "200x60"])
LANGS = pytest.mark.parametrize("lang", ["en", "sv"])


def make(match: Match | Session, lang: str, **kwargs: object) -> RummikubApp:
    session = match if isinstance(match, Session) else Session(match, autosave=None)
    opts: dict[str, object] = {"lang": lang, "clock": FakeClock(), "tick": 0.05, "speed": 4}
    opts.update(kwargs)
    return RummikubApp(session=session, **opts)  # type: ignore[arg-type]


def plain(renderable: object, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


#: Twenty-four runs of three (both copies of 1..9 in every colour), laid out by Ann in her
#: first turn; then the bot draws.
RUNS = [f"{c}{n} {c}{n + 1} {c}{n + 2}" for c in "RBOK" for n in (1, 4, 7)] * 2


def crowded() -> Match:
    rules = Rules(rack_size=40, turn_seconds=120, opening_value=0, max_players=2)
    match = rigged_match(
        rules,
        [PlayerInfo("Ann"), PlayerInfo("Bot", "bot", "beginner")],
        [" ".join(RUNS) + " R10 B11 O12 K13", "R13 B13 O13"],
        "K10 K11",
    )
    match.act(Play.of(" ".join(RUNS), " | ".join(RUNS)))
    match.act(Draw())
    return match


@SIZES
@LANGS
async def test_tab_moves_between_the_rack_and_the_table_only(
    size: tuple[int, int], lang: str
) -> None:
    app = make(duel(), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert screen.focused is screen.query_one("#rack", RackView)
        await pilot.press("tab")
        assert screen.focused is screen.query_one("#table", TableView)
        await pilot.press("tab")
        assert screen.focused is screen.query_one("#rack", RackView)
        await pilot.press("shift+tab")
        assert screen.focused is screen.query_one("#table", TableView)
        # Tab then Enter never ends the turn
        await pilot.press("tab", "enter", "tab", "enter")
        assert screen.session.match.rounds[0].turns == []
        assert screen.editor is not None


@SIZES
@LANGS
async def test_a_resumed_game_shows_players_pool_and_log(
    size: tuple[int, int], lang: str, tmp_path: Path
) -> None:
    match = duel()
    match.act(Draw())  # Ann
    match.act(Draw())  # the bot
    path = tmp_path / "saved.json"
    write_record(match, path)
    app = make(Session.resume(path, autosave=None), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        t = app.t
        log = screen.query_one(GameLog)
        assert log.entries == [
            t("log.round", round=1, name="Ann"),
            t("log.draw", name="Ann"),
            t("log.draw", name="Bot"),
        ]
        panel = screen.query_one("#players")
        text = plain(panel.content)
        assert "Ann" in text and "Bot" in text
        assert t("players.pool", count=len(match.state.pool)) in text
        # the panel is laid out at its full height, not one line
        assert panel.region.height >= 4
        assert len(log.lines) >= 3


@SIZES
@LANGS
async def test_the_table_scrolls_to_follow_the_cursor(size: tuple[int, int], lang: str) -> None:
    app = make(crowded(), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        table = screen.query_one("#table", TableView)
        box = screen.query_one("#table-box")
        table.focus()
        await pilot.pause()
        for meld in range(len(RUNS)):
            where = table.cursor_meld
            assert where is not None and where[0] == meld
            line = table.cursor_line()
            assert line is not None
            top = box.scroll_offset.y
            visible = box.scrollable_content_region.height
            assert top <= table.virtual_region.y + line < top + visible, (meld, line, top)
            await pilot.press("down")
            await pilot.pause()
        for _ in range(len(RUNS)):
            await pilot.press("up")
            await pilot.pause()
        assert table.cursor_meld == (0, 0) and box.scroll_offset.y == 0
        if size == SMALL:
            assert box.max_scroll_y > 0  # the table really is taller than its box here


@SIZES
@LANGS
async def test_every_button_is_on_screen(size: tuple[int, int], lang: str) -> None:
    app = make(duel(), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        left = screen.query_one("#left").region
        for bid in ("end-turn", "draw", "reset", "undo", "hint", "sort-run", "sort-group", "save"):
            region = screen.query_one(f"#{bid}").region
            assert region.width >= 4 and left.contains_region(region), bid
        side = screen.query_one("#side").region.width
        if size == LARGE:
            assert side >= 50  # the side panel grows with the terminal
        else:
            assert side <= 34


@SIZES
@LANGS
async def test_plus_slows_the_bots_and_minus_speeds_them_up(
    size: tuple[int, int], lang: str
) -> None:
    app = make(duel(), lang, speed=2)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("plus")
        assert app.speed == 1
        await pilot.press("minus", "minus")
        assert app.speed == 3
        await pilot.press("f")
        assert app.speed == 4


@SIZES
@LANGS
async def test_a_penalised_play_says_why(size: tuple[int, int], lang: str) -> None:
    rules = RULES.replace(invalid_play="penalty", invalid_penalty=3)
    app = make(duel(rules=rules), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        await click_tile(pilot, "R10")
        await click_tile(pilot, "R11")
        await click_hit(pilot, "#table", "new")
        await pilot.press("e")
        await pilot.pause()
        assert screen.session.match.rounds[0].turns[0].action == "invalid"
        messages = [n.message for n in app._notifications]
        t = app.t
        assert any(
            t("game.penalised", count=3) in m and t("reject.invalid-meld") in m for m in messages
        ), messages


@SIZES
@LANGS
async def test_reset_puts_placed_tiles_back_where_they_were(
    size: tuple[int, int], lang: str
) -> None:
    app = make(duel(), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert screen.editor is not None
        before = [str(p.tile) for p in screen.editor.rack]
        await click_tile(pilot, "R11")
        await click_tile(pilot, "R12")
        await click_tile(pilot, "R10")
        await click_hit(pilot, "#table", "new")
        await pilot.press("r")
        assert [str(p.tile) for p in screen.editor.rack] == before
