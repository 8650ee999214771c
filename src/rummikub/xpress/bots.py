"""Xpress bots. Every bot places the most dice it can (exact search); they differ in which dice
they throw again:

- ``random``: a random non-empty subset, and a random legal placement (for testing);
- ``greedy``: places the most, throws every unplaced die again;
- ``expert``: keeps the dice whose faces are worth keeping, chosen by Monte Carlo simulation of
  the next throw (forward selection over the dice to keep, common random numbers, within a time
  limit).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from rummikub.core.errors import RummikubError
from rummikub.core.table import Table

from .actions import EndTurn, Place, Throw, XpressAction
from .dice import DieFace, Face
from .observation import XpressObservation
from .solver import arrange_onto, best_placement, hand_set, placement_score

__all__ = ["BOTS", "ExpertBot", "GreedyBot", "RandomBot", "XpressBot", "get_bot"]


class XpressBot(Protocol):
    """A player: given what it sees, the next action of its turn."""

    name: str

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction: ...


def dice_for(hand: Sequence[DieFace], faces: Sequence[Face]) -> tuple[int, ...]:
    """Dice of ``hand`` showing ``faces`` (a multiset), one die per face."""
    left = list(hand)
    out: list[int] = []
    for f in faces:
        d = next(d for d in left if d.face == f)
        left.remove(d)
        out.append(d.die)
    return tuple(sorted(out))


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


def outcome_score(count: int, value: int, hand_size: int) -> float:
    """How good a placement is for the expert: dice placed, a bonus for going out (the round is
    won), then a little for the points placed."""
    return count + (4.0 if count == hand_size else 0.0) + value / 200


def has_partner(face: Face, others: Sequence[Face]) -> bool:
    """Whether ``face`` could share a set with one of ``others`` (a joker always could): same
    colour within two numbers, or same number in another colour."""
    if face.is_joker:
        return True
    for o in others:
        if o.is_joker:
            return True
        if o.colour == face.colour and 0 < abs(o.number - face.number) <= 2:
            return True
        if o.number == face.number and o.colour != face.colour:
            return True
    return False


class ExpertBot:
    """Chooses the dice to throw again by Monte Carlo simulation of the next throw.

    Each candidate set of dice to keep is scored by the mean :func:`outcome_score` of the best
    placement after ``samples`` simulated throws of the other dice (the same simulated faces
    for every candidate). Only dice that could share a set with another die in hand or on the
    table are worth keeping; the kept set grows from "keep nothing" by the best single die or
    pair of partner dice while that improves the estimate; the search stops at the time limit
    (``time_limit`` argument, else ``max_seconds``).
    """

    name = "expert"

    def __init__(
        self, seed: int = 0, *, samples: int = 24, max_seconds: float | None = 2.0
    ) -> None:
        if samples < 1:
            raise RummikubError("samples must be at least 1")
        self.rng = random.Random(f"xpress-expert/{seed}")
        self.samples = samples
        self.max_seconds = max_seconds

    def act(self, obs: XpressObservation, time_limit: float | None = None) -> XpressAction:
        if obs.phase == "place":
            return place_best(obs)
        limit = (
            self.max_seconds
            if time_limit is None
            else (time_limit if self.max_seconds is None else min(time_limit, self.max_seconds))
        )
        keep = self.choose_keep(obs, limit)
        return Throw(tuple(d.die for d in obs.hand if d.die not in keep))

    def choose_keep(self, obs: XpressObservation, limit: float | None) -> frozenset[int]:
        hand = obs.hand
        deadline = None if limit is None else time.monotonic() + 0.8 * limit
        sims = [
            {d.die: self.rng.choice(obs.layout.faces_of(d.die)) for d in hand}
            for _ in range(self.samples)
        ]
        table = obs.table

        def value(keep: frozenset[int]) -> float:
            total = 0.0
            for sim in sims:
                faces = [d.face if d.die in keep else sim[d.die] for d in hand]
                count, points = placement_score(table, faces, new_set=obs.rules.freed_joker_new_set)
                total += outcome_score(count, points, len(hand))
            return total / len(sims)

        table_faces = table.tiles()
        keepable = [
            d
            for d in hand
            if has_partner(d.face, [o.face for o in hand if o.die != d.die] + table_faces)
        ]
        moves: list[frozenset[int]] = [frozenset({d.die}) for d in keepable]
        moves += [
            frozenset({a.die, b.die})
            for i, a in enumerate(keepable)
            for b in keepable[i + 1 :]
            if has_partner(a.face, [b.face])
        ]
        best_keep: frozenset[int] = frozenset()
        best_value = value(best_keep)
        while True:
            step_keep, step_value = best_keep, best_value
            for move in moves:
                cand = best_keep | move
                if cand == best_keep or len(cand) >= len(hand):
                    continue
                if deadline is not None and time.monotonic() > deadline:
                    return best_keep
                v = value(cand)
                if v > step_value + 1e-9:
                    step_keep, step_value = cand, v
            if step_keep == best_keep:
                return best_keep
            best_keep, best_value = step_keep, step_value


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
