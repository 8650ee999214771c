"""The expert's search: candidate moves from the solver, each judged by greedy playouts in the
same sampled deals of the unseen tiles (determinization with common random numbers).

Candidates, for an opened player who cannot go out this turn:

- the biggest play under the joker policy of ``strategic`` (the *default*);
- the best plays placing one and two tiles fewer from the same tiles (the solver's
  ``best_per_count``: holding tiles back, keeping a play for later);
- with ``keep_each`` (off by default), for each tile of the default the biggest play keeping
  it back;
- the default with its highest tile that can come off a meld held back (a *reserve*, as
  ``strategic`` keeps);
- drawing although a play exists (keeping the table as it is for the next player).

Each sampled deal (a :class:`RoundState` consistent with what the player sees) is played after
every candidate for a few plies with ``greedy``'s policy for every player — the opponents'
answers to the table the candidate leaves, the player's own next two turns, their answers to
them (``rounds`` = 3; 2 measured 2.3 points weaker against ``greedy``) — and the position
reached is valued for the player (:func:`.playout.leaf_value`; a round won in the playout
counts 1, lost 0). The candidate with the best mean stands (ties: the earlier in
the list, the default first); with ``margin`` another one must beat the default by that much
to replace it (0 by default: a margin of 0.03 measured 9 points weaker against ``greedy``,
because the many small gains of holding tiles back add up). Options (off by default, measured
no better): pruning candidates clearly behind the default (``SearchParams.prune``) and the learned
leaf value (``LeafParams(learned=True)``, :mod:`.leaf`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rummikub.core import (
    JOKER,
    Action,
    Draw,
    IllegalPlayError,
    Observation,
    Play,
    RoundState,
    Tile,
    apply,
)

from .moves import is_legal
from .playout import LeafParams, lead_value, leaf_value, rollout
from .strategic import hold_back

__all__ = ["SearchParams", "SearchResult", "candidates", "search"]

Sampler = Callable[[random.Random], RoundState]


@dataclass(frozen=True, slots=True)
class SearchParams:
    """Knobs of the search."""

    hold_backs: int = 2  # candidates placing 1..hold_backs tiles fewer than the default
    keep_each: bool = False  # for each tile of the default, the biggest play keeping it back
    reserve: bool = True  # the default minus one tile that can come off a meld
    draw: bool = True  # drawing although a play exists
    rounds: int = 3  # playout length: this many turns of every player (the last one mine omitted)
    margin: float = 0.0  # mean value a candidate must gain over the default to replace it
    leaf: LeafParams = field(default_factory=LeafParams)
    prune: float = 0.0  # drop a candidate this many standard errors behind the default (0: never)
    prune_after: int = 8  # ... once this many deals are played


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen action, the candidates, their mean values and the samples played (in all,
    and per candidate: fewer for one the search pruned)."""

    action: Action
    candidates: tuple[Action, ...]
    values: tuple[float, ...]
    samples: int
    played: tuple[int, ...] = ()


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
    tiles is one more."""
    from rummikub.solver import best_per_count

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
        per_count = best_per_count(obs.table, rack, opened=obs.has_opened, rules=obs.rules,
                                   time_limit=time_limit)  # fmt: skip
        counts = [m - k for k in range(1, params.hold_backs + 1)]
        if not obs.has_opened and per_count:
            counts.append(min(per_count))  # the opening of the fewest tiles
        for count in counts:
            sol = per_count.get(count)
            play = sol.as_play() if sol is not None else None
            if play is not None:
                add(play)
    if params.keep_each and m > 1:
        from rummikub.solver import solve

        for tile in sorted(set(default.tiles) - {JOKER}, key=lambda t: (t.colour, t.number)):
            rest = list(rack)
            rest.remove(tile)
            play = solve(obs.table, rest, opened=obs.has_opened, rules=obs.rules,
                         time_limit=time_limit).as_play()  # fmt: skip
            if play is not None:
                add(play)
    if params.reserve:
        smaller, held = hold_back(obs, default, 1)
        if held:
            add(smaller)
    if params.draw and obs.pool_size > 0:
        add(Draw())
    return out


def search(
    obs: Observation,
    cands: list[Action],
    sampler: Sampler,
    rng: random.Random,
    params: SearchParams,
    *,
    max_samples: int,
    min_samples: int = 1,
    deadline: float | None = None,
    hard_deadline: float | None = None,
) -> SearchResult:
    """Judge ``cands`` (the default first) by playouts in the same sampled deals: at most
    ``max_samples`` deals; past ``deadline`` (``time.monotonic()``) no new deal is started once
    ``min_samples`` are done, and none at all past ``hard_deadline``. With ``params.prune``, a
    candidate clearly behind the default is no longer played out (more deals for the others),
    and the search stops when none is left beside the default."""
    from rummikub.solver.counts import counts_supported

    from .grid_playout import GridRound

    me = obs.player
    plies = params.rounds * obs.players - 1
    # playouts on tile counts (the same moves, faster) unless a learned model values them
    on_counts = not params.leaf.learned and counts_supported(obs.rules)
    totals = [0.0] * len(cands)
    played = [0] * len(cands)
    diffs = [0.0] * len(cands)  # sums of squared differences to the default, deal by deal
    active = list(range(len(cands)))
    samples = 0
    while samples < max_samples:
        now = time.monotonic()
        if samples and hard_deadline is not None and now > hard_deadline:
            break
        if samples >= min_samples and deadline is not None and now > deadline:
            break
        det = sampler(rng)
        values: dict[int, float] = {}
        base = GridRound.of(det) if on_counts else None
        for i in active:
            if base is not None:  # the candidates are legal (checked): no second check
                g = base.copy().apply(cands[i]).rollout(plies)
                values[i] = lead_value(g.sizes, g.opened, me, params.leaf, g.ended, g.winner)
            else:
                try:
                    values[i] = leaf_value(rollout(apply(det, cands[i]), plies), me, params.leaf)
                except IllegalPlayError:  # pragma: no cover - candidates are checked
                    values[i] = -1.0
            totals[i] += values[i]
            played[i] += 1
            diffs[i] += (values[i] - values[0]) ** 2
        samples += 1
        if params.prune > 0 and samples >= params.prune_after and len(active) > 1:
            active = [i for i in active if not _behind(i, totals, diffs, samples, params.prune)]
            if active == [0]:
                break  # every other move is clearly worse: the default stands
    means = tuple(t / max(n, 1) for t, n in zip(totals, played, strict=True))
    choice = max(active, key=lambda i: (means[i] - (params.margin if i else 0.0), -i))
    return SearchResult(cands[choice], tuple(cands), means, samples, tuple(played))


def _behind(i: int, totals: list[float], diffs: list[float], n: int, z: float) -> bool:
    """Whether candidate ``i`` (never the default, 0) is ``z`` standard errors of the paired
    difference behind the default after ``n`` deals (each played by both)."""
    if i == 0:
        return False
    mean = (totals[i] - totals[0]) / n
    var = max(diffs[i] / n - mean * mean, 0.0) * n / max(n - 1, 1)
    return mean < -z * math.sqrt(var / n) - 1e-9
