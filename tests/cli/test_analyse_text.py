"""``rummikub analyse`` as text: lines of at most 100 columns, in the language of ``--lang``
(every line from the catalogue), and a file that cannot be read named once, in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.cli.analyse import WIDTH, _report
from rummikub.cli.main import app
from rummikub.i18n import translator

runner = CliRunner()


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One seeded game of greedy against strategic (short rounds: a quick analysis)."""
    where = tmp_path_factory.mktemp("analyse")
    games = where / "g.jsonl"
    args = ["simulate", "-p", "2", "-n", "1", "--seed", "3", "--bots", "greedy,strategic", "-q"]
    assert runner.invoke(app, [*args, "-o", str(games)]).exit_code == 0
    one = where / "one.json"
    one.write_text(games.read_text(encoding="utf-8").splitlines()[0], encoding="utf-8")
    return one


@pytest.fixture(scope="module")
def analysis(game: Path) -> dict[str, object]:
    result = runner.invoke(app, ["analyse", "--json", "--samples", "4", str(game)])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_the_report_fits_100_columns_in_each_language(game: Path) -> None:
    for lang, words in (("en", ("Round", "accuracy")), ("sv", ("Omgång", "precision"))):
        result = runner.invoke(app, ["analyse", str(game), "-q", "--samples", "4", "--lang", lang])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
        assert all(word in result.output for word in words)
    # the Swedish report has none of the English words of the report
    for english in ("Round", "turn", "better", "win chance", "points", "player", "played"):
        assert english not in result.output


def test_a_long_turn_is_wrapped_under_its_first_line(analysis: dict[str, object]) -> None:
    turns = analysis["turns"]
    assert isinstance(turns, list)
    turn = dict(turns[0])
    tiles = [f"{c}{n}" for c in "KBOR" for n in range(1, 11)]
    turn.update(
        verdict="mistake", action="play", placed=tiles, best_placed=tiles, best_points=200,
        best_action="play", findings=["missed-out", "joker-given"], loss=12.5, lost=9,
    )  # fmt: skip
    long = {**analysis, "turns": [turn]}
    players = analysis["players"]
    assert isinstance(players, list)
    long["players"] = [{**p, "name": "a very long player name indeed " * 2} for p in players]
    for lang in ("en", "sv"):
        t = translator(lang)
        lines = _report(long, t)
        assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
        first_blank = lines.index("")
        assert first_blank >= 3  # the turn took several lines...
        assert all(line.startswith("      ") for line in lines[1:first_blank])  # ...indented
        words = " ".join(lines[:first_blank]).split()
        assert words.count("K1") == 2 and t("finding.joker-given").split()[-1] in words


def test_a_missing_file_is_named_once(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.json"
    result = runner.invoke(app, ["analyse", str(missing)])
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.count(str(missing)) == 1
    assert result.output.startswith("error: ") and "Traceback" not in result.output


def test_a_bad_record_of_many_is_named_by_its_line(tmp_path: Path, game: Path) -> None:
    many = tmp_path / "g.jsonl"
    many.write_text(game.read_text(encoding="utf-8") + "\n" + '{"format": "x"}\n', "utf-8")
    result = runner.invoke(app, ["analyse", str(many)])
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {many}:2: ")
    assert result.output.count(str(many)) == 1


def test_the_language_is_checked(game: Path) -> None:
    result = runner.invoke(app, ["analyse", str(game), "--lang", "xx"])
    assert result.exit_code == 1 and "unknown language 'xx'" in result.output
