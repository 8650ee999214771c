"""``rummikub simulate`` spread over worker processes and resumed after a run cut short: the
same records, in the same order, as one uninterrupted run in this process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummikub.bots.simulate import resume_point, simulate
from rummikub.cli.main import app
from rummikub.core import UsageError, preset
from rummikub.games import get_game

ARGS = ["simulate", "--bots", "greedy,beginner", "-p", "2", "--seed", "3", "-q"]


def untimed(value: Any) -> Any:
    """A record without the milliseconds each decision took (machine-dependent)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "ms"}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def records(path: Path) -> list[Any]:
    return [untimed(json.loads(line)) for line in path.read_text().splitlines()]


def run(*args: str) -> None:
    result = CliRunner().invoke(app, [*ARGS, *args])
    assert result.exit_code == 0, result.output


def test_workers_and_resume_give_the_records_of_one_run(tmp_path: Path) -> None:
    one, spread, resumed = (tmp_path / f"{n}.jsonl" for n in ("one", "spread", "resumed"))
    run("-n", "5", "-o", str(one))
    run("-n", "5", "-o", str(spread), "-j", "2")
    run("-n", "2", "-o", str(resumed))
    # a crash while the third record was being written
    with resumed.open("a") as fh:
        fh.write('{"format": "rummikub-game/1", "rul')
    run("-n", "5", "-o", str(resumed), "--resume")
    assert [r["seed"] for r in records(one)] == [3, 4, 5, 6, 7]
    assert records(spread) == records(one)
    assert records(resumed) == records(one)


def test_resume_refuses_a_file_of_another_run(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run("-n", "2", "-o", str(out))
    before = out.read_text()
    result = CliRunner().invoke(
        app, ["simulate", "--bots", "greedy", "-p", "2", "--seed", "9", "-n", "4", "-o", str(out),
              "--resume", "-q"],
    )  # fmt: skip
    assert result.exit_code != 0
    assert "line 1 is the game of seed 3" in result.output
    assert out.read_text() == before  # nothing lost


def test_a_finished_run_resumes_to_nothing(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run("-n", "2", "-o", str(out))
    assert resume_point(out, seed=3, games=2) == 2
    assert resume_point(tmp_path / "none.jsonl", seed=3, games=2) == 0
    game = get_game("tiles")
    rest = simulate(game, preset("standard"), ["greedy"], games=2, seed=3, players=2, start=2)
    assert list(rest) == []


def test_bad_workers_are_named() -> None:
    game = get_game("tiles")
    with pytest.raises(UsageError, match="workers must be at least 1, not 0"):
        simulate(game, preset("standard"), ["greedy"], games=2, seed=3, players=2, workers=0)
