"""Checking answers: any answer that reaches the goal is right; a wrong one says why."""

from __future__ import annotations

from rummikub.core import Play
from rummikub.puzzles import Goal, check_answer, hint, solution_layout

from .helpers import make_one


def test_a_right_answer_not_among_the_stored_ones() -> None:
    p = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT)
    other = Play.parse("R8 B8 R4 -> K5 K6 K7 | R8 B8 K8 | R1 R2 R3 R4")
    assert other.table not in {s.table for s in p.solutions}  # written in its own order
    assert check_answer(p, other).solved
    # the same tiles laid out another way is right too
    again = Play.parse("R4 R8 B8 -> R1 R2 R3 R4 | K8 R8 B8 | K5 K6 K7")
    assert check_answer(p, again).solved


def test_an_invalid_set_is_named() -> None:
    p = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    v = check_answer(p, Play.parse("R8 B8 -> K5 K6 K7 K8 | R8 B8"))
    assert not v.solved
    assert v.code == "invalid-meld"
    assert v.params["meld"] == "R8 B8"


def test_tiles_short_of_the_goal() -> None:
    p = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT)
    v = check_answer(p, Play.parse("R4 -> K5 K6 K7 K8 | R1 R2 R3 R4"))
    assert (v.solved, v.code) == (False, "puzzle-short")
    assert v.params == {"needed": 3, "placed": 1, "count": 2}


def test_tiles_not_on_the_rack_and_table_tiles_lost() -> None:
    p = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    assert check_answer(p, Play.parse("R9 B8 -> K5 K6 K7 | K8 R9 B8")).code == "not-on-rack"
    v = check_answer(p, Play.parse("R8 B8 -> K6 K7 K8 | K8 R8 B8"))
    assert not v.solved


def test_a_legal_play_that_keeps_the_joker_is_not_freeing_it() -> None:
    p = make_one("R5 R6 J", "R7 K9 B9 O2", Goal.FREE_JOKER)
    v = check_answer(p, Play.parse("R7 -> R5 R6 R7 J"))
    assert (v.solved, v.code) == (False, "puzzle-joker-not-freed")
    assert check_answer(p, Play.parse("R7 K9 B9 -> R5 R6 R7 | K9 B9 J")).solved


def test_hints_break_then_build() -> None:
    p = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8", Goal.GO_OUT)
    first, second = hint(p, 1), hint(p, 2)
    assert first.key == "puzzle.hint.break" and first.params["meld"] == "K5 K6 K7 K8"
    assert second.key == "puzzle.hint.build" and second.params["meld"] == "K8 R8 B8"


def test_the_solution_marks_rack_and_moved_tiles() -> None:
    p = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT)
    marks = {(m.label, m.mark) for meld in solution_layout(p) for m in meld}
    assert {("R8", "rack"), ("B8", "rack"), ("K8", "moved")} <= marks
    assert ("K5", "kept") in marks
