"""``rummikub play`` options and ``rummikub replay`` off a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.core import Draw, write_record
from rummikub.i18n import translator

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
    # in the language asked for, not the system's
    sv = translator("sv")
    result = runner.invoke(app, ["play", "--lang", "sv", "--resume", str(missing)])
    said = sv("cli.cannot_resume", path=str(missing), why=sv("cli.resume.missing"))
    assert result.output.strip() == f"error: {said}"


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


def test_play_with_bots_skips_the_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bots`` seats the player against one bot per level and opens the game itself."""
    from rummikub.cli.play import setup_from_options
    from rummikub.tui import RummikubApp, Seat

    started: list[RummikubApp] = []
    monkeypatch.setattr(RummikubApp, "run", lambda self: started.append(self))
    args = ["play", "--bots", "greedy,greedy", "--seed", "4", "--no-autosave", "--lang", "en"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    session = started[0].session
    assert session is not None  # the app opens this game, not the form
    assert session.players == (
        Seat("You").info(),
        Seat("Bot 2", "bot", "greedy").info(),
        Seat("Bot 3", "bot", "greedy").info(),
    )
    assert session.rules.preset == "standard" and session.match.seed == 4 and session.hints
    sv = setup_from_options("expert", "tournament", seed=None, hints=False, lang="sv")
    assert sv.seats[0] == Seat("Du") and sv.rules.preset == "tournament" and not sv.hints


def test_play_with_bots_refuses_what_it_cannot_seat(tmp_path: Path) -> None:
    cases = {
        ("--bots", "greedy,nobody"): "unknown bot level 'nobody' (levels: ",
        ("--bots", "greedy,,expert"): "--bots needs bot levels split by commas",
        ("--bots", "greedy,greedy,greedy,greedy"): "5 players",
        ("--rules", "tournament"): "--rules goes with --bots",
        ("--bots", "greedy", "--resume", str(tmp_path / "x.json")): "takes no --bots",
    }
    for args, message in cases.items():
        result = runner.invoke(app, ["play", *args])
        assert result.exit_code == 1, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output and len(result.output.splitlines()) == 1


def test_replay_gives_the_viewer_its_reviews_samples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummikub.cli.replay_tui import open_viewer
    from rummikub.tui import RummikubApp

    match = duel()
    match.act(Draw())
    path = tmp_path / "game.json"
    write_record(match, path)
    opened: list[int | None] = []
    monkeypatch.setattr(RummikubApp, "run", lambda self: opened.append(self.review_samples))
    assert open_viewer(path, "en", 5) and open_viewer(path, "en")
    assert opened == [5, None]  # None: the analysis's default
    result = runner.invoke(app, ["replay", "--samples", "0", str(path)])
    assert result.exit_code == 2 and "--samples" in result.output


def test_a_terminal_game_in_hebrew_is_shown_in_english_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rummikub.i18n import translator
    from rummikub.tui import RummikubApp

    shown: list[str] = []
    monkeypatch.setattr(RummikubApp, "run", lambda self: shown.append(self.t("button.end_turn")))
    result = runner.invoke(app, ["play", "--lang", "he", "--bots", "greedy", "--no-autosave"])
    assert result.exit_code == 0, result.output
    assert shown == ["End turn"]  # Textual has no right-to-left: English
    assert translator("he")("terminal.no_rtl") in result.output
    assert translator("en")("terminal.no_rtl") in result.output
