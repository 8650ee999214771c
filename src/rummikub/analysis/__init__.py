"""Game analysis: every turn of a record judged against the best move of its position by the
winning chances it gave away, from the mover's own observation (``rummikub analyse``). See
:mod:`.verdicts` for the verdicts and their thresholds, ``docs/formats.md`` for the JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

from rummikub.bots.evaluation import DEPTHS, Depth
from rummikub.games import AnyRecord, game_part

from .model import FORMAT, VERSION, GameAnalysis, Judged, PlayerSummary, TurnAnalysis
from .tiles import judge_tile_turn
from .verdicts import (
    FINDINGS,
    THRESHOLDS,
    VERDICTS,
    Finding,
    Verdict,
    accuracy,
    move_accuracy,
    verdict,
)
from .xpress import judge_xpress_turn

__all__ = [
    "DEPTHS",
    "FINDINGS",
    "FORMAT",
    "THRESHOLDS",
    "VERDICTS",
    "VERSION",
    "Depth",
    "Finding",
    "GameAnalysis",
    "Judge",
    "Judged",
    "PlayerSummary",
    "TurnAnalysis",
    "Verdict",
    "accuracy",
    "analyse",
    "judge_tile_turn",
    "judge_xpress_turn",
    "move_accuracy",
    "verdict",
]

Progress = Callable[[int, int], None]
#: a game's turn judge, its ``judge`` part in the table of game parts
#: (:mod:`rummikub.games.parts`): (record, progress, depth, samples, seed) -> the turns judged
#: (:func:`.tiles.tile_turns`, :func:`.xpress.xpress_turns`)
Judge = Callable[[Any, Progress | None, Depth, int | None, int], Iterator[TurnAnalysis]]


def analyse(
    rec: AnyRecord,
    *,
    depth: Depth = "default",
    progress: Progress | None = None,
    samples: int | None = None,
    seed: int = 0,
) -> GameAnalysis:
    """Judge every turn of a record of any game with a judge (finished or not); the record is
    re-checked against the rules on the way. ``depth``: ``default`` or ``deep`` (the
    evaluation's playouts go to the end of the round, with more samples: slower, steadier).
    ``progress(done, total)`` is called after every turn. ``samples`` (deals a position,
    default the depth's) and ``seed`` (mixed into each position's seed) are for measuring."""
    part = game_part(rec.game, "judge")  # MissingPart: "sticks has no analysis"
    if not callable(part):
        raise TypeError(f"the judge part of {rec.game.name} is not callable: {part!r}")
    judge = cast(Judge, part)
    if depth not in DEPTHS:
        raise ValueError(f"depth is one of {', '.join(DEPTHS)}, not {depth!r}")
    players = [(p.name, p.bot) for p in rec.record.players]
    turns = list(judge(rec.record, progress, depth, samples, seed))
    return GameAnalysis(rec.game.name, players, turns, depth)
