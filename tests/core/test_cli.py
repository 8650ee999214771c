"""``rummikub simulate`` and ``rummikub replay [--verify]`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.core import load_record, verify

from .games import score_table_record

runner = CliRunner()


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sim") / "games.jsonl"
    result = runner.invoke(
        app, ["simulate", "--players", "4", "--games", "100", "--seed", "1", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out


def test_simulate_writes_records_that_replay_and_verify(games: Path) -> None:
    lines = games.read_text().splitlines()
    assert len(lines) == 100
    seeds = set()
    for line in lines:
        rec = load_record(json.loads(line))
        assert len(rec.players) == 4
        seeds.add(rec.seed)
        assert verify(rec) > 0
    assert seeds == set(range(1, 101))
    result = runner.invoke(app, ["replay", "--verify", str(games)])
    assert result.exit_code == 0, result.output
    assert "100 records verified" in result.output


def test_simulate_is_reproducible(tmp_path: Path, games: Path) -> None:
    out = tmp_path / "again.jsonl"
    args = ["simulate", "-p", "4", "-n", "3", "--seed", "1", "--out", str(out), "-q"]
    assert runner.invoke(app, args).exit_code == 0
    again = [_without_times(line) for line in out.read_text().splitlines()]
    assert again == [_without_times(line) for line in games.read_text().splitlines()[:3]]


def _without_times(line: str) -> object:
    rec = json.loads(line)
    for rd in rec["rounds"]:
        for t in rd["turns"]:
            t.pop("ms", None)
    return rec


def test_replay_prints_the_game(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(score_table_record()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Round 1: A starts" in result.output
    assert "D plays O10 O11 O12 O13" in result.output
    assert "Totals: A -14, B -29, C +4, D +39" in result.output
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 0 and "1 record verified" in result.output


def test_replay_verify_names_the_first_bad_turn(tmp_path: Path, games: Path) -> None:
    lines = games.read_text().splitlines()
    rec = json.loads(lines[2])
    turns = rec["rounds"][0]["turns"]
    k = next(i for i, t in enumerate(turns) if t["action"] == "draw")
    turns[k]["tile"] = "O13" if turns[k]["tile"] != "O13" else "O12"
    lines[2] = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    for args in (["replay", "--verify", str(bad)], ["replay", str(bad)]):
        result = runner.invoke(app, args)
        assert result.exit_code != 0
        assert f"bad.jsonl:3: round 1, turn {k + 1}" in result.output
        assert "drew" in result.output


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("", "empty"),
        ("{not json", "not valid JSON"),
        ('{"format": "chess-game/1"}', "chess-game/1"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_replay_rejects_broken_files(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content)
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code != 0
    assert fragment in result.output


def test_replay_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code != 0
    assert "nope.json" in result.output


def test_simulate_rejects_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    result = runner.invoke(app, ["simulate", "--players", "7", "--out", out])
    assert result.exit_code != 0 and "2–4 players, not 7" in result.output
    result = runner.invoke(app, ["simulate", "--rules", "nonsense", "--out", out])
    assert result.exit_code != 0 and "unknown preset" in result.output
    result = runner.invoke(app, ["simulate", "--rules", '{"copies": 9}', "--out", out])
    assert result.exit_code != 0 and "copies" in result.output


def test_replay_text_speaks_the_chosen_language(games: Path) -> None:
    """The text of a replay comes from the message catalogue: --lang sv prints Swedish."""
    first = games.read_text().splitlines()[0]
    one = games.parent / "one.json"
    one.write_text(first)
    result = runner.invoke(app, ["replay", "--text", "--lang", "sv", str(one)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Omgång 1: ") and "Totalt: " in result.output
    assert "Round" not in result.output and "Totals" not in result.output
    result = runner.invoke(app, ["replay", "--lang", "xx", str(one)])
    assert result.exit_code != 0 and "unknown language 'xx'" in result.output
