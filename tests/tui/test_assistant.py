"""The assistant at a real table in the terminal: the screen (driven by Textual's pilot) and
``rummikub assist --text/--json``."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Checkbox, Input, Static
from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.tui.assistant import AssistantApp

from .conftest import screen_lines

runner = CliRunner()


def _shown(a: AssistantApp) -> str:
    return str(a.query_one("#result", Static).render())


@pytest.mark.asyncio
async def test_the_screen_shows_each_view_and_plays_it() -> None:
    a = AssistantApp(table="R1 R2 R3 | K5 B5 O5", lang="en")
    async with a.run_test(size=(100, 34)) as pilot:
        assert a.focused is a.query_one("#rack", Input)
        await pilot.press(*"r4 j k9")
        await pilot.press("enter")
        await pilot.pause()
        shown = _shown(a)
        assert "1/2" in shown and "Most tiles · Most value · Fewest changes" in shown
        assert " R1   R2   R3   R4 * J=R5 *\n K5   B5   O5  \n" in shown
        assert "Place 2 tiles (R4 J) worth 9. Sets of the table changed: 1." in shown
        await pilot.press("pagedown")
        shown = _shown(a)
        assert "2/2" in shown and "Keep the joker" in shown and "Place 1 tile (R4)" in shown
        await pilot.press("ctrl+t")  # the new table is the next position
        await pilot.pause()
        assert a.query_one("#table", Input).value == "R1 R2 R3 R4 | K5 B5 O5"
        assert a.query_one("#rack", Input).value == "K9 J"
        assert a.query_one("#opened", Checkbox).value is True
        # a tile that is not one is named
        a.query_one("#rack", Input).value = "J Z9"
        await pilot.press("enter")
        await pilot.pause()
        # in the one wording of a bad tile, naming the colours of the rules
        bad = "Z9 is not a tile of these rules (colours K, R, B, O, numbers 1 to 13)."
        assert _shown(a) == bad
        a.query_one("#rack", Input).value = "P5 R14"
        await pilot.press("enter")
        await pilot.pause()
        assert _shown(a) == bad.replace("Z9", "P5")
        # nothing to place says what to do
        a.query_one("#rack", Input).value = "K1"
        await pilot.press("enter")
        await pilot.pause()
        assert "draw a tile" in _shown(a)


@pytest.mark.asyncio
async def test_the_screen_starts_from_the_command_line_position() -> None:
    a = AssistantApp(table="", rack="R10 R11 R12", opened=False, lang="sv")
    async with a.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        shown = _shown(a)
        assert "Flest brickor · Högst värde · Minst ändringar" in shown
        assert " R10 * R11 * R12 *" in shown and "Lägg 3 brickor (R10 R11 R12) värda 33" in shown


def test_the_command_prints_every_view() -> None:
    result = runner.invoke(
        app, ["assist", "--text", "-t", "R1 R2 R3 | K5 B5 O5 | R7 R8 R9 R10", "-r", "R4 J K7"]
    )
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert out[0] == "Most tiles · Most value · Fewest changes:"
    # R7 leaves its run (moved) for a group with K7 and the joker; R4 extends R1 R2 R3
    assert out[2:6] == ["    K7* R7~ J=7*", "    R1 R2 R3 R4*", "    R8 R9 R10", "    K5 B5 O5"]
    assert "Keep the joker:" in out
    assert out[-1] == "* from your rack   ~ moved from another set"


def test_the_command_as_json_and_its_refusals() -> None:
    result = runner.invoke(app, ["assist", "--json", "-t", "r5 r6 r7", "-r", "r8"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["alternatives"][0]["table"] == [
        [
            {"tile": "R5", "mark": "kept"},
            {"tile": "R6", "mark": "kept"},
            {"tile": "R7", "mark": "kept"},
            {"tile": "R8", "mark": "rack"},
        ]
    ]
    result = runner.invoke(app, ["assist", "--text", "-t", "R1 R2 R4", "-r", "R5"])
    assert result.exit_code == 1 and "R1 R2 R4" in result.output
    result = runner.invoke(app, ["assist", "--text", "-r", "X5"])
    assert result.exit_code == 1 and "X5" in result.output
    result = runner.invoke(app, ["assist", "--text"])
    assert result.exit_code == 1 and "--rack" in result.output
    result = runner.invoke(app, ["assist", "--text", "--not-opened", "-r", "R1 R2 R3"])
    assert result.exit_code == 0 and "No opening" in result.output


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 60)])
async def test_the_answer_is_on_screen(size: tuple[int, int]) -> None:
    """The best play and the key line are drawn inside the terminal, not laid out below it."""
    a = AssistantApp(table="R1 R2 R3 | K5 B5 O5 | R7 R8 R9 R10", lang="en")
    async with a.run_test(size=size) as pilot:
        await pilot.press(*"r4 j k7")
        await pilot.press("enter")
        await pilot.pause()
        lines = screen_lines(a)
        assert len(lines) == size[1]
        text = "\n".join(lines)
        assert "1/2" in text and "Place 3 tiles (K7 R4 J) worth 18" in text
        assert "K7*R7~J=7*" in text.replace(" ", "")
        assert "* from your rack   ~ moved from another set" in text
        assert "Esc: quit" in lines[-1]  # the key line ends on the screen's last row
