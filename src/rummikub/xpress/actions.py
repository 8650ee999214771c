"""What a player does in an Xpress turn: :class:`Throw` dice, :class:`Place` dice, :class:`EndTurn`.

A turn is one throw (on a player's first turn of a round, the roll made at the round's setup),
then any number of placements, then the end of the turn. Actions convert to and from JSON::

    {"action": "throw", "dice": [3, 7]}                 # faces filled in by the game
    {"action": "throw", "dice": [3, 7], "faces": ["K5", "J"]}
    {"action": "place", "dice": [3, 7, 9], "table": [["K5", "K6", "J"]]}
    {"action": "end"}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.core.errors import NotationError
from rummikub.core.table import Table
from rummikub.core.tiles import parse_tile

from .dice import Face

__all__ = ["EndTurn", "Place", "Throw", "XpressAction", "action_from_json"]


@dataclass(frozen=True, slots=True)
class Throw:
    """Throw these of the player's unplaced dice (by die index). ``faces`` is what came up, one
    per die, filled in by the game's seeded generator (or by a replay)."""

    dice: tuple[int, ...]
    faces: tuple[Face, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": "throw", "dice": list(self.dice)}
        if self.faces is not None:
            out["faces"] = [str(f) for f in self.faces]
        return out

    def __str__(self) -> str:
        shown = " ".join(
            f"{d}:{f}" for d, f in zip(self.dice, self.faces or (), strict=False)
        ) or " ".join(str(d) for d in self.dice)
        return f"throw {shown}"


@dataclass(frozen=True, slots=True)
class Place:
    """Put these dice (by index) from the hand onto the table; ``table`` is the complete new
    table (every die already on the table stays, each set valid)."""

    dice: tuple[int, ...]
    table: Table

    def to_json(self) -> dict[str, Any]:
        return {"action": "place", "dice": list(self.dice), "table": self.table.to_json()}

    def __str__(self) -> str:
        return f"place {' '.join(str(d) for d in self.dice)} -> {self.table}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn (allowed once a die was placed, or when nothing can be placed)."""

    def to_json(self) -> dict[str, Any]:
        return {"action": "end"}

    def __str__(self) -> str:
        return "end"


XpressAction = Throw | Place | EndTurn


def _dice(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise NotationError(f"{where} must be a list of die numbers")
    return tuple(value)


def _faces(value: Any, where: str) -> tuple[Face, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise NotationError(f"{where} must be a list of faces")
    return tuple(parse_tile(x, position=i) for i, x in enumerate(value))


def action_from_json(data: Any) -> XpressAction:
    """An action from its JSON object; bad input raises :class:`NotationError`."""
    if not isinstance(data, dict):
        raise NotationError("an Xpress action must be a JSON object")
    kind = data.get("action")
    if kind == "throw":
        faces = data.get("faces")
        return Throw(
            _dice(data.get("dice"), "throw dice"),
            _faces(faces, "throw faces") if faces is not None else None,
        )
    if kind == "place":
        return Place(
            _dice(data.get("dice"), "place dice"),
            Table.from_json(data.get("table"), where="place table"),
        )
    if kind == "end":
        return EndTurn()
    raise NotationError(f"unknown Xpress action {kind!r} (throw, place, end)")


def sorted_dice(dice: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(dice))
