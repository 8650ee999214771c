"""Judging an Xpress throw: which dice a player kept and which he threw again.

A choice of dice to throw again is judged by the chance to win the match it leaves, on
average over the faces the thrown dice may show (:func:`rummikub.xpress.ranking.rank`: the
throw choices of :func:`~rummikub.xpress.ranking.candidate_moves` and the player's own, each
played out in the same sampled futures of the dice, seeded by the position). The points the
placement right after the throw is expected to place with each choice stay as facts. Both
hands lie open in Xpress: nothing hidden is used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from rummikub.bots.evaluation import paired_difference
from rummikub.xpress import Throw, XpressObservation
from rummikub.xpress.ranking import XpressJudgement, candidate_moves, judge_seed, rank

__all__ = ["ThrowJudgement", "judge_throw", "turn_loss"]


@dataclass(frozen=True, slots=True)
class ThrowJudgement:
    """The player kept ``kept`` (faces) and threw the rest; keeping ``best_kept`` was the best
    choice (by the chance to win the match). ``win_chance``: the mover's chance to win the
    match with the best choice and with his (before the faces are known); ``loss`` the points
    of win chance his choice gave away (less what the sampled futures leave in doubt, as for
    every move). ``expected``/``best_expected``: the points the placement right after the throw
    is expected to place with each choice; ``lost`` the difference (never below 0), rounded:
    facts, which no longer decide the verdict."""

    kept: tuple[str, ...]
    best_kept: tuple[str, ...]
    expected: float
    best_expected: float
    lost: int
    win_chance: tuple[float, float] = (0.0, 0.0)
    loss: float = 0.0
    #: the choices ranked (two or more) or not (one die in hand: no choice)
    choices: int = 1

    def to_json(self) -> dict[str, Any]:
        before, after = self.win_chance
        return {
            "kept": list(self.kept),
            "best_kept": list(self.best_kept),
            "win_chance": {"before": round(before, 3), "after": round(after, 3)},
            "loss": round(self.loss, 1),
            "expected": round(self.expected, 1),
            "best_expected": round(self.best_expected, 1),
            "lost": self.lost,
        }


def turn_loss(best: XpressJudgement, mine: XpressJudgement) -> tuple[float, float, float]:
    """(before, after, loss) of a move judged ``mine`` where the best move was judged ``best``
    (ranked together): the loss in points of win chance less one standard error of the paired
    difference over the sampled futures (:func:`~rummikub.bots.evaluation.paired_difference`),
    never below 0."""
    from rummikub.bots.evaluation import Evaluation

    def ev(j: XpressJudgement) -> Evaluation:
        return Evaluation(
            j.player, j.win_round, j.win_match, j.expected_score, j.samples,
            j.round_shares, j.match_shares, j.expected_scores, j.per_deal,
        )  # fmt: skip

    before = max(best.win_match, mine.win_match)
    after = mine.win_match
    doubt = 0.0
    lead, stderr = paired_difference(ev(best), ev(mine))
    if lead > 0:
        doubt = min(1.0, stderr / lead)
    return before, after, max(0.0, 100.0 * (before - after) * (1.0 - doubt))


def judge_throw(
    obs: XpressObservation,
    thrown: tuple[int, ...],
    *,
    seed: int = 0,
    samples: int | None = None,
    time_limit: float | None = None,
) -> ThrowJudgement | None:
    """The judgement of throwing the dice ``thrown`` from ``obs`` (the mover's view before the
    throw); ``None`` when there was no choice (one die in hand). ``seed`` is mixed into the
    position's own (:func:`~rummikub.xpress.ranking.judge_seed`); ``time_limit`` (seconds)
    stops the sampling early."""
    hand = obs.hand
    if len(hand) <= 1:
        return None
    started = time.monotonic()
    cands = candidate_moves(obs, None if time_limit is None else time_limit / 2)
    mine = frozenset(thrown)
    index = next(
        (i for i, c in enumerate(cands) if isinstance(c, Throw) and frozenset(c.dice) == mine),
        None,
    )
    if index is None:
        cands.append(Throw(tuple(sorted(thrown))))
        index = len(cands) - 1
    played = cands[index]
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
    ranked = rank(obs, cands, samples=samples, seed=judge_seed(obs) ^ seed, time_limit=left)
    best, best_j = ranked[0]
    mine_j = next(j for a, j in ranked if a is played)
    before, after, loss = turn_loss(best_j, mine_j)
    assert isinstance(best, Throw)

    def kept(action: Throw) -> tuple[str, ...]:
        return tuple(str(d.face) for d in hand if d.die not in action.dice)

    assert isinstance(played, Throw)
    return ThrowJudgement(
        kept=kept(played),
        best_kept=kept(best),
        expected=mine_j.first_points,
        best_expected=best_j.first_points,
        lost=max(0, round(best_j.first_points - mine_j.first_points)),
        win_chance=(before, after),
        loss=loss,
        choices=len(cands),
    )
