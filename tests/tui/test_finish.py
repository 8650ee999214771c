"""The game screen at a small and a large terminal, in English and Swedish: focus, scrolling,
resuming, the layout, bot speed, penalties and reset (issue 18)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.color import Color
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static
from textual.widgets._select import SelectCurrent

from rummikub.core import Draw, Match, Play, PlayerInfo, Rules, write_record
from rummikub.tui import RummikubApp, Session
from rummikub.tui.screens import NewGameScreen
from rummikub.tui.widgets import GameLog, RackView, TableView

from ..waiting import until
from .conftest import RULES, FakeClock, click_hit, click_tile, duel, game, rigged_match, settle

pytestmark = pytest.mark.asyncio

SMALL = (80, 24)
LARGE = (200, 60)
#: each screen test runs at the small terminal in Swedish (the longer words in the least room)
#: and at the large one in English: every size and every language (the cross of both, on
#: 2026-12-04, ran twice the tests: 116 of the suite's 2,262 test-process seconds)
SCREENS = pytest.mark.parametrize(
    ("size", "lang"), [(SMALL, "sv"), (LARGE, "en")], ids=["80x24-sv", "200x60-en"]
)
LANGS = pytest.mark.parametrize("lang", ["en", "sv"])


def make(match: Match | Session, lang: str, **kwargs: object) -> RummikubApp:
    session = match if isinstance(match, Session) else Session(match, autosave=None)
    opts: dict[str, object] = {"lang": lang, "clock": FakeClock(), "tick": 0.05, "speed": 4}
    opts.update(kwargs)
    return RummikubApp(session=session, **opts)  # type: ignore[arg-type]


def focused(screen: Screen[None]) -> Widget | None:
    return screen.focused


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


@SCREENS
async def test_tab_moves_between_the_rack_and_the_table_only(
    size: tuple[int, int], lang: str
) -> None:
    app = make(duel(), lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        rack, table = screen.query_one("#rack", RackView), screen.query_one("#table", TableView)
        assert focused(screen) is rack
        await pilot.press("tab")
        assert focused(screen) is table
        await pilot.press("tab")
        assert focused(screen) is rack
        await pilot.press("shift+tab")
        assert focused(screen) is table
        # Tab then Enter never ends the turn
        await pilot.press("tab", "enter", "tab", "enter")
        assert screen.session.match.rounds[0].turns == []
        assert screen.editor is not None


@SCREENS
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
            t("log.round", round=1, name="Ann", you=True),
            t("log.draw", name="Ann", you=True),
            t("log.draw", name="Bot"),
        ]
        panel = screen.query_one("#players", Static)
        text = plain(panel.content)
        assert "Ann" in text and "Bot" in text
        assert t("players.pool", count=len(match.state.pool)) in text
        # the panel is laid out at its full height, not one line
        assert panel.region.height >= 4
        assert len(log.lines) >= 3


@LANGS
async def test_the_table_scrolls_to_follow_the_cursor(lang: str) -> None:
    # the small terminal, where the crowded table is taller than its box (in the large one it
    # fits, and nothing scrolls)
    app = make(crowded(), lang)
    async with app.run_test(size=SMALL) as pilot:
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
        assert box.max_scroll_y > 0  # the table really is taller than its box


@SCREENS
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


@SCREENS
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


@SCREENS
async def test_a_penalised_play_says_why(size: tuple[int, int], lang: str) -> None:
    rules = RULES.replace(invalid_play="penalty", invalid_penalty=3)
    app = make(duel(rules=rules), lang)
    async with app.run_test(size=size, notifications=True) as pilot:
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
        why = t.coded("invalid-meld", {"meld": "R10 R11", "why": "meld-too-short", "count": 2})
        assert any(
            t("game.penalised", count=3) in m and t("game.rejected", why=why) in m for m in messages
        ), messages
        # the notification stays clear of the key-help line
        await pilot.pause()
        keys = screen.query_one("#keys")
        toasts = screen.query_one("#textual-toastrack")
        assert toasts.styles.margin.bottom == keys.outer_size.height > 0


@SCREENS
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


# -- the new-game form ------------------------------------------------------------------------


def form_errors(app: RummikubApp) -> str:
    return plain(app.screen.query_one("#setup-error", Static).content)


@SCREENS
async def test_the_new_game_form_lists_every_error_at_once(
    size: tuple[int, int], lang: str
) -> None:
    app = RummikubApp(lang=lang, clock=FakeClock(), tick=0.05)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        # a stray Enter does not start a game: the first field has the focus, not Start
        assert screen.focused is not None and screen.focused.id == "players"
        # and the focus shows: the focused field has a green background, the others do not
        focus = Color.parse("#2e7d32")
        players = screen.query_one("#players", Select).query_one(SelectCurrent)
        assert players.styles.background == focus
        await pilot.press("tab")
        assert screen.query_one("#name-0", Input).styles.background == focus
        assert players.styles.background != focus
        screen.query_one("#opening", Input).value = "999"
        screen.query_one("#rounds", Input).value = "abc"
        screen.query_one("#time", Input).value = ""
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        t = app.t
        text = form_errors(app)
        assert t("setup.time_blank") in text
        high = 14 * 13
        assert (
            t("setup.out_of_range", field=t("setup.opening"), value=999, low=0, high=high) in text
        )
        assert t("setup.bad_number", field=t("setup.rounds"), value="abc") in text
        for widget_id in ("time", "opening", "rounds"):
            assert screen.query_one(f"#{widget_id}", Input).has_class("-invalid"), widget_id
        # letters are kept in the field (and reported), not silently dropped
        assert screen.query_one("#rounds", Input).value == "abc"
        # fixed, the game starts
        screen.query_one("#opening", Input).value = "30"
        screen.query_one("#rounds", Input).value = "1"
        screen.query_one("#time", Input).value = "0"
        # a button ignores clicks while it shows its last press (Textual's "-active" effect, a
        # fifth of a second): a person fixing three fields takes longer than that, a test not
        start = screen.query_one("#start", Button)
        await until(pilot, lambda: not start.has_class("-active"), "the button to settle")
        await pilot.click("#start")
        await _left_form(pilot, app)
        assert not isinstance(app.screen, NewGameScreen), form_errors(app)
        session = app.session
        assert session is not None and session.rules.turn_seconds is None


@SCREENS
async def test_the_new_game_form_shows_what_a_preset_decides(
    size: tuple[int, int], lang: str
) -> None:
    app = RummikubApp(lang=lang, clock=FakeClock(), tick=0.05)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        info = screen.query_one("#preset-info", Static)
        t = app.t
        assert t("setup.invalid.reject") in plain(info.content)
        screen.query_one("#preset", Select).value = "tournament"
        await pilot.pause()
        assert t("setup.invalid.penalty", count=3) in plain(info.content)
        # the menu says the preset's name in the player's language
        shown = screen.query_one("#preset SelectCurrent #label", Static)
        assert plain(shown.content).strip() == t("preset.tournament") != "tournament"
        assert screen.query_one("#time", Input).value == "60"


@SCREENS
async def test_two_people_get_player_names_not_you(size: tuple[int, int], lang: str) -> None:
    app = RummikubApp(lang=lang, clock=FakeClock(), tick=0.05)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        t = app.t
        assert screen.query_one("#name-0", Input).value == t("setup.you")
        screen.query_one("#kind-1", Select).value = "human"
        await pilot.pause()
        assert screen.query_one("#name-0", Input).value == t("setup.player_name", n=1)
        assert screen.query_one("#name-1", Input).value == t("setup.player_name", n=2)
        screen.query_one("#kind-1", Select).value = "greedy"
        await pilot.pause()
        assert screen.query_one("#name-0", Input).value == t("setup.you")
        assert screen.query_one("#name-1", Input).value == t("setup.bot_name", n=2)


async def _left_form(pilot: Pilot[Any], app: RummikubApp) -> None:
    """Wait until the game screen replaced the form (slowly on a busy machine)."""
    await until(pilot, lambda: not isinstance(app.screen, NewGameScreen), "the game screen")


@SCREENS
async def test_enter_walks_the_new_game_form_to_a_game(size: tuple[int, int], lang: str) -> None:
    """Enter moves to the next field — on a menu too, which Space or ↓ opens — and on the last
    field starts the game: a new user who keeps pressing Enter gets a game."""
    app = RummikubApp(lang=lang, clock=FakeClock(), tick=0.05, seed=3)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.focused is not None and screen.focused.id == "players"
        await pilot.press("enter")
        assert not screen.query_one("#players", Select).expanded
        assert screen.focused is not None and screen.focused.id == "name-0"
        await pilot.press("enter")
        assert screen.focused is not None and screen.focused.id == "kind-0"
        await pilot.press("enter")
        assert screen.focused is not None and screen.focused.id == "name-1"
        # a menu still opens with Space
        screen.query_one("#kind-1", Select).focus()
        await pilot.press("space")
        assert screen.query_one("#kind-1", Select).expanded
        await pilot.press("escape")
        seen = []
        for _ in range(40):
            if not isinstance(app.screen, NewGameScreen):
                break
            seen.append(screen.focused.id if screen.focused is not None else None)
            await pilot.press("enter")
        await _left_form(pilot, app)
        assert not isinstance(app.screen, NewGameScreen), seen
        assert seen[-1] == "seed" and "quit" not in seen
        session = app.session
        assert session is not None and session.match.seed == 3


@LANGS
async def test_f5_starts_the_game_from_any_field_and_says_so(lang: str) -> None:
    app = RummikubApp(lang=lang, clock=FakeClock(), tick=0.05, seed=5)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        shown = plain(screen.query_one("#setup-keys", Static).content)
        assert "F5" in shown
        screen.query_one("#name-0", Input).focus()
        await pilot.press("f5")
        await _left_form(pilot, app)
        assert not isinstance(app.screen, NewGameScreen)
        assert app.session is not None and app.session.match.seed == 5


@LANGS
async def test_shift_tab_from_the_first_field_does_not_quit(lang: str) -> None:
    """Quit is not in the Tab order (a click or Ctrl+Q): going backwards from the first field
    and pressing Enter starts nothing and leaves nothing."""
    app = RummikubApp(lang=lang, clock=FakeClock(), tick=0.05)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        await pilot.press("shift+tab")
        await pilot.press("shift+tab")
        assert screen.focused is not None and screen.focused.id != "quit"
        # once round the Tab order, back to where it started
        first = screen.focused.id
        ids = []
        for _ in range(40):
            await pilot.press("tab")
            assert screen.focused is not None
            ids.append(screen.focused.id)
            if screen.focused.id == first:
                break
        assert ids[-1] == first
        assert "quit" not in ids and "start" in ids
        assert app.is_running and app.screen is screen


async def test_swedish_has_two_words_for_quit_and_end_turn() -> None:
    from rummikub.i18n import translator

    t = translator("sv")
    quit_word = t("button.quit").lower()
    assert quit_word not in t("button.end_turn").lower()
    assert f"ctrl+q {quit_word}" in t("game.keys").lower()
    assert f"q {quit_word}" in t("replay.keys").lower()
    assert f"q {quit_word}" in t("xpress.tui.keys").lower()
