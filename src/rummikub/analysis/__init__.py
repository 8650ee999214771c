"""Game analysis: every turn of a record judged against the best move of its position, from
the mover's own observation (``rummikub analyse``). See :mod:`.verdicts` for the verdicts and
their thresholds, ``docs/formats.md`` for the JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rummikub.core import RulesError
from rummikub.games import AnyRecord

from .model import FORMAT, VERSION, GameAnalysis, PlayerSummary, TurnAnalysis
from .tiles import judge_tile_turn, tile_turns
from .verdicts import FINDINGS, THRESHOLDS, VERDICTS, Finding, Verdict, accuracy, verdict
from .xpress import judge_xpress_turn, xpress_turns

__all__ = [
    "FINDINGS",
    "FORMAT",
    "JUDGES",
    "THRESHOLDS",
    "VERDICTS",
    "VERSION",
    "Finding",
    "GameAnalysis",
    "PlayerSummary",
    "TurnAnalysis",
    "Verdict",
    "accuracy",
    "analyse",
    "judge_tile_turn",
    "judge_xpress_turn",
    "verdict",
]

Progress = Callable[[int, int], None]
#: each game's turn judge: (record, seconds per position, progress, win-chance samples) -> the
#: turns judged
JUDGES: dict[str, Callable[[Any, float | None, Progress | None, int], Iterator[TurnAnalysis]]] = {
    "tiles": tile_turns,
    "xpress": xpress_turns,
}


def analyse(
    rec: AnyRecord,
    *,
    time_limit: float | None = 2.0,
    progress: Progress | None = None,
    chances: int = 0,
) -> GameAnalysis:
    """Judge every turn of a record of any game with a judge (finished or not); the record is
    re-checked against the rules on the way. ``time_limit``: seconds for one position's search
    (a position that takes longer is judged by the best move found so far). ``chances``: with
    a number of samples, each tile-game turn also gets the mover's win chance before and after
    it, estimated by the expert's playouts (slow: two estimates a turn)."""
    judge = JUDGES.get(rec.game.name)
    if judge is None:
        raise RulesError(f"{rec.game.name} games have no analysis", field="game")
    players = [(p.name, p.bot) for p in rec.record.players]
    turns = list(judge(rec.record, time_limit, progress, chances))
    return GameAnalysis(rec.game.name, players, turns)
