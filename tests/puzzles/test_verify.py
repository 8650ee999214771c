"""A puzzle file that does not verify is refused with the puzzle's id and the reason."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from rummikub.core import Rules
from rummikub.puzzles import Goal, Puzzle, PuzzleCode, PuzzleError
from rummikub.puzzles.verify import load_puzzles, verify, write_puzzles

from .helpers import make_one


def _file(tmp_path: Path, *objs: dict[str, Any]) -> Path:
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return path


def _good() -> dict[str, Any]:
    return make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT).to_json()


def _refused(tmp_path: Path, obj: dict[str, Any], why: str, *, full: bool = False) -> None:
    with pytest.raises(PuzzleError) as info:
        load_puzzles(_file(tmp_path, obj), full=full)
    assert info.value.code is PuzzleCode.BAD_PUZZLE
    assert info.value.params["id"] == obj["id"]
    assert why in str(info.value.params["why"])


def test_a_good_file_round_trips(tmp_path: Path) -> None:
    p = Puzzle.from_json(_good())
    out = tmp_path / "p.jsonl.gz"
    assert write_puzzles([p], out) == 1
    again = load_puzzles(out, full=True)
    assert again == [p]


def test_a_puzzle_of_rules_no_preset_has_round_trips(tmp_path: Path) -> None:
    """Rules that are no preset (numbers 1-9, one copy) are written whole, as an
    object, and read back the same (they were written as JSON text and read as a preset's
    name, which failed)."""
    rules = Rules.from_dict({"preset": "standard", "numbers": 9, "copies": 1, "rack_size": 6})
    p = dataclasses.replace(Puzzle.from_json(_good()), rules=rules)
    data = p.to_json()
    assert isinstance(data["rules"], dict) and data["rules"]["numbers"] == 9
    assert Puzzle.from_json(json.loads(json.dumps(data))) == p
    out = tmp_path / "p.jsonl"
    assert write_puzzles([p], out) == 1
    assert load_puzzles(out, full=True) == [p]


def test_an_impossible_table(tmp_path: Path) -> None:
    _refused(tmp_path, _good() | {"table": [["K5", "K6", "K8"]]}, "impossible position")
    _refused(tmp_path, _good() | {"rack": ["R8", "R8", "R8"]}, "impossible position")


def test_a_solution_that_is_not_one(tmp_path: Path) -> None:
    bad = _good()
    bad["solutions"] = [{"play": ["R8", "B8"], "table": [["K5", "K6", "K7", "K8"], ["R8", "B8"]]}]
    _refused(tmp_path, bad, "solution 1 is not one (invalid-meld")


def test_no_solution_and_a_goal_that_does_not_fit(tmp_path: Path) -> None:
    _refused(tmp_path, _good() | {"solutions": []}, "no solution stored")
    _refused(tmp_path, _good() | {"target": 3}, "go-out target 3")
    _refused(tmp_path, _good() | {"goal": "open"}, "goal open with opened=true")
    _refused(tmp_path, _good() | {"goal": "free-joker"}, "free-joker needs a joker")


def test_the_full_check_catches_a_wrong_target_and_a_naive_answer(tmp_path: Path) -> None:
    most = make_one("K5 K6 K7 K8", "R8 B8 O1", Goal.MOST_TILES).to_json()
    most["target"] = 1
    most["solutions"] = [{"play": ["R8", "B8"], "table": [["K5", "K6", "K7"], ["K8", "R8", "B8"]]}]
    _refused(tmp_path, most, "the most that can be placed is 2", full=True)
    naive = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT).to_json()
    naive["table"] = [["R5", "R6", "R7"]]
    naive["rack"] = ["R8", "R9"]
    naive["solutions"] = [{"play": ["R8", "R9"], "table": [["R5", "R6", "R7", "R8", "R9"]]}]
    _refused(tmp_path, naive, "the naive ways reach the goal", full=True)


def test_a_repeated_id_and_a_line_that_is_no_puzzle(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="used twice"):
        load_puzzles(_file(tmp_path, _good(), _good()))
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(_good()) + "\n{not json\n")
    with pytest.raises(PuzzleError) as info:
        load_puzzles(path)
    assert info.value.code is PuzzleCode.BAD_PUZZLE_LINE and info.value.params["line"] == 2
    with pytest.raises(PuzzleError) as info:
        load_puzzles(_file(tmp_path, _good() | {"format": "rummikub-puzzle/9"}))
    assert "rummikub-puzzle/1" in str(info.value)


def test_verify_accepts_the_made_puzzles() -> None:
    for goal, table, rack in (
        (Goal.GO_OUT, "K5 K6 K7 K8", "R8 B8"),
        (Goal.FREE_JOKER, "R5 R6 J", "R7 K9 B9 O2"),
    ):
        verify(make_one(table, rack, goal), full=True)
