"""A tournament on a Ray cluster (a local Ray instance here) writes the same results and records
as one run in this process, and resumes the same way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummikub.bots.executors import RayExecutor
from rummikub.bots.tournament import run_tournament
from rummikub.bots.tournament.results import TournamentConfig
from rummikub.cli.main import app
from rummikub.core import preset

CONFIG = TournamentConfig(("greedy", "random"), 2, 5, preset("standard").to_dict(), None, "tiles")


def untimed(value: Any) -> Any:
    """A results or record line without the time each decision took (machine-dependent)."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in ("seconds", "ms")}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def lines(path: Path) -> list[Any]:
    return sorted(
        (untimed(json.loads(line)) for line in path.read_text().splitlines()),
        key=lambda x: (x.get("type") != "tournament", json.dumps(x.get("tournament", x))),
    )


@pytest.fixture(scope="module")
def local_ray() -> Any:
    pool = RayExecutor("local", num_cpus=2)
    yield pool
    pool.shutdown()


def test_a_ray_run_writes_what_a_local_run_writes(tmp_path: Path, local_ray: Any) -> None:
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    mine = run_tournament(CONFIG, 6, here, workers=1)
    # on Ray in two goes: 2 games, then the remaining 4 (resumed from the file)
    run_tournament(CONFIG, 2, there, ray="local")
    theirs = run_tournament(CONFIG, 6, there, ray="local")
    assert lines(here) == lines(there)
    records = Path(str(here).replace(".jsonl", ".records.jsonl"))
    assert lines(records) == lines(Path(str(there).replace(".jsonl", ".records.jsonl")))
    assert mine == theirs
    assert local_ray.cpus == 2


def test_the_commands_take_ray(tmp_path: Path, local_ray: Any) -> None:
    runner = CliRunner()
    out = tmp_path / "t.jsonl"
    # greedy and strategic place what they can: short games, quick to analyse (random's games
    # run long, and their analysis, here twice, was most of this test's time)
    args = ["tournament", "--bots", "greedy,strategic", "--games", "2", "-o", str(out), "-q"]
    result = runner.invoke(app, [*args, "--ray", "local"])
    assert result.exit_code == 0, result.output
    records = tmp_path / "t.records.jsonl"
    # four deals a position: the same analyses there and here is what is checked
    analyse = ["analyse", str(records), "-q", "--json", "--samples", "4"]
    result = runner.invoke(app, [*analyse, "--ray", "local"])
    assert result.exit_code == 0, result.output
    analyses = [json.loads(line) for line in result.output.splitlines()]
    local = runner.invoke(app, analyse)
    assert analyses == [json.loads(line) for line in local.output.splitlines()]
    assert len(analyses) == 2


def test_simulate_on_ray_writes_what_a_local_run_writes(tmp_path: Path, local_ray: Any) -> None:
    runner = CliRunner()
    args = ["simulate", "--bots", "greedy,random", "-p", "2", "-n", "4", "--seed", "11", "-q"]
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    assert runner.invoke(app, [*args, "-o", str(here)]).exit_code == 0
    result = runner.invoke(app, [*args, "-o", str(there), "--ray", "local"])
    assert result.exit_code == 0, result.output
    mine = [untimed(json.loads(line)) for line in here.read_text().splitlines()]
    theirs = [untimed(json.loads(line)) for line in there.read_text().splitlines()]
    assert [r["seed"] for r in theirs] == [11, 12, 13, 14]  # in game order
    assert mine == theirs
