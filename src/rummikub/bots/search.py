"""The candidate moves the evaluation ranks (:func:`rummikub.bots.evaluation.candidate_moves`,
the expert's and the hint's), for an opened player who cannot go out this turn:

- the biggest play under the joker policy of ``strategic`` (the *default*);
- the best plays placing one and two tiles fewer from the same tiles (the solver's
  ``best_per_count``: holding tiles back, keeping a play for later);
- the default with its highest tile that can come off a meld held back (a *reserve*, as
  ``strategic`` keeps);
- drawing although a play exists (keeping the table as it is for the next player).

Until 2026-12-03 the expert judged them with its own search here (greedy playouts of three
rounds valued by the lead in tiles); options measured no better then (``keep_each``, pruning,
a margin, two rounds, opponent tracking) were deleted with it: docs/bots.md keeps their figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummikub.core import Action, Draw, Observation, Play, Tile

from .moves import is_legal
from .strategic import hold_back

__all__ = ["SearchParams", "SearchResult", "candidates"]


@dataclass(frozen=True, slots=True)
class SearchParams:
    """Which candidates to offer."""

    hold_backs: int = 2  # candidates placing 1..hold_backs tiles fewer than the default
    reserve: bool = True  # the default minus one tile that can come off a meld
    draw: bool = True  # drawing although a play exists


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen action, the candidates, their chances to win (the evaluation's) and the
    deals sampled."""

    action: Action
    candidates: tuple[Action, ...]
    values: tuple[float, ...]
    samples: int


def _key(action: Action) -> tuple[Tile, ...] | None:
    return (
        tuple(sorted(action.tiles, key=lambda t: (t.colour, t.number)))
        if isinstance(action, Play)
        else None
    )


def candidates(
    obs: Observation,
    default: Play,
    rack: tuple[Tile, ...],
    params: SearchParams,
    time_limit: float | None = None,
) -> list[Action]:
    """The moves worth comparing with ``default`` (first in the list), all legal, without
    repeats (plays placing the same tiles count as one). ``rack``: the tiles the default was
    chosen from (the rack without the jokers the joker policy keeps). For a player who has not
    opened, the plays placing fewer tiles are smaller openings, and the opening of the fewest
    tiles is one more. Out of ``time_limit`` before the plays placing fewer tiles are found,
    they are left out."""
    from rummikub.solver import best_per_count
    from rummikub.solver.problem import SolverTimeout

    out: list[Action] = [default]
    seen = {_key(default)}

    def add(action: Action) -> None:
        key = _key(action)
        if key in seen:
            return
        if isinstance(action, Play) and not is_legal(obs, action):
            return
        seen.add(key)
        out.append(action)

    m = len(default.tiles)
    if params.hold_backs > 0 and m > 1:
        try:
            per_count = best_per_count(obs.table, rack, opened=obs.has_opened, rules=obs.rules,
                                       time_limit=time_limit)  # fmt: skip
        except SolverTimeout:  # out of time (a held rack of 40 tiles): no smaller plays
            per_count = {}
        counts = [m - k for k in range(1, params.hold_backs + 1)]
        if not obs.has_opened and per_count:
            counts.append(min(per_count))  # the opening of the fewest tiles
        for count in counts:
            sol = per_count.get(count)
            play = sol.as_play() if sol is not None else None
            if play is not None:
                add(play)
    if params.reserve:
        smaller, held = hold_back(obs, default, 1)
        if held:
            add(smaller)
    if params.draw and obs.pool_size > 0:
        add(Draw())
    return out
