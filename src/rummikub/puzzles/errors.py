"""The errors of the puzzles: every one a :class:`ValueError` with a stable ``code`` and its
``params``, as the engine's errors (:mod:`rummikub.core.errors`) are. Interfaces word them from
the message catalogue (``error.<code>``); ``str(err)`` is English for developers and logs."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from rummikub.core import RummikubError
from rummikub.core.errors import Param

__all__ = ["PuzzleCode", "PuzzleError"]


class PuzzleCode(StrEnum):
    """What is wrong with a puzzle, a puzzle file or a request about puzzles."""

    #: ``id``, ``why``: a puzzle that does not verify (``why`` says what is wrong)
    BAD_PUZZLE = "puzzle-bad"
    #: ``line``, ``why``: a line of a puzzle file that is not a puzzle at all (bad JSON, a
    #: missing field, another format version)
    BAD_PUZZLE_LINE = "puzzle-bad-line"
    #: ``id``: no puzzle of that id in the set
    UNKNOWN_PUZZLE = "puzzle-unknown"
    #: ``theme``: no puzzle of the set has that theme
    UNKNOWN_THEME = "puzzle-unknown-theme"
    #: ``path``, ``why``: the player's puzzle file could not be read
    BAD_STORE = "puzzle-bad-store"


class PuzzleError(RummikubError):
    """A refused puzzle, puzzle file or puzzle request: ``code`` (a :class:`PuzzleCode`) and
    ``params`` say which and why."""

    code: PuzzleCode  # type: ignore[assignment]  # the puzzles' own codes, worded alike

    def __init__(
        self, message: str, *, code: PuzzleCode, params: Mapping[str, Param] | None = None
    ) -> None:
        super().__init__(message, params=params)
        self.code = code
