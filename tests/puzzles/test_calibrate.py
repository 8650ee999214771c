"""Simulated solvers: each bot level attempts a puzzle with its own move choice."""

from __future__ import annotations

from rummikub.puzzles import Goal
from rummikub.puzzles.calibrate import bot_solves, calibrate, game_state

from .helpers import make_one


def test_the_levels_attempt_with_their_own_moves() -> None:
    p = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT)
    state = game_state(p)
    assert state.racks[0] == p.rack and len(state.racks[1]) == 10 and len(state.pool) == 30
    assert bot_solves(p, "greedy", 1)  # the solver's most tiles: the whole rack
    assert not bot_solves(p, "beginner", 1)  # rack-only sets: nothing to lay


def test_calibration_rates_what_fewer_levels_solve_higher() -> None:
    easy = make_one("", "K5 K6 K7 R6 B6 O6 R11", Goal.OPEN, opened=False).with_rating(1500, 350)
    hard = make_one("K5 K6 K7 K8 | R1 R2 R3", "R8 B8 R4", Goal.GO_OUT).with_rating(1500, 350)
    cal = calibrate([easy, hard], ("beginner", "greedy"))
    assert cal.solved["beginner"] == {easy.id: True, hard.id: False}
    assert cal.solved["greedy"] == {easy.id: True, hard.id: True}
    assert cal.puzzles[hard.id].rating > cal.puzzles[easy.id].rating
    assert cal.levels["greedy"].rating > cal.levels["beginner"].rating
