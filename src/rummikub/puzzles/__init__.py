"""Puzzles: positions where the table hides the way to a goal (go out, place the most tiles,
open, free the joker), their file format, the making of them from game records and self-play,
checking answers, hints, ratings (Glicko-2) and the daily puzzle. See docs/puzzles.md.

Pure logic over the engine and the solver: the terminal, the command line and (later) the web
server use it; it imports none of them."""

from __future__ import annotations

from .check import Hint, Verdict, check_answer, frees_joker, hint, solution_layout
from .errors import PuzzleCode, PuzzleError
from .model import FORMAT, GOALS, Goal, Puzzle, Source, puzzle_id

__all__ = [
    "FORMAT",
    "GOALS",
    "Goal",
    "Hint",
    "Puzzle",
    "PuzzleCode",
    "PuzzleError",
    "Source",
    "Verdict",
    "check_answer",
    "frees_joker",
    "hint",
    "puzzle_id",
    "solution_layout",
]
