"""The dice of Rummikub Xpress: faces, dice, and dice layouts (default and custom).

A face is a :class:`~rummikub.core.tiles.Tile`: a number in a colour (``R7``) or the joker
(``J``), so the rules engine's melds judge dice sets unchanged. A :class:`Die` is six faces;
a :class:`Layout` is the 18 dice of a game. The default layout ships as data in
``layouts/default.json``; a custom layout is a JSON object ``{"name": ..., "dice": [[6 faces],
... 18 dice]}`` and is validated by :func:`check_layout`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rummikub.core.errors import NotationError, RulesError
from rummikub.core.tiles import JOKER, Tile, parse_tile

__all__ = [
    "DICE",
    "FACES_PER_DIE",
    "JOKER_FACES",
    "Die",
    "DieFace",
    "Face",
    "Layout",
    "check_layout",
    "default_layout",
    "face_value",
    "load_layout",
]

#: A face of a die is a tile: a colour and a number, or the joker.
Face = Tile

DICE = 18
FACES_PER_DIE = 6
JOKER_FACES = 4
COLOURS = 4
NUMBERS = 13
COPIES = 2
#: The points a joker face counts when it is left over at the end of a round.
JOKER_VALUE = 10


def face_value(face: Face, joker_value: int = JOKER_VALUE) -> int:
    """The points a face counts when the die is left over (its number; a joker 10)."""
    return joker_value if face.is_joker else face.number


def full_faces() -> Counter[Face]:
    """The faces all dice together must show: 1-13 in 4 colours twice over, plus 4 jokers."""
    faces: Counter[Face] = Counter(
        {Tile(c, n): COPIES for c in range(COLOURS) for n in range(1, NUMBERS + 1)}
    )
    faces[JOKER] = JOKER_FACES
    return faces


@dataclass(frozen=True, slots=True)
class Die:
    """One die: its index in the layout and its six faces."""

    index: int
    faces: tuple[Face, ...]

    def __str__(self) -> str:
        return f"die {self.index + 1} [{' '.join(str(f) for f in self.faces)}]"


@dataclass(frozen=True, slots=True, order=True)
class DieFace:
    """A die (by index) showing a face: what lies in a player's hand or on the table."""

    die: int
    face: Face

    def __str__(self) -> str:
        return f"{self.die}:{self.face}"


@dataclass(frozen=True, slots=True)
class Layout:
    """The 18 dice of a game. Build one with :func:`check_layout` (validated)."""

    name: str
    dice: tuple[Die, ...]

    def __len__(self) -> int:
        return len(self.dice)

    def __getitem__(self, i: int) -> Die:
        return self.dice[i]

    def faces_of(self, die: int) -> tuple[Face, ...]:
        return self.dice[die].faces

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "dice": [[str(f) for f in d.faces] for d in self.dice]}


def check_layout(data: Any) -> Layout:
    """Validate a layout (a decoded JSON object or a list of dice) and return it.

    A layout has 18 dice of 6 faces; every die shows six different faces; together the faces
    are 1-13 in the four colours twice over and 4 jokers. Any breach raises
    :class:`~rummikub.core.errors.RulesError` naming the die or face that is wrong.
    """
    name = "custom"
    raw = data
    if isinstance(data, dict):
        unknown = set(data) - {"name", "description", "dice"}
        if unknown:
            raise RulesError(f"unknown layout field {sorted(unknown)[0]!r}", field="layout")
        name_raw = data.get("name", "custom")
        if not isinstance(name_raw, str) or not name_raw:
            raise RulesError("layout name must be a non-empty string", field="layout.name")
        name = name_raw
        if "dice" not in data:
            raise RulesError("layout needs a 'dice' list", field="layout.dice")
        raw = data["dice"]
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise RulesError("layout dice must be a list of dice", field="layout.dice")
    if len(raw) != DICE:
        raise RulesError(f"a layout has {DICE} dice, this one has {len(raw)}", field="layout.dice")
    dice: list[Die] = []
    for i, die in enumerate(raw):
        where = f"die {i + 1}"
        if not isinstance(die, Sequence) or isinstance(die, str):
            raise RulesError(f"{where} must be a list of faces", field="layout.dice")
        if len(die) != FACES_PER_DIE:
            raise RulesError(
                f"{where} has {len(die)} faces, a die has {FACES_PER_DIE}", field="layout.dice"
            )
        faces: list[Face] = []
        for k, text in enumerate(die):
            if isinstance(text, Tile):
                face = text
            elif isinstance(text, str):
                try:
                    face = parse_tile(text, position=k)
                except NotationError as exc:
                    raise RulesError(f"{where}: {exc}", field="layout.dice") from None
            else:
                raise RulesError(f"{where} face {k + 1} must be a string", field="layout.dice")
            if not face.is_joker and not (
                0 <= face.colour < COLOURS and 1 <= face.number <= NUMBERS
            ):
                raise RulesError(
                    f"{where}: {face} is not an Xpress face (K, R, B, O 1-13 or J)",
                    field="layout.dice",
                )
            faces.append(face)
        dup = [f for f, c in Counter(faces).items() if c > 1]
        if dup:
            raise RulesError(
                f"{where} shows {dup[0]} twice; every die has six different faces",
                field="layout.dice",
            )
        dice.append(Die(i, tuple(faces)))
    have: Counter[Face] = Counter(f for d in dice for f in d.faces)
    want = full_faces()
    if have != want:
        extra = have - want
        missing = want - have
        parts = []
        if extra:
            parts.append("too many " + " ".join(str(f) for f in sorted(extra.elements())))
        if missing:
            parts.append("missing " + " ".join(str(f) for f in sorted(missing.elements())))
        raise RulesError(
            "the faces must be 1-13 in four colours twice over plus 4 jokers: " + "; ".join(parts),
            field="layout.dice",
        )
    return Layout(name, tuple(dice))


def load_layout(path: str | Path) -> Layout:
    """Read and validate a custom layout from a JSON file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RulesError(f"{path}: layout is not valid JSON ({exc})", field="layout") from None
    return check_layout(data)


@cache
def default_layout() -> Layout:
    """The default dice layout shipped with the package (``layouts/default.json``)."""
    text = resources.files("rummikub.xpress").joinpath("layouts/default.json").read_text("utf-8")
    return check_layout(json.loads(text))
