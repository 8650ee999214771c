"""``expert``: the strategic joker policy plus a determinized search in the endgame.

Every decision starts from the solver's play placing the most tiles under ``strategic``'s joker
policy (rack jokers go down only in a play that empties the rack; no opening with a joker while
the pool is large); the bot answers at once when the choice is clear (nothing to play, going
out, opening). In the middle game it plays that: a reserve tile like ``strategic``'s measured
no better against ``greedy`` (set ``ExpertParams(strategy=StrategyParams(reserve=1))`` to hold
one anyway). Once an opponent is close to going out (6 tiles or fewer) or the pool runs low, it
compares that play with the best play placing one tile fewer from the same tiles (and with
drawing, when the play is a single tile): it samples deals of the unseen tiles consistent with
what it sees (:mod:`.sampling`), and in the same samples (common random numbers) checks with the
solver whether an opponent could lay his whole rack on the table each candidate leaves. The
biggest play stands unless a smaller one cuts that chance by at least a tenth of the samples.
Sampling stops when the time budget is spent.

``ExpertParams(rollout_search=True)`` also searches the middle game: each hold-back candidate is
rolled forward a few plies in the sampled deals with a fast greedy policy for every player and
scored by who is ahead (a win 1, a loss 0); measured weaker than the default, kept for
experiments.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from rummikub.core import (
    Action,
    Draw,
    IllegalPlayError,
    Observation,
    Pass,
    Play,
    RoundState,
    Table,
    Tile,
    apply,
    max_meld_value,
    pack_melds,
    read_meld,
)

from .base import fallback_action
from .moves import extensions, is_legal, replace_meld
from .sampling import determinize, unseen_tiles
from .strategic import StrategyParams, endgame, hold_back, policy_play, strategic_play

__all__ = ["ExpertBot", "ExpertParams", "quick_action"]


@dataclass(frozen=True, slots=True)
class ExpertParams:
    """Knobs of the expert."""

    limit: float = 0.3  # seconds per decision (the caller's time limit may lower it)
    max_samples: int = 32  # sampled deals per decision at most
    min_samples: int = 4  # below this the search keeps going past the budget's soft end
    strategy: StrategyParams = field(
        default_factory=lambda: StrategyParams(reserve=0, danger=6, pool_low=8)
    )
    risk_margin: float = 0.1  # endgame: risk cut a smaller play must bring (share of samples)
    rollout_search: bool = False  # midgame: choose hold-backs by rollouts (experimental)
    horizon: int = 6  # plies rolled out after the candidate move (rollout search)
    margin: float = 0.05  # mean score a hold-back must gain over the full play (rollouts)


def quick_action(state: RoundState) -> Action:
    """A fast greedy policy without rearranging the table: new melds packed from the rack
    (an opening when it reaches the opening value), then single tiles laid onto table melds."""
    rules = state.rules
    rack = state.rack
    player = state.current
    if not state.opened[player]:
        melds = pack_melds(rack.tiles, rules, objective="value")
        if melds and sum(read_meld(m, rules).value for m in melds) >= rules.opening_value:
            opening = tuple(t for m in melds for t in m.tiles)
            new = tuple(read_meld(m, rules).meld for m in melds)
            return Play(opening, Table(state.table.melds + new))
        return Draw() if state.pool else Pass()
    melds = pack_melds(rack.tiles, rules, objective="tiles")
    placed = [t for m in melds for t in m.tiles]
    table = Table(state.table.melds + tuple(read_meld(m, rules).meld for m in melds))
    left = list(rack.tiles)
    for t in placed:
        left.remove(t)
    progress = True
    while progress and left:
        progress = False
        for tile, index, meld in extensions(table, left, rules):
            table = replace_meld(table, index, meld)
            left.remove(tile)
            placed.append(tile)
            progress = True
            break
    if placed:
        return Play(tuple(placed), table)
    return Draw() if state.pool else Pass()


def _step(state: RoundState) -> RoundState:
    action = quick_action(state)
    try:
        return apply(state, action)
    except IllegalPlayError:
        return apply(state, Draw() if state.pool else Pass())


def _score(state: RoundState, me: int) -> float:
    if state.end is not None:
        if state.end.winner is None:
            return 0.5
        return 1.0 if state.end.winner == me else 0.0
    mine = len(state.racks[me])
    best_other = min(len(r) for i, r in enumerate(state.racks) if i != me)
    opened_bonus = 0.0 if state.opened[me] else 3.0
    return 1.0 / (1.0 + math.exp((mine + opened_bonus - best_other) / 3.0))


class ExpertBot:
    """Searches: samples the hidden tiles, tries each candidate play in the same samples and
    rolls the games forward; answers at once when the choice is clear."""

    name = "expert"

    def __init__(self, seed: int | None = None, params: ExpertParams | None = None) -> None:
        self.rng = random.Random(seed)
        self.params = params or ExpertParams()
        self.searched = 0  # decisions that needed a search (for statistics)
        self.samples = 0

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        started = time.monotonic()
        budget = self.params.limit
        if time_limit is not None:
            budget = min(budget, 0.8 * time_limit)
        best, rack = policy_play(obs, self.params.strategy, time_limit)
        if best is None:
            return fallback_action(obs)
        if len(best.tiles) == len(obs.rack) or not obs.has_opened:
            return best
        if endgame(obs, self.params.strategy):
            return self._endgame(obs, best, rack, started + budget)
        if self.params.rollout_search:
            return self._rollouts(obs, best, started, budget)
        return strategic_play(obs, self.params.strategy, best)

    # -- endgame: keep the opponents from going out ------------------------------------------
    def _endgame(
        self, obs: Observation, best: Play, rack: tuple[Tile, ...], deadline: float
    ) -> Action:
        """Among the plays from ``rack`` placing the most tiles or one fewer (and drawing, when
        the best play places one tile), the one least likely to let an opponent go out next
        turn, judged on sampled opponent racks; ties go to more tiles, then more value placed."""
        from rummikub.solver import best_per_count

        per_count = best_per_count(obs.table, rack, opened=True, rules=obs.rules)
        cands: list[Action] = [best]
        m = len(best.tiles)
        alt = per_count.get(m - 1)
        if alt is not None:
            play = alt.as_play()
            if play is not None and is_legal(obs, play):
                cands.append(play)
        if m == 1 and obs.pool_size > 0:
            cands.append(Draw())
        if len(cands) == 1:
            return best
        self.searched += 1
        unseen = unseen_tiles(obs)
        risk = [0] * len(cands)
        samples = 0
        while samples < self.params.max_samples:
            if time.monotonic() > deadline and samples >= self.params.min_samples:
                break
            det = determinize(obs, self.rng, unseen)
            for i, cand in enumerate(cands):
                table = cand.table if isinstance(cand, Play) else obs.table
                risk[i] += _someone_goes_out(det, obs.player, table)
            samples += 1
        self.samples += samples

        # a smaller play must cut the sampled risk clearly (by risk_margin of the samples)
        need = self.params.risk_margin * samples
        choice = 0
        for i in range(1, len(cands)):
            if risk[choice] - risk[i] >= max(1.0, need):
                choice = i
        return cands[choice]

    # -- optional rollout search --------------------------------------------------------------
    def _rollouts(self, obs: Observation, best: Play, started: float, budget: float) -> Action:
        cands: list[Action] = [best]
        seen = {best.tiles}
        for r in range(1, max(self.params.strategy.reserve, 3) + 1):
            smaller, held = hold_back(obs, best, r)
            if held and smaller.tiles not in seen:
                seen.add(smaller.tiles)
                cands.append(smaller)
        if len(cands) == 1:
            return best
        self.searched += 1
        deadline = started + budget
        unseen = unseen_tiles(obs)
        totals = [0.0] * len(cands)
        samples = 0
        while samples < self.params.max_samples:
            if time.monotonic() > deadline and samples >= self.params.min_samples:
                break
            if time.monotonic() > started + 2 * budget:
                break  # hard stop, even below min_samples
            det = determinize(obs, self.rng, unseen)
            for i, cand in enumerate(cands):
                try:
                    state = apply(det, cand)
                except IllegalPlayError:
                    totals[i] -= 1.0
                    continue
                for _ in range(self.params.horizon):
                    if state.end is not None:
                        break
                    state = _step(state)
                totals[i] += _score(state, obs.player)
            samples += 1
        self.samples += samples
        margin = self.params.margin * samples
        best_index = max(range(len(cands)), key=lambda i: (totals[i] - (margin if i else 0), -i))
        return cands[best_index]


def _someone_goes_out(det: RoundState, me: int, table: Table) -> int:
    """1 if, in this sampled deal, an opponent could lay his whole rack on ``table`` next turn
    (before opening: as rack-only melds worth the opening value), else 0."""
    from rummikub.solver import arrangeable

    rules = det.rules
    tiles = table.tiles()
    for p, rack in enumerate(det.racks):
        if p == me or not rack.tiles:
            continue
        if det.opened[p]:
            if arrangeable([*tiles, *rack.tiles], rules):
                return 1
        elif (
            arrangeable(list(rack.tiles), rules)
            and max_meld_value(rack.tiles, rules, at_least=rules.opening_value)
            >= rules.opening_value
        ):
            return 1
    return 0
