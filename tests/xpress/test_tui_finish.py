"""The Xpress terminal app at a small and a large terminal, in English and Swedish: the replay
viewer's keys and steps, the dice notation, joker roles, the log, the table layout (issue 18)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.command import CommandPalette
from typer.testing import CliRunner

from rummikub.bots.simulate import simulate as simulate_games
from rummikub.bots.simulate import write_records
from rummikub.cli.main import app as cli
from rummikub.core import Meld, Tile
from rummikub.core.tiles import COLOUR_LETTERS
from rummikub.i18n import translator
from rummikub.tui.xpress_app import DieWidget, TableView, XpressApp, render_face, set_roles
from rummikub.xpress import XpressRules, load_xpress
from rummikub.xpress.dice_game import XPRESS

from .tui_driver import play_round

SIZES = pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
LANGS = pytest.mark.parametrize("lang", ["en", "sv"])
FACE = re.compile(r"^(J|[KRBO]\d{1,2})$")


def test_a_piped_replay_prints_text(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    write_records(
        simulate_games(XPRESS, XpressRules(), ["greedy", "greedy"], games=1, seed=4, players=2),
        path,
    )
    result = CliRunner().invoke(cli, ["xpress", "replay", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Round 1: ") and "\x1b" not in result.output
    result = CliRunner().invoke(cli, ["xpress", "replay", "--text", str(path)])
    assert result.exit_code == 0 and "Round 1: " in result.output


def test_jokers_on_the_table_show_their_role() -> None:
    run = Meld.parse("R4 J R6")
    assert set_roles(run) == [None, Tile(COLOUR_LETTERS.index("R"), 5), None]
    assert set_roles(Meld.parse("K7 B7 J")) == [None, None, 7]
    assert render_face(Tile(1, 6)).plain == "R6"
    assert render_face(Meld.parse("J").tiles[0], Tile(1, 5)).plain == "J=R5"


@SIZES
@LANGS
def test_the_replay_viewer_shows_its_keys_and_says_what_every_step_did(
    size: tuple[int, int], lang: str
) -> None:
    rec = load_xpress(
        next(
            simulate_games(XPRESS, XpressRules(), ["greedy", "greedy"], games=1, seed=4, players=2)
        )
    )

    async def run() -> None:
        app = XpressApp.for_replay(rec, lang=lang)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            shown = {b.binding.action for b in app.active_bindings.values() if b.binding.show}
            assert "step(1)" in shown
            for action in ("throw", "place", "hint", "end_turn", "next_round"):
                assert app.check_action(action, ()) is False
                assert action not in shown
            for index in range(-1, len(app.steps)):
                what = app.step_text(index)
                assert what and what != "-" and not what.startswith(" "), index
            for _ in range(3):
                await pilot.press("right")
            assert app.message.startswith(
                translator(lang)(
                    "xpress.tui.replay_step", step=3, steps=len(app.steps), what=app.step_text(2)
                )
            )
            assert app.step_index == 2
            assert app.logged == [app.step_text(i) for i in range(3)]

    asyncio.run(run())


@SIZES
@LANGS
def test_a_round_against_a_bot_logs_both_players_and_fits(size: tuple[int, int], lang: str) -> None:
    async def run() -> None:
        app = XpressApp.for_play(bot="greedy", seed=11, lang=lang, delay=0.0)
        async with app.run_test(size=size) as pilot:
            match = app.match
            assert match is not None
            # no command palette, as in the main game
            await pilot.press("ctrl+p")
            assert not isinstance(app.screen, CommandPalette)
            shown = {b.binding.action for b in app.active_bindings.values() if b.binding.show}
            assert "throw" in shown and "step(1)" not in shown

            def faces_shown() -> None:
                for die in app.query(DieWidget):
                    assert FACE.match(str(die.render())), die.render()

            await play_round(app, pilot, faces_shown)
            assert match.state.end is not None
            bot = match.players[1].name
            threw = translator(lang)("xpress.tui.threw", name=bot, faces="")
            bot_throws = [line for line in app.logged if line.startswith(threw)]
            assert bot_throws and all(len(line) > len(threw) for line in bot_throws)
            me = match.players[0].name
            assert any(
                line.startswith(translator(lang)("xpress.tui.threw", name=me, faces=""))
                for line in app.logged
            )
            # the sets flow within the table's width
            table = app.query_one("#sets", TableView)
            width = table.size.width
            assert all(len(line) <= width for line in table.lines(width))
            assert app.query_one("#table").region.right <= size[0]

    asyncio.run(run())
