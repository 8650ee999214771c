"""Ctrl+C in ``rummikub tournament``: a real process gets SIGINT (sent, as a terminal does, to
its whole process group, worker processes included), stops at once and keeps every finished
game; the same command run again plays the rest. The stop time is measured by
``bench/interrupt.py``; here it is only bounded, generously."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: far more games than are played before the interruption
GAMES = 5000


def _command(out: Path, jobs: int, games: int = GAMES) -> list[str]:
    return [
        sys.executable, "-m", "rummikub.cli.main", "tournament", "--bots", "greedy,random",
        "--games", str(games), "--jobs", str(jobs), "--quiet", "--out", str(out),
    ]  # fmt: skip


def _results(out: Path) -> list[dict[str, object]]:
    """The finished games in the results file (its first line is the tournament's header)."""
    lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []
    return [json.loads(line) for line in lines[1:]]


def _wait_for(out: Path, games: int, proc: subprocess.Popen[str]) -> None:
    """Wait until ``games`` games are in the results file (polling it: the event is a line
    written by another process)."""
    deadline = time.monotonic() + 300
    while len(_results(out)) < games:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the tournament wrote no results"
        time.sleep(0.05)


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_the_tournament_and_keeps_every_finished_game(
    tmp_path: Path, jobs: int
) -> None:
    out = tmp_path / "r.jsonl"
    env = {**os.environ, "LANGUAGE": "en"}
    proc = subprocess.Popen(
        _command(out, jobs), stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        start_new_session=True, env=env,
    )  # fmt: skip
    try:
        _wait_for(out, 3, proc)
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C: every process of the command
        _, err = proc.communicate(timeout=30)  # the bench measures it (well under 2 s)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    kept = _results(out)
    assert 3 <= len(kept) < GAMES
    assert len({r["game"] for r in kept}) == len(kept)  # every game once, each line whole
    records = (tmp_path / "r.records.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(records) == len(kept)  # a record for every result, none for a dropped game
    assert [json.loads(line)["tournament"]["game"] for line in records] == [r["game"] for r in kept]
    games = "1 finished game" if len(kept) == 1 else f"{len(kept)} finished games"
    left = GAMES - len(kept)
    said = f"interrupted: {games} in {out}; run the same command again to play the {left} left"
    assert err.strip().splitlines() == [said]
    # the same command goes on: two more games on top of the kept ones
    again = subprocess.run(
        _command(out, jobs, len(kept) + 2), capture_output=True, text=True, env=env, timeout=300
    )
    assert again.returncode == 0, again.stderr
    assert _results(out)[: len(kept)] == kept
    assert len(_results(out)) == len(kept) + 2
