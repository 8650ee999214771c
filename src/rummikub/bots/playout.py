"""Fast playouts: a greedy policy for every player of a complete (sampled) round state, a value
of a position that is not finished, and the win chances a player's observation gives.

The playout policy is ``greedy``'s: the solver's play placing the most rack tiles (an opening as
soon as one exists), a draw (a pass) otherwise. It is deterministic, so the same sampled deal
played after two different candidate moves differs only by the moves (common random numbers).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace

from rummikub.core import (
    Action,
    Draw,
    Observation,
    Pass,
    Play,
    RoundEnd,
    RoundState,
    apply,
    score_round,
)
from rummikub.core.scoring import exhausted_winner

from .leaf import learned_value
from .sampling import determinize, unseen_tiles

__all__ = ["LeafParams", "greedy_action", "leaf_value", "rollout", "win_chances"]


@dataclass(frozen=True, slots=True)
class LeafParams:
    """How a position that is not finished is valued for one player: by how far he is ahead of
    his closest opponent in tiles left (a player who has not opened counts ``unopened`` tiles
    more), squashed into 0..1 (``scale`` tiles ahead ≈ 73%); or, with ``learned``, by the
    shipped model's chance that he wins (:mod:`.leaf`)."""

    unopened: float = 3.0
    scale: float = 3.0
    learned: bool = False


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


def leaf_value(state: RoundState, me: int, params: LeafParams | None = None) -> float:
    """How good ``state`` is for player ``me``, 0..1: 1 if he won, 0 if another player did;
    otherwise his lead in tiles over the closest opponent, squashed (or the learned model's
    chance that he wins, with ``params.learned``)."""
    if state.end is not None:
        if state.end.winner is None:
            return 1.0 / state.players
        return 1.0 if state.end.winner == me else 0.0
    p = params or LeafParams()
    if p.learned:
        return learned_value(state, me)

    def left(i: int) -> float:
        return len(state.racks[i]) + (0.0 if state.opened[i] else p.unopened)

    best_other = min(left(i) for i in range(state.players) if i != me)
    return 1.0 / (1.0 + math.exp((left(me) - best_other) / p.scale))


def _shares(state: RoundState) -> list[float]:
    """Who won a finished playout (1 for the winner); an unfinished one goes to the player
    who would win were the pool exhausted now (the lowest rack total)."""
    n = state.players
    out = [0.0] * n
    if state.end is not None and state.end.winner is not None:
        out[state.end.winner] = 1.0
    elif state.end is not None:
        out = [1.0 / n] * n
    else:
        out[exhausted_winner(state.racks, state.rules, state.current)] = 1.0
    return out


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
        final = rollout(det, max_plies)
        for i, share in enumerate(_shares(final)):
            totals[i] += share
        done += 1
    return [t / done for t in totals]
