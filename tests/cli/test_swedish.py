"""The command line in Swedish: what the commands print comes from the message catalogue (the
``bot`` command's counters, the ``replay --verify`` line, the tournament report, the ratings,
the errors of options), not English left in the code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.cli.bots import could_not_start
from rummikub.cli.main import app
from rummikub.i18n import translator

from ..core.games import score_table_record

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
SIMPLE = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"


@pytest.fixture
def swedish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "sv")


def test_replay_verify_says_ok_in_the_language(tmp_path: Path, swedish: None) -> None:
    path = tmp_path / "games.jsonl"
    line = json.dumps(score_table_record())
    path.write_text(f"{line}\n{line}\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == "ok: 2 protokoll kontrollerade\n"
    path.write_text(line, encoding="utf-8")
    result = runner.invoke(app, ["replay", "--verify", "--lang", "en", str(path)])
    assert result.output == "ok: 1 record verified\n"


def test_the_bot_command_counts_in_the_language(swedish: None) -> None:
    result = runner.invoke(app, ["bot", "--cmd", SIMPLE, "--against", "random", "--games", "1"])
    assert result.exit_code == 0, result.output
    first, counters = result.output.strip().splitlines()
    assert " mot random: 1 parti (" in first and "inga regelbrott" in first
    assert counters == "0 tidsöverskridanden, 0 krascher, 0 avvisade svar"


def test_a_bot_that_cannot_start_is_said_in_the_language() -> None:
    t = translator("sv")
    said = could_not_start("./bot", "it exited with status 2", ["boom"], t=t)
    assert said.splitlines() == [
        "boten './bot' kunde inte starta: it exited with status 2; de sista raderna den skrev "
        "till standard error:",
        "  boom",
    ]
    assert could_not_start("./bot", "x", [], again=True, t=translator("en")) == (
        "the bot './bot' could not start again: x (it wrote nothing to standard error)"
    )


def test_the_tournament_report_in_swedish(tmp_path: Path, swedish: None) -> None:
    out = tmp_path / "r.jsonl"
    args = ["tournament", "--bots", "random,beginner,greedy", "-p", "2", "-n", "2", "-j", "1"]
    result = runner.invoke(app, [*args, "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["bot", "partier", "vinster"]
    assert len(lines[1]) == len(lines[0])  # the rule under the header as long as it
    rows = [line for line in lines[2:5]]
    assert all(row.count(" till ") == 2 for row in rows)
    assert "(· boten själv; aldrig: de två möttes aldrig)" in lines
    assert "varning: bara 2 partier:" in result.output
    assert "2 partier i " in result.output
    for english in ("games", "never", "warning", " to ", "head to head"):
        assert english not in result.output
    # and the errors of its options
    result = runner.invoke(app, [*args, "-n", "0", "-o", str(out)])
    assert result.output == "error: --games måste vara minst 1\n"
    result = runner.invoke(app, ["tournament", "--bots", "greedy,greedy", "-o", str(out)])
    assert result.output == "error: --bots nämner en bot två gånger\n"


def test_the_ratings_in_swedish(swedish: None) -> None:
    result = runner.invoke(app, ["ratings", "bots"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "bottar för tiles, starkast först:"
    assert lines[-2] == "(rating: 1000 + 40 mu, skattningen mu på den skala spelarna ser)"
    assert lines[-1].startswith("(från ") and " partier: rummikub ratings calibrate" in lines[-1]


def test_solve_jsonl_counts_failures_in_the_language(swedish: None) -> None:
    good = json.dumps({"table": [], "rack": ["R1", "R2", "R3"], "opened": True})
    result = runner.invoke(app, ["solve", "--jsonl"], input=f"{good}\n\nnot json\n")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: 1 av 2 ställningar misslyckades (indatarad 3); 1 tom rad hoppades över "
        "(inget resultat för den)\n"
    )


def test_resume_errors_in_the_language(tmp_path: Path, swedish: None) -> None:
    missing = tmp_path / "none.json"
    for cmd in (["play"], ["xpress", "play"]):
        result = runner.invoke(app, [*cmd, "--resume", str(missing)])
        assert result.output == f"error: kan inte fortsätta {missing}: filen finns inte\n"
