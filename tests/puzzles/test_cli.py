"""``rummikub puzzles make|verify`` and the scripted forms of ``rummikub puzzle``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rummikub.cli.main import app
from rummikub.core import load_record
from rummikub.puzzles import Goal
from rummikub.puzzles.make import missed_go_outs, puzzles_from_record
from rummikub.puzzles.verify import load_puzzles, write_puzzles

from .helpers import make_one

runner = CliRunner()
RECORD = Path(__file__).parent / "data" / "missed_go_out.json"


def test_make_from_records_writes_the_puzzles_of_each_game(tmp_path: Path) -> None:
    src = tmp_path / "games.jsonl"
    src.write_text(RECORD.read_text().strip() + "\n")
    out = tmp_path / "p.jsonl"
    result = runner.invoke(
        app, ["puzzles", "make", "--from", str(src), "--out", str(out), "--lang", "en"]
    )
    assert result.exit_code == 0, result.output
    made = load_puzzles(out, full=True)
    expected = puzzles_from_record(load_record(json.loads(RECORD.read_text())))
    assert [p.id for p in made] == [p.id for p in expected]
    assert f"Wrote {len(made)} puzzles" in result.output


def test_missed_go_outs_of_a_player(tmp_path: Path) -> None:
    rec = load_record(json.loads(RECORD.read_text()))
    missed = missed_go_outs(rec, "beginner-1")
    assert len(missed) == 1
    p = missed[0]
    assert p.goal is Goal.GO_OUT and p.source is not None and p.source.player == 0
    # he did not go out on that turn
    turn = rec.rounds[p.source.round].turns[p.source.turn]
    assert not (turn.action == "play" and len(turn.play) == len(p.rack))
    out = tmp_path / "mine.jsonl"
    result = runner.invoke(
        app,
        [
            "puzzles",
            "make",
            "--from",
            str(RECORD),
            "--player",
            "beginner-1",
            "--missed",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert [q.id for q in load_puzzles(out)] == [p.id]
    bad = runner.invoke(
        app,
        [
            "puzzles",
            "make",
            "--from",
            str(RECORD),
            "--player",
            "nobody",
            "--missed",
            "--out",
            str(out),
        ],
    )
    assert bad.exit_code == 1 and "nobody" in bad.output


def test_self_play_is_the_same_for_a_seed_whatever_the_jobs(tmp_path: Path) -> None:
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"s{jobs}.jsonl.gz"
        result = runner.invoke(
            app,
            [
                "puzzles",
                "make",
                "--self-play",
                "2",
                "--seed",
                "21",
                "-j",
                jobs,
                "-q",
                "--out",
                str(out),
            ],
        )
        assert result.exit_code == 0, result.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert load_puzzles(tmp_path / "s1.jsonl.gz")


def test_make_needs_one_source(tmp_path: Path) -> None:
    result = runner.invoke(app, ["puzzles", "make", "--out", str(tmp_path / "x"), "--lang", "en"])
    assert result.exit_code == 1
    assert "--from FILE or --self-play N" in result.output


def test_verify_names_the_bad_puzzle(tmp_path: Path) -> None:
    good = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    path = tmp_path / "p.jsonl"
    write_puzzles([good], path)
    ok = runner.invoke(app, ["puzzles", "verify", "--full", str(path), "--lang", "en"])
    assert ok.exit_code == 0 and "1 puzzle verified." in ok.output
    data = good.to_json() | {"target": 1}
    path.write_text(json.dumps(data) + "\n")
    bad = runner.invoke(app, ["puzzles", "verify", str(path), "--lang", "en"])
    assert bad.exit_code == 1
    assert f"Puzzle {good.id} does not verify: go-out target 1" in bad.output


def _one_puzzle_file(tmp_path: Path) -> tuple[Path, str]:
    p = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT)
    path = tmp_path / "p.jsonl"
    write_puzzles([p], path)
    return path, p.id


def test_show_hint_and_solution(tmp_path: Path) -> None:
    path, pid = _one_puzzle_file(tmp_path)
    shown = runner.invoke(app, ["puzzle", "--file", str(path), "--show", pid, "--lang", "en"])
    assert shown.exit_code == 0
    assert "Goal: place your whole rack (3 tiles)." in shown.output
    assert "K5 K6 K7 K8" in shown.output and "Rack: R4 R8 B8" in shown.output
    hinted = runner.invoke(app, ["puzzle", "--file", str(path), "--hint", pid, "--lang", "sv"])
    assert "Ledtråd: dela upp serien K5 K6 K7 K8." in hinted.output
    sol = runner.invoke(app, ["puzzle", "--file", str(path), "--solution", pid, "--lang", "en"])
    assert "+R8 +B8 *K8" in sol.output or "*K8 +R8 +B8" in sol.output


def test_check_an_answer(tmp_path: Path) -> None:
    path, pid = _one_puzzle_file(tmp_path)
    args = ["puzzle", "--file", str(path), "--check", pid, "--lang", "en", "--answer"]
    right = runner.invoke(app, [*args, "R4 R8 B8 -> K5 K6 K7 | K8 R8 B8 | R1 R2 R3 R4"])
    assert right.exit_code == 0 and "Solved! 3 tiles placed." in right.output
    short = runner.invoke(app, [*args, "R4 -> K5 K6 K7 K8 | R1 R2 R3 R4"])
    assert short.exit_code == 1 and "1 of 3 tiles placed: 2 tiles short." in short.output
    invalid = runner.invoke(app, [*args, "R8 B8 R4 -> K5 K6 K7 K8 | R8 B8 | R1 R2 R3 R4", "--json"])
    verdict = json.loads(invalid.output)
    assert verdict["solved"] is False and verdict["code"] == "invalid-meld"
    unknown = runner.invoke(
        app, ["puzzle", "--file", str(path), "--check", "nope", "--answer", "R4 -> R4"]
    )
    assert unknown.exit_code == 1 and "There is no puzzle nope." in unknown.output


def test_the_shipped_set_is_the_default(tmp_path: Path) -> None:
    from rummikub.puzzles.verify import shipped

    first = shipped()[0]
    shown = runner.invoke(app, ["puzzle", "--show", first.id, "--json"])
    assert json.loads(shown.output)["id"] == first.id


def test_without_a_screen_the_puzzle_is_printed(tmp_path: Path, monkeypatch: Any) -> None:
    import datetime as dt

    from rummikub.puzzles.rating import daily
    from rummikub.puzzles.verify import shipped

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    today = daily(shipped(), dt.date.today())
    shown = runner.invoke(app, ["puzzle", "--daily", "--lang", "en"])
    assert shown.exit_code == 0 and f"Puzzle {today.id}" in shown.output
    themed = runner.invoke(app, ["puzzle", "--theme", "joker-retrieval", "--lang", "en"])
    assert themed.exit_code == 0 and "Puzzle " in themed.output
    pid = themed.output.split()[1]
    assert "joker-retrieval" in next(p for p in shipped() if p.id == pid).themes
    bad = runner.invoke(app, ["puzzle", "--theme", "no-such-theme", "--lang", "en"])
    assert bad.exit_code == 1 and "No puzzle has the theme no-such-theme." in bad.output
