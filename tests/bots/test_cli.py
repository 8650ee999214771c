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
            "--jobs", "1", "--out", str(out), "-q"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "win % (95% interval)" in result.output and "Elo (95% interval)" in result.output
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
        "tournament", "--bots", f"beginner,cmd:{SIMPLE}", "--games", "2", "--jobs", "1",
        "--out", str(tmp_path / "r.jsonl"), "-q",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "cmd:" in result.output


def test_tournament_rejects_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "r.jsonl")
    bad = CliRunner().invoke(app, ["tournament", "--bots", "greedy,zz", "--out", out])
    assert bad.exit_code == 1 and "unknown bot 'zz'" in bad.output
    bad = CliRunner().invoke(app, ["tournament", "--players", "9", "--out", out])
    assert bad.exit_code == 1 and "2–4 players, not 9" in bad.output
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


def test_a_bot_that_cannot_start_is_reported_once_with_its_stderr(tmp_path: Path) -> None:
    """The README's command run outside the repository: the program exits at once ("can't
    open file"). One error says it could not start and shows what it wrote, not a timeout
    for each of its turns."""
    missing = tmp_path / "examples" / "bots" / "simple_bot.py"
    cmd = f"{sys.executable} {missing}"
    result = CliRunner().invoke(app, ["bot", "--cmd", cmd, "--against", "beginner",
                                      "--games", "3"])  # fmt: skip
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"error: the bot {cmd!r} could not start: it exited with status")
    assert "the last lines of its standard error:" in lines[0]
    assert "can't open file" in result.output and str(missing) in result.output
    assert "timeout" not in result.output and len(lines) <= 6
    # a program that is not there at all, and one that says why it gives up
    result = CliRunner().invoke(app, ["bot", "--cmd", str(tmp_path / "no-such-bot")])
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"error: the bot '{tmp_path / 'no-such-bot'}' could not start: cannot run "
        f"{tmp_path / 'no-such-bot'}: No such file or directory"
    )
    words = "import sys; print('loading', file=sys.stderr); sys.exit('no model file: m.bin')"
    result = CliRunner().invoke(app, ["bot", "--cmd", f'{sys.executable} -c "{words}"'])
    assert result.exit_code == 1 and "could not start: it exited with status 1" in result.output
    assert result.output.splitlines()[-2:] == ["  loading", "  no model file: m.bin"]
