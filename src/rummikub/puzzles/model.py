"""The puzzle value and its JSON form (``rummikub-puzzle/1``, see docs/formats.md)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from rummikub.core import PRESETS, Play, Rack, Rules, Table, Tile, preset
from rummikub.core.tiles import parse_tile, sort_key

from .errors import PuzzleCode, PuzzleError

__all__ = [
    "FORMAT",
    "GOALS",
    "Goal",
    "Puzzle",
    "Source",
    "puzzle_id",
    "rules_from_json",
    "rules_to_json",
]

#: the name and version of the puzzle format; a puzzle of another version is refused
FORMAT = "rummikub-puzzle/1"


class Goal(StrEnum):
    """What the player has to do."""

    #: place every tile of the rack
    GO_OUT = "go-out"
    #: place at least ``target`` tiles (the most any play places)
    MOST_TILES = "most-tiles"
    #: make the opening meld(s) from the rack (not yet opened)
    OPEN = "open"
    #: take a joker of the table into a new set made with tiles from the rack
    FREE_JOKER = "free-joker"


GOALS: tuple[Goal, ...] = tuple(Goal)

#: the starting rating and rating deviation of a new puzzle or player (Glicko-2's defaults)
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0


def rules_to_json(rules: Rules) -> str | dict[str, Any]:
    """A preset's name when ``rules`` is exactly that preset, else the full rules object."""
    for name in PRESETS:
        if preset(name) == rules:
            return name
    return rules.to_dict()


def rules_from_json(data: object) -> Rules:
    if isinstance(data, str):
        return preset(data)
    return Rules.from_dict(data)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a puzzle comes from: the game record's seed, round and turn (0-based), and the
    seat of the player to move."""

    seed: int | None
    round: int
    turn: int
    player: int

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "round": self.round, "turn": self.turn, "player": self.player}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Source:
        seed = data.get("seed")
        return cls(
            None if seed is None else int(seed),
            int(data["round"]),
            int(data["turn"]),
            int(data["player"]),
        )


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: a position (``table``, ``rack``, ``opened``, ``rules``), a ``goal`` (with its
    ``target``: the number of rack tiles to place; for ``free-joker`` the joker meld's
    index, for ``open`` the tiles of the best opening), every best solution found, the
    computed ``themes`` and the puzzle's ``rating`` (Glicko-2: rating, deviation)."""

    id: str
    rules: Rules
    table: Table
    rack: Rack
    opened: bool
    goal: Goal
    target: int
    solutions: tuple[Play, ...]
    themes: tuple[str, ...] = ()
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    naive: int = 0
    source: Source | None = None

    def with_rating(self, rating: float, rd: float) -> Puzzle:
        return replace(self, rating=rating, rd=rd)

    def position(self) -> dict[str, Any]:
        """The solver's position object (docs/formats.md)."""
        return {
            "table": self.table.to_json(),
            "rack": self.rack.to_json(),
            "opened": self.opened,
            "rules": rules_to_json(self.rules),
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "id": self.id,
            **self.position(),
            "goal": self.goal.value,
            "target": self.target,
            "solutions": [
                {"play": [str(t) for t in s.tiles], "table": s.table.to_json()}
                for s in self.solutions
            ],
            "themes": list(self.themes),
            "rating": round(self.rating, 1),
            "rd": round(self.rd, 1),
            "naive": self.naive,
        }
        if self.source is not None:
            out["source"] = self.source.to_json()
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: object, *, line: int | None = None) -> Puzzle:
        """Read one puzzle object. Raises :class:`PuzzleError` (``puzzle-bad-line``) when it is
        not one (not an object, another format, a missing or mistyped field, bad notation);
        whether it *verifies* is :func:`rummikub.puzzles.verify.verify`'s business."""
        where = {"line": line if line is not None else 0}
        if not isinstance(data, dict):
            raise _line_error("not a JSON object", where)
        if data.get("format") != FORMAT:
            raise _line_error(f"format {data.get('format')!r} is not {FORMAT!r}", where)
        ident = data.get("id")
        try:
            if not isinstance(ident, str) or not ident:
                raise ValueError("no id")
            goal = Goal(data["goal"])
            sols = []
            for s in data["solutions"]:
                tiles = tuple(parse_tile(t) for t in s["play"])
                sols.append(Play(tiles, Table.from_json(s["table"])))
            src = data.get("source")
            return cls(
                id=ident,
                rules=rules_from_json(data.get("rules", "standard")),
                table=Table.from_json(data["table"]),
                rack=Rack(tuple(parse_tile(t) for t in data["rack"])),
                opened=bool(data["opened"]),
                goal=goal,
                target=int(data["target"]),
                solutions=tuple(sols),
                themes=tuple(str(t) for t in data.get("themes", ())),
                rating=float(data.get("rating", DEFAULT_RATING)),
                rd=float(data.get("rd", DEFAULT_RD)),
                naive=int(data.get("naive", 0)),
                source=Source.from_json(src) if isinstance(src, dict) else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            why = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise PuzzleError(
                f"puzzle {ident!r}: {why}",
                code=PuzzleCode.BAD_PUZZLE,
                params={"id": str(ident), "why": why},
            ) from exc


def _line_error(why: str, where: dict[str, int]) -> PuzzleError:
    return PuzzleError(
        f"line {where['line']}: {why}",
        code=PuzzleCode.BAD_PUZZLE_LINE,
        params={**where, "why": why},
    )


def puzzle_id(
    table: Table, rack: Rack | tuple[Tile, ...], opened: bool, goal: Goal, rules: Rules
) -> str:
    """A short stable id from the position and the goal: the same position and goal always
    get the same id (so duplicates are found), different ones (almost surely) not."""
    melds = sorted(str(m) for m in table.melds)
    tiles = " ".join(str(t) for t in sorted(rack, key=sort_key))
    named = json.dumps(rules_to_json(rules), sort_keys=True)
    text = f"{named}/{' | '.join(melds)}/{tiles}/{int(opened)}/{goal.value}"
    return hashlib.sha1(text.encode()).hexdigest()[:8]
