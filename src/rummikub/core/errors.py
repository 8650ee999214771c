"""The error hierarchy of the rules engine.

Every error is a :class:`ValueError`, so callers that only care about "bad input" can catch that.
Each message names the offending token, meld, field or rule.
"""

from __future__ import annotations

__all__ = ["IllegalPlayError", "NotationError", "RecordError", "RulesError", "RummikubError"]


class RummikubError(ValueError):
    """Base class of every error raised by the rules engine."""


class NotationError(RummikubError):
    """Text that is not valid notation (a tile, meld, table, rack, play or record field)."""

    def __init__(self, message: str, *, token: str | None = None, position: int | None = None):
        self.token = token
        self.position = position
        where = ""
        if token is not None:
            where = f" (token {token!r}"
            where += f" at position {position})" if position is not None else ")"
        super().__init__(message + where)


class IllegalPlayError(RummikubError):
    """An action that breaks the rules of the game in the current state.

    ``reason`` is a short machine-readable code (``"invalid-meld"``, ``"not-on-rack"``...);
    the message explains it for people.
    """

    def __init__(self, message: str, *, reason: str = "illegal", meld: int | None = None):
        self.reason = reason
        self.meld = meld
        super().__init__(message)


class RulesError(RummikubError):
    """An invalid rules object: unknown field, value out of range, inconsistent options."""

    def __init__(self, message: str, *, field: str | None = None):
        self.field = field
        super().__init__(message)


class RecordError(RummikubError):
    """A game record that is malformed or does not replay: names the round and turn."""

    def __init__(self, message: str, *, round: int | None = None, turn: int | None = None):
        self.round = round
        self.turn = turn
        where = ""
        if round is not None:
            where = f"round {round + 1}"
            if turn is not None:
                where += f", turn {turn + 1}"
            where += ": "
        super().__init__(where + message)
