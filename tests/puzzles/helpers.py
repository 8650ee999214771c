"""Small hand-made positions whose puzzles are known, shared by the puzzle tests."""

from __future__ import annotations

from rummikub.core import Rack, Table, preset
from rummikub.puzzles import Goal, Puzzle
from rummikub.puzzles.make import puzzles_at

STANDARD = preset("standard")


def make_one(table: str, rack: str, goal: Goal, *, opened: bool = True) -> Puzzle:
    """The puzzle of ``goal`` the position yields (the test fails if it yields none)."""
    found = [
        p
        for p in puzzles_at(Table.parse(table), Rack.parse(rack).tiles, opened, STANDARD)
        if p.goal is goal
    ]
    assert len(found) == 1, f"no {goal} puzzle in {table} / {rack}: {found}"
    return found[0]
