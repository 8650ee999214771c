"""Judging the turns of the tile game: each turn against the solver's best play for the mover's
rack and the table as he saw them (his observation: never the other racks or the pool)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from rummikub.core import GameRecord, RoundState, TurnLog, observe, replay

from .chances import win_chance
from .model import TurnAnalysis

__all__ = ["judge_tile_turn", "tile_turns"]


def judge_tile_turn(
    before: RoundState, log: TurnLog, *, round: int, turn: int, time_limit: float | None
) -> TurnAnalysis:
    """The analysis of one turn: ``log`` played from ``before``."""
    from rummikub.solver import solve  # the solver extra: only the tile game needs it

    obs = observe(before, log.player)
    rules = obs.rules
    rack = obs.rack.tiles
    best = solve(
        obs.table, rack, opened=obs.has_opened, rules=rules, objective="value",
        time_limit=time_limit,
    )  # fmt: skip
    return TurnAnalysis.of(
        round=round,
        turn=turn,
        player=log.player,
        action=log.action,
        held=rack,
        placed=log.play if log.action == "play" else (),
        best_placed=best.play,
        best_table=best.table,
        value=rules.tile_value,
        invalid=log.action == "invalid",
        opened=obs.has_opened,
        ms=log.ms,
    )


def tile_turns(
    rec: GameRecord,
    time_limit: float | None,
    progress: Callable[[int, int], None] | None,
    chances: int = 0,
) -> Iterator[TurnAnalysis]:
    """Every turn of ``rec`` judged; with ``chances`` (samples), the mover's win chance before
    and after each move too (:mod:`.chances`)."""
    total = sum(len(rd.turns) for rd in rec.rounds)
    for done, step in enumerate(replay(rec), 1):
        judged = judge_tile_turn(
            step.before, step.log, round=step.round, turn=step.turn, time_limit=time_limit
        )
        if chances:
            seed = f"{rec.seed}/{step.round}/{step.turn}"
            p = step.log.player
            judged = replace(
                judged,
                win_chance=(
                    win_chance(step.before, p, samples=chances, seed=f"{seed}/before"),
                    win_chance(step.after, p, samples=chances, seed=f"{seed}/after"),
                ),
            )
        yield judged
        if progress is not None:
            progress(done, total)
