"""Judging an Xpress throw: which dice a player kept and which he threw again.

A choice of dice to keep is worth the points the best placement right after the throw places,
on average over the faces the thrown dice may show. The judge searches for the best choice
(keeping nothing, the player's own choice, then keeping or throwing one die more while that
helps; only dice that could share a set with another die are worth keeping) on
:data:`SEARCH_SAMPLES` simulated throws, the same ones for every choice. The player's choice and
the best one found are then valued again on :data:`CHECK_SAMPLES` fresh throws, so the points
lost are not inflated by the luck of the throws the search happened to pick. Everything is drawn
from a generator seeded by the turn, so the same record is always judged the same way. Both
hands lie open in Xpress: nothing hidden is used.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from rummikub.xpress import XpressState
from rummikub.xpress.bots import has_partner
from rummikub.xpress.dice import Face
from rummikub.xpress.solver import placement_score

__all__ = ["CHECK_SAMPLES", "SEARCH_SAMPLES", "ThrowJudgement", "judge_throw"]

#: simulated throws the search compares choices on
SEARCH_SAMPLES = 12
#: fresh simulated throws the player's choice and the best one are valued on
CHECK_SAMPLES = 32


@dataclass(frozen=True, slots=True)
class ThrowJudgement:
    """The player kept ``kept`` (faces) and threw the rest; keeping ``best_kept`` was the best
    choice found. ``expected``/``best_expected``: the points the placement after the throw is
    expected to place with each choice; ``lost`` the difference (never below 0), rounded."""

    kept: tuple[str, ...]
    best_kept: tuple[str, ...]
    expected: float
    best_expected: float
    lost: int

    def to_json(self) -> dict[str, Any]:
        return {
            "kept": list(self.kept),
            "best_kept": list(self.best_kept),
            "expected": round(self.expected, 1),
            "best_expected": round(self.best_expected, 1),
            "lost": self.lost,
        }


def judge_throw(
    position: XpressState, thrown: tuple[int, ...], *, seed: str, time_limit: float | None
) -> ThrowJudgement | None:
    """The judgement of throwing the dice ``thrown`` from ``position`` (the state before the
    throw); ``None`` when there was no choice (one die in hand). ``time_limit``: seconds for the
    search (it keeps the best choice found when time runs out)."""
    hand = position.hand
    if len(hand) <= 1:
        return None
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rng = random.Random(f"xpress-throw/{seed}")
    layout = position.layout
    new_set = position.rules.freed_joker_new_set
    table = position.table

    def throws(n: int) -> list[dict[int, Face]]:
        return [{d.die: rng.choice(layout.faces_of(d.die)) for d in hand} for _ in range(n)]

    def worth(keep: frozenset[int], sims: list[dict[int, Face]]) -> float:
        total = 0
        for sim in sims:
            faces = [d.face if d.die in keep else sim[d.die] for d in hand]
            total += placement_score(table, faces, new_set=new_set)[1]
        return total / len(sims)

    search = throws(SEARCH_SAMPLES)
    chosen = frozenset(d.die for d in hand if d.die not in thrown)
    seen: dict[frozenset[int], float] = {}

    def value(keep: frozenset[int]) -> float:
        if keep not in seen:
            seen[keep] = worth(keep, search)
        return seen[keep]

    best = max((frozenset(), chosen), key=value)
    table_faces = table.tiles()
    keepable = [
        d.die
        for d in hand
        if has_partner(d.face, [o.face for o in hand if o.die != d.die] + table_faces)
    ]
    improved = True
    while improved and (deadline is None or time.monotonic() < deadline):
        improved = False
        for die in keepable:
            cand = best ^ {die}
            if len(cand) >= len(hand) or cand in seen:
                continue  # keeping every die is no throw
            if value(cand) > value(best) + 1e-9:
                best, improved = cand, True
            if deadline is not None and time.monotonic() >= deadline:
                break
    check = throws(CHECK_SAMPLES)
    expected = worth(chosen, check)
    best_expected = worth(best, check) if best != chosen else expected
    if best_expected < expected:  # on fresh throws the player's own choice did better
        best, best_expected = chosen, expected

    def faces(keep: frozenset[int]) -> tuple[str, ...]:
        return tuple(str(d.face) for d in hand if d.die in keep)

    return ThrowJudgement(
        kept=faces(chosen),
        best_kept=faces(best),
        expected=expected,
        best_expected=best_expected,
        lost=round(best_expected - expected),
    )
