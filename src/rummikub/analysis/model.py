"""The analysis of a game: one :class:`TurnAnalysis` per turn, and a summary per player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummikub.core import Table, Tile

from .verdicts import VERDICTS, Finding, Verdict, accuracy, verdict
from .xpress_throws import ThrowJudgement

__all__ = ["FORMAT", "VERSION", "GameAnalysis", "PlayerSummary", "TurnAnalysis"]

FORMAT = "rummikub-analysis/1"
#: which judging made an analysis: changes whenever the same record would be judged otherwise
#: (a server keeps analyses and makes them again when this changes)
VERSION = "2"


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn judged from the mover's observation: what he did (``action``, the pieces he
    placed and their points) against the best move of the position (``best_pieces`` placed for
    ``best_points``; ``best`` the complete table after it, ``None`` when nothing could be
    placed), the points he ``lost`` and the ``verdict``."""

    round: int
    turn: int
    player: int
    action: str
    verdict: Verdict
    placed: tuple[str, ...]
    points: int
    best_pieces: tuple[str, ...]
    best_points: int
    lost: int
    best: list[list[str]] | None
    could_go_out: bool
    findings: tuple[Finding, ...] = ()
    ms: int | None = None
    throw: ThrowJudgement | None = None  # an Xpress turn's choice of dice to throw again
    #: the mover's chance to win the round before and after his move (when asked for)
    win_chance: tuple[float, float] | None = None

    @classmethod
    def of(
        cls,
        *,
        round: int,
        turn: int,
        player: int,
        action: str,
        held: Sequence[Tile],
        placed: Sequence[Tile],
        best_placed: Sequence[Tile],
        best_table: Table,
        value: Callable[[Tile], int],
        invalid: bool = False,
        opened: bool = True,
        ms: int | None = None,
    ) -> TurnAnalysis:
        """A turn in which the mover, holding ``held``, placed ``placed`` where the best move
        placed ``best_placed`` (making ``best_table``); pieces count ``value`` points each.
        ``opened``: whether he had made his opening before the turn."""
        points = sum(value(x) for x in placed)
        best_points = sum(value(x) for x in best_placed)
        could_go_out = bool(held) and len(best_placed) == len(held)
        lost = max(0, best_points - points)
        findings: list[Finding] = []
        if could_go_out and len(placed) < len(held):
            findings.append("missed-out")
        if best_placed and not placed and not invalid:
            findings.append("drew-with-play" if opened else "missed-opening")
        if any(x.is_joker for x in placed if isinstance(x, Tile)) and len(placed) < len(held):
            findings.append("joker-given")
        return cls(
            round=round,
            turn=turn,
            player=player,
            action=action,
            verdict=verdict(
                could_place=bool(best_placed),
                lost=lost,
                missed_out=could_go_out and len(placed) < len(held),
                invalid=invalid,
            ),
            placed=tuple(str(x) for x in placed),
            points=points,
            best_pieces=tuple(str(x) for x in best_placed),
            best_points=best_points,
            lost=lost,
            best=best_table.to_json() if best_placed else None,
            could_go_out=could_go_out,
            findings=tuple(findings),
            ms=ms,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round, "turn": self.turn, "player": self.player,
            "action": self.action, "verdict": self.verdict, "placed": list(self.placed),
            "points": self.points, "best_placed": list(self.best_pieces),
            "best_points": self.best_points, "lost": self.lost, "best": self.best,
            "could_go_out": self.could_go_out, "findings": list(self.findings),
        }  # fmt: skip
        if self.ms is not None:
            out["ms"] = self.ms
        if self.throw is not None:
            out["throw"] = self.throw.to_json()
        if self.win_chance is not None:
            before, after = self.win_chance
            out["win_chance"] = {"before": round(before, 3), "after": round(after, 3)}
        return out


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    name: str
    bot: str | None
    accuracy: float | None
    verdicts: dict[str, int]
    lost: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "bot": self.bot, "accuracy": self.accuracy,
            "verdicts": self.verdicts, "lost": self.lost,
        }  # fmt: skip


@dataclass(slots=True)
class GameAnalysis:
    """A whole record analysed: its game, its players and every turn."""

    game: str
    players: list[tuple[str, str | None]]
    turns: list[TurnAnalysis] = field(default_factory=list)

    def summary(self) -> list[PlayerSummary]:
        out = []
        for seat, (name, bot) in enumerate(self.players):
            mine = [t for t in self.turns if t.player == seat]
            counts: dict[str, int] = {v: sum(1 for t in mine if t.verdict == v) for v in VERDICTS}
            gains = [(t.points, t.best_points) for t in mine if t.verdict != "forced"]
            gains += [
                (round(t.throw.expected), round(t.throw.best_expected))
                for t in mine
                if t.throw is not None
            ]
            out.append(PlayerSummary(name, bot, accuracy(gains), counts, sum(t.lost for t in mine)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "players": [p.to_json() for p in self.summary()],
            "turns": [t.to_json() for t in self.turns],
        }
