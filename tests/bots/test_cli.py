"""``rummikub tournament`` and ``rummikub bot`` end to end."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from rummikub.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
SIMPLE = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"
CRASH = f"{sys.executable} {Path(__file__).resolve().parent / 'programs' / 'crash_bot.py'}"


def test_tournament_prints_the_table_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "res.jsonl"
    args = ["tournament", "--bots", "beginner,random", "--games", "4", "--seed", "3",
            "--workers", "1", "--out", str(out), "-q"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "95% CI" in result.output and "Elo" in result.output
    assert "beginner" in result.output and "random" in result.output
    result = CliRunner().invoke(app, [*args[:4], "6", *args[5:], "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["games"] == 6
    assert sum(b["games"] for b in data["bots"]) == 12
    assert len((tmp_path / "res.records.jsonl").read_text().splitlines()) == 6
    replay = CliRunner().invoke(app, ["replay", "--verify", str(tmp_path / "res.records.jsonl")])
    assert replay.exit_code == 0, replay.output


def test_tournament_with_an_outside_bot(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [
        "tournament", "--bots", f"beginner,cmd:{SIMPLE}", "--games", "2", "--workers", "1",
        "--out", str(tmp_path / "r.jsonl"), "-q",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "cmd:" in result.output


def test_tournament_rejects_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "r.jsonl")
    bad = CliRunner().invoke(app, ["tournament", "--bots", "greedy,zz", "--out", out])
    assert bad.exit_code == 1 and "unknown bot 'zz'" in bad.output
    bad = CliRunner().invoke(app, ["tournament", "--players", "9", "--out", out])
    assert bad.exit_code == 1 and "9 players" in bad.output
    assert not Path(out).exists()


def test_bot_command_checks_an_outside_bot() -> None:
    ok = CliRunner().invoke(app, ["bot", "--cmd", SIMPLE, "--against", "beginner",
                                  "--games", "2", "--rules", "standard,tournament"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    assert "no violations" in ok.output and "simple_bot" in ok.output
    bad = CliRunner().invoke(app, ["bot", "--cmd", CRASH, "--against", "beginner",
                                   "--games", "1", "--time-limit", "1"])  # fmt: skip
    assert bad.exit_code == 1
    assert "timeout" in bad.output and "crashes" in bad.output
