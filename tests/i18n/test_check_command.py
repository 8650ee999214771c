"""``rummikub i18n check [LANG...]`` and ``rummikub i18n languages``, and the command line's
global ``--lang``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.i18n import LANG_ENV, LANGUAGES, catalogue, translator
from rummikub.i18n import check as check_module

runner = CliRunner()


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    # the global --lang sets LANG_ENV for the process: monkeypatch takes it back after a test
    monkeypatch.setenv(LANG_ENV, "")
    monkeypatch.setenv("LANGUAGE", "en")


def test_a_complete_catalogue_passes() -> None:
    result = runner.invoke(app, ["i18n", "check", "de", "he"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["de: complete.", "he: complete."]


def test_a_catalogue_with_problems_is_reported_and_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    german = dict(catalogue("de"))
    del german["game.table"]
    german["game.pool"] = catalogue("en")["game.pool"]
    real = check_module.check
    monkeypatch.setattr(
        "rummikub.i18n.check.check", lambda lang: real(lang, german if lang == "de" else None)
    )
    result = runner.invoke(app, ["i18n", "check", "de"])
    assert result.exit_code == 1
    assert "de: game.table is missing." in result.output
    assert "de: game.pool is still in English: Tiles in the pool" in result.output
    assert "Problems found: 2." in result.output


def test_an_unknown_language_is_named() -> None:
    result = runner.invoke(app, ["i18n", "check", "xx"])
    assert result.exit_code == 1
    assert f"Unknown language xx (languages: {', '.join(LANGUAGES)})." in result.output


def test_the_global_lang_words_every_command() -> None:
    result = runner.invoke(app, ["--lang", "de", "i18n", "check", "xx"])
    assert result.exit_code == 1
    assert translator("de")("i18n.unknown", lang="xx", languages=", ".join(LANGUAGES)) in (
        result.output
    )
    assert "Unbekannte Sprache xx" in result.output
    bad = runner.invoke(app, ["--lang", "xx", "i18n", "languages"])
    assert bad.exit_code == 1
    assert "unknown language 'xx'" in bad.output


def test_the_languages_are_listed_with_their_own_names() -> None:
    result = runner.invoke(app, ["i18n", "languages"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == list(LANGUAGES)
    assert "he  עברית" in lines and "de  Deutsch" in lines
