"""``rummikub xpress play --resume``: a game saved with ``--save`` is written after every
action, and goes on where it was left (the same seat, the same bot, the same dice), as
``rummikub play --resume`` does for the tile game."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.bots.simulate import simulate as simulate_games
from rummikub.cli.main import app as cli
from rummikub.i18n import translator
from rummikub.tui.xpress_app import XpressApp
from rummikub.xpress import (
    XpressMatch,
    XpressPlayer,
    XpressRules,
    load_xpress_match,
    read_xpress,
    verify_xpress,
    write_xpress,
)
from rummikub.xpress.dice_game import XPRESS

from .tui_driver import ask_hint, play_round, until_my_turn

runner = CliRunner()


def _left_mid_round(path: Path) -> None:
    """Play against greedy until the player at the keyboard has thrown once, then quit."""

    async def run() -> None:
        app = XpressApp.for_play(bot="greedy", seed=5, save=path, delay=0.0)
        async with app.run_test(size=(110, 50)) as pilot:
            match = app.match
            assert match is not None
            await until_my_turn(app, pilot)
            first: str = match.state.phase
            assert first == "place"  # the first turn of a round has no throw
            await ask_hint(app, pilot)
            await pilot.press("p", "e")
            await until_my_turn(app, pilot)
            second: str = match.state.phase
            assert second == "throw" and match.state.end is None
            await pilot.press("t")
            await pilot.pause()
            third: str = match.state.phase
            assert third == "place"
            await pilot.press("q")

    asyncio.run(run())


def test_a_game_left_mid_round_is_saved_and_goes_on_from_there(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    _left_mid_round(path)
    # written after every action: the unfinished round with the throw just made
    rec = read_xpress(path)
    assert rec.rounds[-1].end is None
    assert rec.rounds[-1].turns[-1].throw is not None
    match = load_xpress_match(rec)
    left = match.state

    async def run() -> None:
        app = XpressApp.for_resume(match, save=path, delay=0.0)
        async with app.run_test(size=(110, 50)) as pilot:
            assert app.human == 0 and app.bot is not None and app.bot.name.startswith("greedy")
            assert match.state == left  # the dice as they were, the player to place
            assert "Resumed the saved game in round 1" in app.logged
            await play_round(app, pilot)  # to the round's end
            assert match.state.end is not None

    asyncio.run(run())
    done = read_xpress(path)
    assert done.rounds[0].end is not None
    assert verify_xpress(done) > 0
    # the turns played before the save are the first turns of the finished round
    assert done.rounds[0].turns[: len(rec.rounds[0].turns)] == list(rec.rounds[0].turns)


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[XpressApp]:
    """The apps ``rummikub xpress play`` would run (run is not started in a CliRunner)."""
    apps: list[XpressApp] = []
    monkeypatch.setattr(XpressApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.setenv("LANGUAGE", "en")
    return apps


def test_the_command_resumes_into_the_saved_file(tmp_path: Path, launched: list[XpressApp]) -> None:
    path = tmp_path / "game.json"
    match = XpressMatch([XpressPlayer("Ann"), XpressPlayer("expert", "bot", "expert")], 9)
    write_xpress(match, path)
    result = runner.invoke(cli, ["xpress", "play", "--resume", str(path)])
    assert result.exit_code == 0, result.output
    (app,) = launched
    assert app.match is not None and app.match.players[0].name == "Ann"
    assert app.match.state == match.state
    assert app.save == path  # goes on saving into the file it came from
    other = tmp_path / "elsewhere.json"
    result = runner.invoke(cli, ["xpress", "play", "--resume", str(path), "--save", str(other)])
    assert result.exit_code == 0, result.output
    assert launched[-1].save == other


def test_what_cannot_be_resumed_is_named_in_one_line(
    tmp_path: Path, launched: list[XpressApp]
) -> None:
    def error(*args: str) -> str:
        result = runner.invoke(cli, ["xpress", "play", *args])
        assert result.exit_code == 1, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        return result.output.strip()

    missing = tmp_path / "none.json"
    assert (
        error("--resume", str(missing)) == f"error: cannot resume {missing}: there is no such file"
    )
    assert "a directory" in error("--resume", str(tmp_path))
    sv = translator("sv")  # in the language asked for, not the system's
    said = sv("cli.cannot_resume", path=str(missing), why=sv("cli.resume.missing"))
    assert error("--lang", "sv", "--resume", str(missing)) == f"error: {said}"
    saved = tmp_path / "game.json"
    write_xpress(XpressMatch([XpressPlayer("Ann"), XpressPlayer("g", "bot", "greedy")], 1), saved)
    assert "takes no --bot or --seed" in error(
        "--resume", str(saved), "--bot", "greedy", "--seed", "3"
    )
    # a finished match, and a match of two bots (nobody to sit at the keyboard)
    doc = next(
        simulate_games(XPRESS, XpressRules(), ["greedy", "greedy"], games=1, seed=2, players=2)
    )
    finished = tmp_path / "finished.json"
    finished.write_text(json.dumps(doc), encoding="utf-8")
    assert "the match is over" in error("--resume", str(finished))
    doc["rounds"] = doc["rounds"][:1]
    doc.pop("totals", None)
    bots = tmp_path / "bots.json"
    bots.write_text(json.dumps(doc), encoding="utf-8")
    assert "one person and one bot" in error("--resume", str(bots))
    text = tmp_path / "notes.json"
    text.write_text("hello", encoding="utf-8")
    assert error("--resume", str(text)).startswith(f"error: cannot resume {text}: ")
    assert not launched
