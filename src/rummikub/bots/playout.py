"""Fast playouts: a greedy policy for every player of a complete (sampled) round state, a value
of a position that is not finished, and the win chances a player's observation gives.

The playout policy is ``greedy``'s: the solver's play placing the most rack tiles (an opening as
soon as one exists), a draw (a pass) otherwise. It is deterministic, so the same sampled deal
played after two different candidate moves differs only by the moves (common random numbers).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rummikub.core import (
    Action,
    Draw,
    Observation,
    Pass,
    Play,
    Rack,
    RoundEnd,
    RoundState,
    Rules,
    apply,
    score_round,
)
from rummikub.core.scoring import exhausted_winner

if TYPE_CHECKING:  # numpy, which the playouts on counts use, comes with the solver extra
    from .grid_playout import GridRound

from .sampling import determinize, unseen_tiles

__all__ = ["greedy_action", "rollout", "win_chances"]


def greedy_action(state: RoundState) -> Action:
    """``greedy``'s answer for the player to move in a complete state, without its tie-break on
    the fewest changed melds (the solver's plays are legal; :func:`rummikub.core.apply` checks
    them again)."""
    from rummikub.solver import solve

    sol = solve(state.table, state.rack, opened=state.opened[state.current], rules=state.rules,
                fewest_changes=False)  # fmt: skip
    play = sol.as_play()
    if play is not None:
        return play
    return Draw() if state.pool else Pass()


def _played(state: RoundState, play: Play) -> RoundState:
    """``state`` after the solver's ``play``, without checking it again (it is legal by
    construction; :func:`rummikub.core.apply` would spend most of a playout re-checking)."""
    me = state.current
    racks = list(state.racks)
    racks[me] = racks[me].remove(play.tiles)
    opened = list(state.opened)
    opened[me] = True
    nxt = replace(state, racks=tuple(racks), table=play.table, opened=tuple(opened), passes=0,
                  turn=state.turn + 1)  # fmt: skip
    if not racks[me].tiles:
        scores = score_round(state.rules, nxt.racks, "rummikub", me)
        return replace(nxt, end=RoundEnd("rummikub", me, nxt.racks, scores))
    return replace(nxt, current=(me + 1) % state.players)


def _step(state: RoundState) -> RoundState:
    action = greedy_action(state)
    if isinstance(action, Play):
        return _played(state, action)
    return apply(state, action)


def rollout(state: RoundState, plies: int) -> RoundState:
    """``state`` after at most ``plies`` greedy moves (fewer if the round ends)."""
    for _ in range(plies):
        if state.end is not None:
            break
        state = _step(state)
    return state


def _shares(state: RoundState) -> list[float]:
    """Who won a finished playout (1 for the winner); an unfinished one goes to the player
    who would win were the pool exhausted now (the lowest rack total)."""
    end = state.end
    return _shares_of(state.players, end is not None, None if end is None else end.winner,
                      lambda: state.racks, state.rules, state.current)  # fmt: skip


def _grid_shares(g: GridRound) -> list[float]:
    """:func:`_shares` of a playout on counts."""
    racks = lambda: [g.rack(p) for p in range(g.players)]  # noqa: E731 - built only if needed
    return _shares_of(g.players, g.ended, g.winner, racks, g.rules, g.current)


def _shares_of(
    n: int,
    ended: bool,
    winner: int | None,
    racks: Callable[[], Sequence[Rack]],
    rules: Rules,
    current: int,
) -> list[float]:
    if ended:
        return [1.0 / n] * n if winner is None else [float(i == winner) for i in range(n)]
    best = exhausted_winner(racks(), rules, current)
    return [float(i == best) for i in range(n)]


def win_chances(
    obs: Observation,
    *,
    samples: int,
    seed: int,
    time_limit: float | None = None,
    max_plies: int = 400,
) -> list[float]:
    """The estimated chance that each player wins the round, from ``obs`` (what its player
    sees, nothing more): the unseen tiles are dealt ``samples`` times at random into the other
    racks and the pool (seeded by ``seed``), and each deal is played to its end with the greedy
    playout policy for every player, starting with the player to move. Returns one share per
    seat, summing to 1. ``time_limit`` (seconds) stops sampling early (after at least one
    deal); ``max_plies`` caps a playout (it is then scored as if the pool were exhausted)."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    from rummikub.solver.counts import counts_supported

    from .grid_playout import GridRound

    on_counts = counts_supported(obs.rules)  # playouts on tile counts: the same, faster
    rng = random.Random(seed)
    unseen = unseen_tiles(obs)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    totals = [0.0] * obs.players
    done = 0
    for _ in range(samples):
        if done and deadline is not None and time.monotonic() > deadline:
            break
        det = determinize(obs, rng, unseen)
        det = RoundState(det.rules, det.racks, det.table, det.pool, det.opened, obs.current,
                         obs.passes, obs.turn)  # fmt: skip
        if on_counts:
            shares = _grid_shares(GridRound.of(det).rollout(max_plies))
        else:
            shares = _shares(rollout(det, max_plies))
        for i, share in enumerate(shares):
            totals[i] += share
        done += 1
    return [t / done for t in totals]
