"""Xpress bots. ``random`` and ``greedy`` place the most dice they can (exact search) and differ
in which dice they throw again; ``expert`` ranks its moves:

- ``random``: a random non-empty subset, and a random legal placement (for testing);
- ``greedy``: places the most, throws every unplaced die again;
- ``expert``: chooses every move (the dice to throw again, what to place, when to end the turn)
  by the evaluation's ranking (:mod:`.ranking`), the judgement the analysis and the hint use.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from rummikub.core.errors import RummikubError
from rummikub.core.table import Table

from .actions import EndTurn, Place, Throw, XpressAction
from .observation import XpressObservation
from .ranking import candidate_moves, dice_for, has_partner, judge_seed, outcome_score, rank
from .solver import arrange_onto, best_placement, hand_set

__all__ = [
    "BOTS",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "XpressBot",
    "dice_for",
    "get_bot",
    "has_partner",
    "outcome_score",
    "place_best",
]


class XpressBot(Protocol):
    """A player: given what it sees, the next action of its turn."""

    name: str

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction: ...


def place_best(obs: XpressObservation) -> XpressAction:
    """Place the most dice (then the most points), or end the turn. A set still held after a
    placement (``must_place_sets``) is placed before the turn ends."""
    faces = [d.face for d in obs.hand]
    if obs.placed == 0 and obs.can_place:
        best = best_placement(obs.table, faces, new_set=obs.rules.freed_joker_new_set)
        if best.count:
            return Place(dice_for(obs.hand, best.faces), best.table)
    if obs.rules.must_place_sets:
        held = hand_set(faces)
        if held is not None:
            # a set of the player's own dice always goes onto the table as a new set
            return Place(dice_for(obs.hand, held.tiles), Table((*obs.table.melds, held)))
    return EndTurn()


class GreedyBot:
    """Places the most; throws every unplaced die again."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        if obs.phase == "throw":
            return Throw(tuple(d.die for d in obs.hand))
        return place_best(obs)


class RandomBot:
    """Throws a random non-empty subset; places a random legal selection of dice."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(f"xpress-random/{seed}")

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        dice = [d.die for d in obs.hand]
        if obs.phase == "throw":
            k = self.rng.randint(1, len(dice))
            return Throw(tuple(sorted(self.rng.sample(dice, k))))
        if obs.placed > 0 and obs.may_end_turn and self.rng.random() < 0.5:
            return EndTurn()
        for _ in range(6):
            k = self.rng.randint(1, len(obs.hand))
            chosen = self.rng.sample(list(obs.hand), k)
            table = arrange_onto(
                obs.table, [d.face for d in chosen], new_set=obs.rules.freed_joker_new_set
            )
            if table is not None:
                return Place(tuple(sorted(d.die for d in chosen)), table)
        return place_best(obs)


#: the share of a decision's time limit the expert gives the broad screen of its keep-choices
#: (:func:`.ranking.candidate_moves`); the ranking of the candidates stops at 0.8 of it
SCREEN_SHARE = 0.4


class ExpertBot:
    """Chooses every move by the evaluation's ranking (:func:`.ranking.rank`: the one
    judgement of a move the analysis and the hint use): the candidate moves of the decision
    (the dice to throw again, or what to place) are each played out in ``samples`` sampled
    futures of the dice (the same futures for every candidate, seeded by the position:
    :func:`.ranking.judge_seed`, so the expert plays the move the analysis of the position
    judges best at that many samples), and the one leaving the best chance to win the match
    is played. The broad screen of keep-choices among the candidates
    (:func:`.ranking.candidate_moves`) takes at most :data:`SCREEN_SHARE` of the time limit;
    the search stops before a sample that would end past 0.8 of the time limit (the
    ``time_limit`` argument, else ``max_seconds``) at the time of the slowest sample so far,
    and abandons a sample the limit overtakes between two candidates' playouts; a decision
    with one candidate is not searched."""

    name = "expert"

    #: sampled futures a decision: 64 with the broad screen of keep-choices won 85.9% of 400
    #: matches against greedy (32 without it 82.5% of 1,600; 64 without it no more than 32;
    #: docs/xpress.md)
    SAMPLES = 64

    def __init__(
        self, seed: int = 0, *, samples: int = SAMPLES, max_seconds: float | None = 2.0
    ) -> None:
        if samples < 1:
            raise RummikubError("samples must be at least 1")
        self.seed = seed
        self.samples = samples
        self.max_seconds = max_seconds

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        limit = (
            self.max_seconds
            if time_limit is None
            else (time_limit if self.max_seconds is None else min(time_limit, self.max_seconds))
        )
        started = time.monotonic()
        cands = candidate_moves(obs, None if limit is None else SCREEN_SHARE * limit)
        if len(cands) == 1:
            return cands[0]
        left = None if limit is None else max(0.0, 0.8 * limit - (time.monotonic() - started))
        ranked = rank(obs, cands, samples=self.samples, seed=judge_seed(obs), time_limit=left)
        return ranked[0][0]


BOTS: dict[str, Callable[[int], XpressBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
}


def get_bot(name: str, seed: int = 0) -> XpressBot:
    """A bot by name (``random``, ``greedy``, ``expert``)."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise RummikubError(f"unknown Xpress bot {name!r} (bots: {', '.join(BOTS)})") from None
