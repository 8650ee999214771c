"""``greedy``: every turn, the solver's play placing the most rack tiles."""

from __future__ import annotations

from rummikub.core import Action, Observation

from .base import fallback_action

__all__ = ["GreedyBot", "solver_play"]


def solver_play(obs: Observation, objective: str = "tiles",
                time_limit: float | None = None) -> Action:  # fmt: skip
    """The solver's best play for ``obs`` under ``objective`` (an opening when the player has
    not opened), or a draw (a pass when the pool is empty) when nothing can be placed."""
    from rummikub.solver import solve

    sol = solve(obs.table, obs.rack, opened=obs.has_opened, rules=obs.rules,
                objective=objective, time_limit=time_limit)  # fmt: skip
    play = sol.as_play()  # exact and legal (the match validates it all the same)
    return fallback_action(obs) if play is None else play


class GreedyBot:
    """Places as many rack tiles as it can every turn (ties: the highest value, then the
    fewest changes to the table), opening as soon as it can. Never holds anything back."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        # the limit only ever cuts the search on racks of a hundred tiles: real positions are
        # solved exactly in milliseconds
        return solver_play(obs, "tiles", time_limit)
