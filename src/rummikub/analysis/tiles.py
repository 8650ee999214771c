"""Judging the turns of the tile game: each move against the best move of its position by the
evaluation (:mod:`rummikub.bots.evaluation`: the mover's chance to win, from his observation
only, never the other racks or the pool), the judgement the hint and the expert use too."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rummikub.bots.evaluation import (
    Depth,
    Evaluation,
    candidate_moves,
    evaluate,
    judge_seed,
    paired_difference,
    rank_moves,
    samples_for,
    tiles_key,
)
from rummikub.core import (
    Action,
    Draw,
    GameRecord,
    Pass,
    Play,
    RoundState,
    TurnLog,
    observe,
    replay,
)

from .model import Judged, TurnAnalysis

__all__ = ["judge_tile_turn", "tile_turns"]


def _kind(action: Action) -> str:
    return "play" if isinstance(action, Play) else "draw" if isinstance(action, Draw) else "pass"


def _played(log: TurnLog) -> Action | None:
    """The move of ``log`` as an action (``None`` for a timeout or an invalid play, whose
    effect the rules decide)."""
    if log.action == "play" and log.table is not None:
        return Play(tuple(log.play), log.table)
    if log.action == "draw":
        return Draw()
    if log.action == "pass":
        return Pass()
    return None


def judge_tile_turn(
    before: RoundState,
    log: TurnLog,
    *,
    round: int,
    turn: int,
    after: RoundState | None = None,
    depth: Depth = "default",
    samples: int | None = None,
    seed: int = 0,
) -> TurnAnalysis:
    """The analysis of one turn: ``log`` played from ``before`` (reaching ``after``, needed
    for a timeout or an invalid play). The moves are ranked in deals seeded by the position
    (:func:`~rummikub.bots.evaluation.judge_seed`), as the hint ranks them; another ``seed``
    is mixed into it (to measure how much the verdicts owe to the deals sampled)."""
    from rummikub.solver import solve  # the solver extra: only the tile game needs it
    from rummikub.solver.counts import counts_supported

    obs = observe(before, log.player)
    rules = obs.rules
    rack = obs.rack.tiles
    most = solve(obs.table, rack, opened=obs.has_opened, rules=rules, objective="value")
    cands = candidate_moves(obs)
    played = _played(log)
    seed = judge_seed(obs) ^ seed
    index: int | None = None
    if played is not None:
        key = tiles_key(played)
        same = [
            i for i, c in enumerate(cands)
            if _kind(c) == _kind(played) and (key is None or tiles_key(c) == key)
        ]  # fmt: skip
        # plays of the same tiles are alike on counts; under locked melds the layout matters
        if same and (key is None or counts_supported(rules) or cands[same[0]] == played):
            index = same[0]
        else:
            cands.append(played)
            index = len(cands) - 1
    forced = not most.play  # nothing could be placed: drawing (passing) was the only move
    if forced and len(cands) == 1:  # no choice to judge: the graph's point needs fewer deals
        samples = max(1, samples_for(samples, depth) // 4)
    ranked = rank_moves(obs, cands, samples=samples, seed=seed, depth=depth)
    by_id = {id(a): ev for a, ev in ranked}
    best, best_ev = ranked[0]
    if index is not None:
        mine: Evaluation = by_id[id(cands[index])]
    else:  # a timeout or an invalid play: the position it left, judged from the same view
        if after is None:
            raise ValueError(f"a turn of kind {log.action!r} is judged from the state after it")
        mine = evaluate(observe(after, log.player), samples=samples, seed=seed, depth=depth)
    doubt = 0.0
    if index is not None:  # ranked in the same deals: how sure is the best move's lead?
        lead, stderr = paired_difference(best_ev, mine)
        if lead > 0:
            doubt = min(1.0, stderr / lead)
    judged = Judged(
        before=max(best_ev.win_match, mine.win_match),
        after=mine.win_match,
        chances=mine.match_shares,
        forced=forced,
        best_action=_kind(best),
        doubt=doubt,
    )
    best_play = best if isinstance(best, Play) else None
    return TurnAnalysis.of(
        round=round,
        turn=turn,
        player=log.player,
        action=log.action,
        held=rack,
        placed=log.play if log.action == "play" else (),
        best_placed=best_play.tiles if best_play is not None else (),
        best_table=best_play.table if best_play is not None else obs.table,
        value=rules.tile_value,
        invalid=log.action == "invalid",
        opened=obs.has_opened,
        ms=log.ms,
        most_placed=most.play,
        judged=judged,
        before=obs.table,
    )


def tile_turns(
    rec: GameRecord,
    progress: Callable[[int, int], None] | None,
    depth: Depth = "default",
    samples: int | None = None,
    seed: int = 0,
) -> Iterator[TurnAnalysis]:
    """Every turn of ``rec`` judged."""
    total = sum(len(rd.turns) for rd in rec.rounds)
    for done, step in enumerate(replay(rec), 1):
        yield judge_tile_turn(
            step.before, step.log, round=step.round, turn=step.turn, after=step.after,
            depth=depth, samples=samples, seed=seed,
        )  # fmt: skip
        if progress is not None:
            progress(done, total)
