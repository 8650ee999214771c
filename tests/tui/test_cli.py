"""``rummikub play`` options and ``rummikub replay`` off a terminal."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.core import Draw, write_record

from .conftest import duel

runner = CliRunner()


def test_play_help_lists_the_options() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    for option in ("--lang", "--resume", "--seed", "--save"):
        assert option in result.output


def test_play_rejects_an_unknown_language_and_a_bad_record(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--lang", "xx"])
    assert result.exit_code != 0 and "unknown language" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(bad)])
    assert result.exit_code != 0 and "cannot resume" in result.output
    assert "format is None" not in result.output and "not a saved game" in result.output
    missing = tmp_path / "missing.json"
    result = runner.invoke(app, ["play", "--resume", str(missing)])
    assert result.output.strip() == f"error: cannot resume {missing}: there is no such file"
    result = runner.invoke(app, ["play", "--resume", str(tmp_path)])
    assert result.exit_code == 1 and "Errno" not in result.output
    assert "it is a directory" in result.output


def test_replay_prints_text_when_not_on_a_terminal(tmp_path: Path) -> None:
    match = duel()
    match.act(Draw())
    path = tmp_path / "game.json"
    write_record(match, path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "Ann draws O1" in result.output
    result = runner.invoke(app, ["replay", "--text", str(path)])
    assert result.exit_code == 0 and "Ann draws O1" in result.output


def test_quitting_says_where_the_game_is_saved(tmp_path: Path) -> None:
    from rummikub.cli.play import quit_note
    from rummikub.tui import RummikubApp, Session

    for lang, start in (("en", "The game is saved in"), ("sv", "Spelet är sparat i")):
        autosave = tmp_path / lang / "autosave.json"
        app = RummikubApp(lang=lang, session=Session(duel(), autosave=autosave))
        assert quit_note(app) == ""  # nothing saved yet
        assert app.session is not None
        app.session.submit(Draw())
        note = quit_note(app)
        assert note.startswith(start) and f"rummikub play --resume {autosave}" in note
    assert quit_note(RummikubApp(lang="en")) == ""  # no game was started
