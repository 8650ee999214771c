"""A third game (Sticks, in ``sticks.py``) registered from outside the package: the conformance
suite, ``simulate``, ``replay`` (text and ``--verify``) and a tournament work for it unchanged."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.games import GameParts, register_game, unregister_game
from rummikub.testing import check_game

from .sticks import GAME

runner = CliRunner()


@pytest.fixture
def sticks() -> Iterator[None]:
    # its only part besides the rules: its bot levels, named as every game names its parts
    register_game(GAME, GameParts(bots=f"{type(GAME).__module__}:BOTS"))
    yield
    unregister_game("sticks")


def test_sticks_conforms(sticks: None) -> None:
    summary = check_game(GAME, games=3, seed=1)
    assert summary.presets == ["standard", "long"]
    assert summary.matches == 6 and summary.rounds == 3 * 3 + 3 * 5
    assert summary.resumed > 0


def test_simulate_replay_and_tournament(sticks: None, tmp_path: Path) -> None:
    out = tmp_path / "sticks.jsonl"
    args = ["simulate", "--game", "sticks", "-p", "3", "-n", "4", "--bots", "most,random"]
    result = runner.invoke(app, [*args, "--seed", "2", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4 and {r["format"] for r in records} == {"test-sticks/1"}
    assert all(len(r["players"]) == 3 and len(r["rounds"]) == 3 for r in records)

    result = runner.invoke(app, ["replay", "--verify", str(out)])
    assert result.exit_code == 0, result.output
    assert "ok: 4 records verified" in result.output
    result = runner.invoke(app, ["replay", "--text", str(out)])
    assert result.exit_code == 0, result.output
    assert "Round 3" in result.output and '"pile": 0' in result.output

    broken = records[0]
    broken["rounds"][0]["actions"][0]["action"]["take"] = 9  # more than one may take
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    result = runner.invoke(app, ["replay", "--verify", str(bad)])
    assert result.exit_code != 0 and "round 1, turn 1: cannot take 9" in result.output

    results = tmp_path / "results.jsonl"
    result = runner.invoke(
        app,
        ["tournament", "--game", "sticks", "--bots", "most,random", "-n", "6", "-j", "1",
         "--rules", "long", "-o", str(results), "-q", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    standings = json.loads(result.output)
    assert {b["bot"] for b in standings["bots"]} == {"most", "random"}
    assert sum(b["games"] for b in standings["bots"]) == 12
    lines = results.read_text().splitlines()
    assert json.loads(lines[0])["game"] == "sticks" and len(lines) == 7
