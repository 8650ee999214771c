"""The command line (simulate --game xpress, replay, xpress subcommands) and the message
catalogue."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.i18n import translator

runner = CliRunner()


def test_simulate_and_verify_xpress(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--game",
            "xpress",
            "--games",
            "2",
            "--seed",
            "3",
            "--out",
            str(out),
            "--bots",
            "greedy",
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert all(json.loads(line)["format"] == "rummikub-xpress/1" for line in lines)
    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 records verified" in result.output
    # printed replay of one record
    single = tmp_path / "one.json"
    single.write_text(lines[0], encoding="utf-8")
    result = runner.invoke(app, ["replay", str(single)])
    assert result.exit_code == 0, result.output
    assert "Round 1:" in result.output and "Totals:" in result.output
    # a tampered record fails, naming the place
    bad = json.loads(lines[0])
    bad["rounds"][0]["end"]["scores"] = [500, 0]
    single.write_text(json.dumps(bad), encoding="utf-8")
    result = runner.invoke(app, ["replay", "--verify", str(single)])
    assert result.exit_code != 0
    assert "round 1" in result.output


def test_simulate_rejects_bad_options(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    result = runner.invoke(
        app, ["simulate", "--game", "xpress", "--bots", "a,b,c", "--out", str(out)]
    )
    assert result.exit_code != 0 and "3 bot levels for 2 players" in result.output
    result = runner.invoke(
        app, ["simulate", "--game", "xpress", "--bots", "nobody", "--out", str(out)]
    )
    assert result.exit_code != 0 and "unknown bot 'nobody'" in result.output
    result = runner.invoke(app, ["simulate", "--game", "chess", "--out", str(out)])
    assert result.exit_code != 0 and "unknown game" in result.output


def test_xpress_subcommands_check_their_options(tmp_path: Path) -> None:
    result = runner.invoke(app, ["xpress", "play", "--lang", "xx"])
    assert result.exit_code != 0 and "unknown language" in result.output
    result = runner.invoke(app, ["xpress", "play", "--bot", "nobody"])
    assert result.exit_code != 0 and "unknown Xpress bot 'nobody'" in result.output
    missing = tmp_path / "none.json"
    result = runner.invoke(app, ["xpress", "replay", str(missing)])
    assert result.exit_code != 0 and "cannot read" in result.output


def test_the_xpress_interface_text_comes_from_the_shared_catalogue() -> None:
    # every key in every language: tests/tui/test_i18n.py checks the whole catalogue
    assert translator("sv")("xpress.tui.round", round=2, rounds=6) == "Omgång 2/6"
    assert translator("en")("xpress.tui.round", round=2, rounds=6) == "Round 2/6"
    assert translator("sv")("xpress.tui.placed_end", count=1).startswith("1 tärning utlagd")
