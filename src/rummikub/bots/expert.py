"""``expert``: plays the best move by the evaluation (:mod:`.evaluation`), the judgement the
analysis and the hint use too.

It plays under ``strategic``'s joker policy (rack jokers go down only in a play that empties the
rack; no opening with a joker while the pool is large) and answers at once when the choice is
clear: nothing to play, going out, opening. Otherwise it ranks the candidate moves
(:func:`.evaluation.candidate_moves`: the biggest play, the same under the joker policy, plays
placing one and two tiles fewer, a reserve tile held back, drawing although a play exists) by
:func:`.evaluation.rank_moves` — every candidate played out a few turns with ``greedy``'s policy
for every player in the same sampled deals of the unseen tiles (common random numbers), the
position reached valued by the learned model — and plays the one with the best chance to win.
The ranking stops at the time budget (``ExpertParams.limit``, at most 0.8 × the caller's time
limit) or at ``max_samples`` deals. It samples the deals the hint and the analysis sample in the
same position (:func:`.evaluation.judge_seed`): given the analysis's number of deals it plays
the hint's move, and with fewer it ranks on the first of those deals, so the review judges its
choices on the deals they were made on, not on independent ones (where picking the best of noisy
estimates always looks worse than it was).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rummikub.core import Action, Draw, Observation, Pass, Play, RoundState, Table, read_meld

from .base import fallback_action
from .moves import extensions, pack_rack, replace_meld
from .search import SearchResult
from .strategic import StrategyParams, policy_play

__all__ = ["ExpertBot", "ExpertParams", "quick_action"]


@dataclass(frozen=True, slots=True)
class ExpertParams:
    """Knobs of the expert."""

    limit: float = 1.0  # seconds per decision (the caller's time limit may lower it)
    max_samples: int = 1000  # sampled deals per decision at most (the time budget ends first)
    strategy: StrategyParams = field(default_factory=lambda: StrategyParams(reserve=0))
    rollout_search: bool = True  # rank the moves after opening (False: the policy's biggest play)


def quick_action(state: RoundState) -> Action:
    """A fast greedy policy without rearranging the table: new melds packed from the rack
    (an opening when it reaches the opening value), then single tiles laid onto table melds."""
    rules = state.rules
    rack = state.rack
    player = state.current
    if not state.opened[player]:
        melds = pack_rack(rack.tiles, rules, opening=True)
        if melds:
            opening = tuple(t for m in melds for t in m.tiles)
            new = tuple(read_meld(m, rules).meld for m in melds)
            return Play(opening, Table(state.table.melds + new))
        return Draw() if state.pool else Pass()
    melds = pack_rack(rack.tiles, rules, opening=False)
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


class ExpertBot:
    """Ranks the candidate moves by the evaluation and plays the best; answers at once when the
    choice is clear."""

    name = "expert"

    def __init__(self, seed: int | None = None, params: ExpertParams | None = None) -> None:
        del seed  # taken like every bot's: the expert's choice depends on the position alone
        self.params = params or ExpertParams()
        self.searched = 0  # decisions that needed a ranking (for statistics)
        self.samples = 0
        self.last: SearchResult | None = None  # the last ranking (for inspection)

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        started = time.monotonic()
        budget = self.params.limit
        if time_limit is not None:
            budget = min(budget, 0.8 * time_limit)
        best, _ = policy_play(obs, self.params.strategy, time_limit)
        if best is None:
            return fallback_action(obs)
        if len(best.tiles) == len(obs.rack) or not obs.has_opened:
            return best
        if not self.params.rollout_search:
            return best
        from .evaluation import candidate_moves, judge_seed, rank_moves

        # the candidates' solver calls within the budget: on a held rack of 30-40 tiles they
        # could take seconds (at least 10 ms; a call cut short gives the best found so far)
        left = max(0.01, budget - (time.monotonic() - started))
        cands = candidate_moves(obs, left)
        if len(cands) == 1:
            return cands[0]
        self.searched += 1
        remaining = max(0.0, budget - (time.monotonic() - started))
        ranked = rank_moves(
            obs, cands, samples=self.params.max_samples, seed=judge_seed(obs),
            time_limit=remaining,
        )  # fmt: skip
        action, ev = ranked[0]
        self.samples += ev.samples
        values = {id(a): e.win_match for a, e in ranked}
        self.last = SearchResult(
            action, tuple(cands), tuple(values[id(a)] for a in cands), ev.samples
        )
        return action
