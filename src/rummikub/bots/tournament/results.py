"""The results file of a tournament (JSON lines) and its game records, and resuming.

The first line describes the tournament (``{"type": "tournament", ...}``); each further line is
one finished game (``{"type": "game", ...}``). The game records (format ``rummikub-game/1``) go
one per line, in the same order, to a second file (by default ``OUT.records.jsonl``). A
re-run with the same settings skips the games already in the file and appends the rest.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummikub.core import RecordError

from .stats import GameOutcome

__all__ = ["GameResult", "ResultsFile", "TournamentConfig", "records_path"]

RESULTS_FORMAT = "rummikub-tournament/1"


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What makes two runs the same tournament (the game count may grow on a re-run)."""

    bots: tuple[str, ...]
    players: int
    seed: int
    rules: dict[str, Any]
    time_limit: float | None
    game: str = "tiles"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "tournament", "format": RESULTS_FORMAT, "game": self.game,
            "bots": list(self.bots), "players": self.players, "seed": self.seed,
            "rules": self.rules, "time_limit": self.time_limit,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Any) -> TournamentConfig:
        try:
            return cls(
                tuple(data["bots"]), int(data["players"]), int(data["seed"]),
                dict(data["rules"]), data["time_limit"], str(data.get("game", "tiles")),
            )  # fmt: skip
        except KeyError as exc:
            raise RecordError(f"bad tournament header: it has no {exc.args[0]!r} field") from None
        except (TypeError, ValueError) as exc:
            raise RecordError(f"bad tournament header: {exc}") from None

    def describe(self) -> str:
        """In words: ``greedy, expert; 2 players; seed 1`` (and the game, when not tiles)."""
        game = "" if self.game == "tiles" else f"{self.game}: "
        return f"{game}{', '.join(self.bots)}; {self.players} players; seed {self.seed}"


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game as written to the results file."""

    game: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    turns: int  # decisions in the game (one per turn in the tile game; an Xpress turn is several)
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]  # thinking time per seat
    problems: tuple[int, ...]  # timeouts, crashes, illegal answers per seat

    def outcome(self) -> GameOutcome:
        return GameOutcome(self.seats, self.winners, self.totals, self.rounds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "game", "game": self.game, "deal": self.deal, "rotation": self.rotation,
            "seed": self.seed, "seats": list(self.seats), "totals": list(self.totals),
            "winners": list(self.winners), "rounds": self.rounds, "turns": self.turns,
            "decisions": list(self.decisions),
            "seconds": [round(s, 4) for s in self.seconds], "problems": list(self.problems),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: Any) -> GameResult:
        try:
            return cls(
                int(d["game"]), int(d["deal"]), int(d["rotation"]), int(d["seed"]),
                tuple(d["seats"]), tuple(d["totals"]), tuple(d["winners"]), int(d["rounds"]),
                int(d["turns"]), tuple(d["decisions"]), tuple(d["seconds"]),
                tuple(d["problems"]),
            )  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"bad game line: {exc}") from None


def records_path(out: Path) -> Path:
    name = out.name[: -len(".jsonl")] if out.name.endswith(".jsonl") else out.name
    return out.with_name(name + ".records.jsonl")


class ResultsFile:
    """Open a results file for a tournament: a new one, or an existing one to resume."""

    def __init__(self, out: Path, config: TournamentConfig, *, records: Path | None = None,
                 fresh: bool = False) -> None:  # fmt: skip
        self.path = out
        self.records = records if records is not None else records_path(out)
        self.config = config
        self.done: dict[int, GameResult] = {}
        if fresh or not out.exists() or out.stat().st_size == 0:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(config.to_dict()) + "\n", encoding="utf-8")
            self.records.write_text("", encoding="utf-8")
        else:
            self._load()
        self._out = out.open("a", encoding="utf-8")
        self._rec = self.records.open("a", encoding="utf-8")

    def _load(self) -> None:
        good_bytes = 0
        header: TournamentConfig | None = None
        with self.path.open("rb") as fh:
            for lineno, raw in enumerate(fh, 1):
                if not raw.endswith(b"\n"):
                    break  # a line cut by an interruption: dropped
                try:
                    data = json.loads(raw)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"{self.path}:{lineno}: not valid JSON ({exc.msg})") from exc
                if lineno == 1:
                    header = TournamentConfig.from_dict(data)
                else:
                    res = GameResult.from_dict(data)
                    self.done[res.game] = res
                good_bytes += len(raw)
        if header is None:
            raise RecordError(f"{self.path}: no tournament header")
        if header != self.config:
            fields = ("game", "bots", "players", "seed", "rules", "time_limit")
            differ = [f for f in fields if getattr(header, f) != getattr(self.config, f)]
            raise RecordError(
                f"{self.path} holds another tournament ({header.describe()}): it differs "
                f"from this run's ({self.config.describe()}) in its "
                f"{', '.join(d.replace('_', ' ') for d in differ)}; use another --out, or "
                "--fresh to overwrite it"
            )
        with self.path.open("r+b") as fh:
            fh.truncate(good_bytes)
        # keep exactly one record per finished game (a record is written before its result)
        kept = 0
        keep_bytes = 0
        if self.records.exists():
            with self.records.open("rb") as fh:
                for raw in fh:
                    if kept >= len(self.done) or not raw.endswith(b"\n"):
                        break
                    kept += 1
                    keep_bytes += len(raw)
            with self.records.open("r+b") as fh:
                fh.truncate(keep_bytes)

    def add(self, result: GameResult, record: dict[str, Any]) -> None:
        self._rec.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._rec.flush()
        self._out.write(json.dumps(result.to_dict()) + "\n")
        self._out.flush()
        self.done[result.game] = result

    def close(self) -> None:
        self._out.close()
        self._rec.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
