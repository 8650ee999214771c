"""The local player's puzzle rating and history (the terminal's ``rummikub puzzle``): one
small JSON file, ``$XDG_DATA_HOME/rummikub/puzzles.json`` (default
``~/.local/share/rummikub/puzzles.json``), written atomically after every attempt."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import PuzzleCode, PuzzleError
from .model import Puzzle
from .rating import Rating, attempt

__all__ = ["Attempt", "PlayerStore", "default_path"]

#: the most attempts the history keeps (the oldest are dropped)
HISTORY = 1000


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rummikub" / "puzzles.json"


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt: the puzzle, whether it was solved, the day, the ratings after it, and
    the mode (``rated``, ``daily``, ``streak``)."""

    id: str
    solved: bool
    date: str
    rating: float
    puzzle_rating: float
    mode: str = "rated"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "solved": self.solved,
            "date": self.date,
            "rating": round(self.rating, 1),
            "puzzle_rating": round(self.puzzle_rating, 1),
            "mode": self.mode,
        }


@dataclass
class PlayerStore:
    """The player's rating, history, best streak and the puzzles' own ratings as this player's
    attempts moved them (the shipped set is read-only)."""

    path: Path
    rating: Rating = field(default_factory=Rating)
    history: list[Attempt] = field(default_factory=list)
    best_streak: int = 0
    puzzle_ratings: dict[str, Rating] = field(default_factory=dict)

    @classmethod
    def open(cls, path: Path | None = None) -> PlayerStore:
        p = path or default_path()
        if not p.exists():
            return cls(p)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            r = data.get("rating", {})
            hist = [Attempt(**a) for a in data.get("history", [])]
            ratings = {
                k: Rating(float(v["rating"]), float(v["rd"]), float(v["volatility"]))
                for k, v in data.get("puzzles", {}).items()
            }
            return cls(
                p,
                Rating(float(r["rating"]), float(r["rd"]), float(r["volatility"]))
                if r
                else Rating(),
                hist,
                int(data.get("best_streak", 0)),
                ratings,
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise PuzzleError(
                f"cannot read {p}: {exc}",
                code=PuzzleCode.BAD_STORE,
                params={"path": str(p), "why": str(exc)},
            ) from exc

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "format": "rummikub-puzzle-player/1",
            "rating": self.rating.to_json(),
            "best_streak": self.best_streak,
            "history": [a.to_json() for a in self.history[-HISTORY:]],
            "puzzles": {k: v.to_json() for k, v in sorted(self.puzzle_ratings.items())},
        }
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        return self.puzzle_ratings.get(puzzle.id, Rating(puzzle.rating, puzzle.rd))

    def record(
        self, puzzle: Puzzle, solved: bool, *, mode: str = "rated", day: dt.date | None = None
    ) -> Attempt:
        """Rate an attempt (the first at a puzzle only: a puzzle seen before is practice and
        changes no rating), add it to the history and save."""
        first = all(a.id != puzzle.id for a in self.history)
        mine, theirs = self.rating, self.puzzle_rating(puzzle)
        if first:
            mine, theirs = attempt(mine, theirs, solved)
            self.rating = mine
            self.puzzle_ratings[puzzle.id] = theirs
        a = Attempt(
            puzzle.id,
            solved,
            (day or dt.date.today()).isoformat(),
            mine.rating,
            theirs.rating,
            mode,
        )
        self.history.append(a)
        self.save()
        return a

    def done(self) -> set[str]:
        return {a.id for a in self.history}
