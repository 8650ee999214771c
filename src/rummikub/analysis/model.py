"""The analysis of a game: one :class:`TurnAnalysis` per turn, and a summary per player."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummikub.core import Table, Tile

from .verdicts import VERDICTS, Finding, Verdict, accuracy, move_accuracy, verdict
from .xpress_throws import ThrowJudgement

__all__ = ["FORMAT", "VERSION", "GameAnalysis", "Judged", "PlayerSummary", "TurnAnalysis"]

FORMAT = "rummikub-analysis/2"
#: which judging made an analysis: changes whenever the same record would be judged otherwise
#: (a server keeps analyses and makes them again when this changes)
VERSION = "4"


@dataclass(frozen=True, slots=True)
class TurnAnalysis:
    """One turn judged from the mover's observation (docs/formats.md, "Game analysis"): what
    he did (``action``, the pieces he ``placed`` and their ``points``), the best move of the
    position (``best_action``; for a play the pieces it places, ``best_pieces``, their
    ``best_points``, the table after it, ``best``, and the indices of its new or changed melds,
    ``best_changed``), the mover's chance to win before and after (``win_chance``), the points
    of win chance the move lost (``loss``), every seat's chance after it (``chances``) and the
    ``verdict``. The facts: ``most_points`` any move could place, ``lost`` = most_points −
    points, ``could_go_out``, ``findings``."""

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
    win_chance: tuple[float, float] | None = None
    loss: float | None = None
    chances: tuple[float, ...] | None = None
    best_action: str = ""
    best_changed: tuple[int, ...] = ()
    most_points: int = 0

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
        most_placed: Sequence[Tile] | None = None,
        judged: Judged,
        before: Table | None = None,
    ) -> TurnAnalysis:
        """A turn in which the mover, holding ``held``, placed ``placed`` where the best move
        placed ``best_placed`` (making ``best_table``) and the move placing the most points
        placed ``most_placed`` (default: ``best_placed``); pieces count ``value`` points each.
        ``opened``: whether he had made his opening before the turn. ``judged``: the
        evaluation's judgement (the verdict is read from its loss).
        ``before``: the table before the move (to mark the best move's changed melds)."""
        points = sum(value(x) for x in placed)
        most = best_placed if most_placed is None else most_placed
        most_points = sum(value(x) for x in most)
        could_go_out = bool(held) and len(most) == len(held)
        lost = max(0, most_points - points)
        missed_out = could_go_out and len(placed) < len(held)
        findings: list[Finding] = []
        if missed_out:
            findings.append("missed-out")
        if most and not placed and not invalid:
            findings.append("drew-with-play" if opened else "missed-opening")
        if any(x.is_joker for x in placed if isinstance(x, Tile)) and len(placed) < len(held):
            findings.append("joker-given")
        judgement = verdict(
            forced=judged.forced, loss=judged.loss, missed_out=missed_out, invalid=invalid
        )
        changed: tuple[int, ...] = ()
        if best_placed and before is not None:
            old = Counter(_meld_key(m.tiles) for m in before.melds)
            changed = tuple(
                i for i, m in enumerate(best_table.melds) if old[_meld_key(m.tiles)] == 0
            )
        return cls(
            round=round,
            turn=turn,
            player=player,
            action=action,
            verdict=judgement,
            placed=tuple(str(x) for x in placed),
            points=points,
            best_pieces=tuple(str(x) for x in best_placed),
            best_points=sum(value(x) for x in best_placed),
            lost=lost,
            best=best_table.to_json() if best_placed else None,
            could_go_out=could_go_out,
            findings=tuple(findings),
            ms=ms,
            win_chance=(judged.before, judged.after),
            loss=judged.loss,
            chances=judged.chances,
            best_action=judged.best_action,
            best_changed=changed,
            most_points=most_points,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round, "turn": self.turn, "player": self.player,
            "action": self.action, "verdict": self.verdict,
        }  # fmt: skip
        if self.win_chance is not None:
            before, after = self.win_chance
            out["win_chance"] = {"before": round(before, 3), "after": round(after, 3)}
        if self.loss is not None:
            out["loss"] = round(self.loss, 1)
        if self.chances is not None:
            out["chances"] = [round(x, 3) for x in self.chances]
        out.update({
            "best_action": self.best_action, "best_placed": list(self.best_pieces),
            "best_points": self.best_points, "best": self.best,
            "best_changed": list(self.best_changed), "placed": list(self.placed),
            "points": self.points, "most_points": self.most_points, "lost": self.lost,
            "could_go_out": self.could_go_out, "findings": list(self.findings),
        })  # fmt: skip
        if self.ms is not None:
            out["ms"] = self.ms
        if self.throw is not None:
            out["throw"] = self.throw.to_json()
        return out

    def move_score(self) -> float | None:
        """This turn's accuracy (0-100), ``None`` for a forced one."""
        if self.verdict == "forced":
            return None
        if self.loss is not None:
            if "missed-out" in self.findings or self.action == "invalid":
                return 0.0
            return move_accuracy(self.loss)
        best = self.most_points + (round(self.throw.best_expected) if self.throw else 0)
        got = min(self.points, self.most_points) + (
            min(round(self.throw.expected), round(self.throw.best_expected)) if self.throw else 0
        )
        return 100.0 * got / best if best > 0 else 100.0


def _meld_key(tiles: Sequence[object]) -> tuple[str, ...]:
    return tuple(sorted(str(t) for t in tiles))


@dataclass(frozen=True, slots=True)
class Judged:
    """The evaluation's judgement of a move: the mover's chance to win the match before (the
    best move's) and after his move, every seat's chance after the move, whether he had no
    choice, the kind of the best move, and how much of the difference is in doubt; ``loss``,
    the points of win chance lost, is the difference less that doubt."""

    before: float
    after: float
    chances: tuple[float, ...]
    forced: bool
    best_action: str
    #: the share of the difference the sampled deals leave in doubt (0..1): the loss counts
    #: only what is beyond one standard error of the paired difference
    doubt: float = 0.0
    #: the loss, when the judge worked it out itself (Xpress: the placement's, computed as
    #: above from its own ranking)
    loss_given: float | None = None

    @property
    def loss(self) -> float:
        if self.loss_given is not None:
            return self.loss_given
        return max(0.0, 100.0 * (self.before - self.after) * (1.0 - self.doubt))


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    name: str
    bot: str | None
    accuracy: float | None
    verdicts: dict[str, int]
    lost: int
    loss: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "bot": self.bot, "accuracy": self.accuracy,
            "loss": None if self.loss is None else round(self.loss, 1),
            "verdicts": self.verdicts, "lost": self.lost,
        }  # fmt: skip


@dataclass(slots=True)
class GameAnalysis:
    """A whole record analysed: its game, its players, every turn and the depth it was
    judged at."""

    game: str
    players: list[tuple[str, str | None]]
    turns: list[TurnAnalysis] = field(default_factory=list)
    depth: str = "default"

    def summary(self) -> list[PlayerSummary]:
        out = []
        for seat, (name, bot) in enumerate(self.players):
            mine = [t for t in self.turns if t.player == seat]
            counts: dict[str, int] = {v: sum(1 for t in mine if t.verdict == v) for v in VERDICTS}
            scores = [s for t in mine if (s := t.move_score()) is not None]
            losses = [t.loss for t in mine if t.loss is not None and t.verdict != "forced"]
            out.append(
                PlayerSummary(
                    name, bot, accuracy(scores), counts, sum(t.lost for t in mine),
                    sum(losses) / len(losses) if losses else None,
                )
            )  # fmt: skip
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "depth": self.depth,
            "players": [p.to_json() for p in self.summary()],
            "turns": [t.to_json() for t in self.turns],
        }
