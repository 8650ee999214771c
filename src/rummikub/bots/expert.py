"""``expert``: a search over the decisions ``greedy`` never weighs.

It plays under ``strategic``'s joker policy (rack jokers go down only in a play that empties the
rack; no opening with a joker while the pool is large) and answers at once when the choice is
clear: nothing to play, going out, opening. Otherwise it searches (:mod:`.search`): the biggest
play, the best plays placing one or two tiles fewer (holding tiles back), the biggest play minus
a reserve tile, and drawing although a play exists are each played out a few turns with
``greedy``'s policy for every player in the same sampled deals of the unseen tiles (common
random numbers), and the best mean stands.

Deals are sampled consistent with what the bot sees. With ``ExpertParams(track=True)`` they
also fit what the opponents showed (:mod:`.tracking`): an opened opponent who drew instead of
playing is dealt the tiles that would simply have extended the table he saw less often, and
with ``track_plays`` so is the player just before the bot, whatever he did, for the table he
left (both measured no better, so they are off by default). The search stops at the time budget
(``ExpertParams.limit``, at most 0.8 × the caller's time limit) or at ``max_samples`` deals.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from rummikub.core import (
    Action,
    Draw,
    Observation,
    Pass,
    Play,
    RoundState,
    Table,
    read_meld,
)

from .base import fallback_action
from .moves import extensions, pack_rack, replace_meld
from .sampling import unseen_tiles
from .search import SearchParams, SearchResult, candidates, search
from .strategic import StrategyParams, policy_play
from .tracking import OpponentModel, weighted_deal

__all__ = ["ExpertBot", "ExpertParams", "quick_action"]


@dataclass(frozen=True, slots=True)
class ExpertParams:
    """Knobs of the expert."""

    limit: float = 1.0  # seconds per decision (the caller's time limit may lower it)
    max_samples: int = 1000  # sampled deals per decision at most (the time budget ends first)
    min_samples: int = 4  # below this the search goes on past the budget (to twice it at most)
    strategy: StrategyParams = field(default_factory=lambda: StrategyParams(reserve=0))
    search: SearchParams = field(default_factory=SearchParams)
    rollout_search: bool = True  # search after opening (False: play the policy's biggest play)
    track: bool = False  # deal shown-lacking tiles to an opponent less often (measured: no gain)
    track_weight: float = 0.25  # ... this many times as often as another tile
    track_plays: bool = False  # ... and the tiles that would extend the table he left
    opening_search: bool = False  # search the opening too (smaller openings, not opening yet)


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
    """Searches: samples the hidden tiles, plays each candidate move out in the same samples
    and keeps the best; answers at once when the choice is clear."""

    name = "expert"

    def __init__(self, seed: int | None = None, params: ExpertParams | None = None) -> None:
        self.rng = random.Random(seed)
        self.params = params or ExpertParams()
        self.model = OpponentModel(self.params.track_plays)
        self.searched = 0  # decisions that needed a search (for statistics)
        self.samples = 0
        self.last: SearchResult | None = None  # the last search (for inspection)

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        started = time.monotonic()
        budget = self.params.limit
        if time_limit is not None:
            budget = min(budget, 0.8 * time_limit)
        if self.params.track:  # what the opponents showed (only the tracking uses it)
            self.model.observe(obs)
        action = self._decide(obs, started, budget, time_limit)
        if self.params.track:
            self.model.left(action.table if isinstance(action, Play) else obs.table)
        return action

    def _decide(
        self, obs: Observation, started: float, budget: float, time_limit: float | None
    ) -> Action:
        best, rack = policy_play(obs, self.params.strategy, time_limit)
        if best is None:
            return fallback_action(obs)
        if len(best.tiles) == len(obs.rack):
            return best
        if not obs.has_opened and not self.params.opening_search:
            return best
        if not self.params.rollout_search:
            return best
        left = None if time_limit is None else max(0.01, time_limit - (time.monotonic() - started))
        cands = candidates(obs, best, rack, self.params.search, left)
        if len(cands) == 1:
            return best
        self.searched += 1
        hard = 2 * budget if time_limit is None else min(2 * budget, 0.9 * time_limit)
        unseen = unseen_tiles(obs)
        avoid = self.model.avoid if self.params.track else {}
        weight = self.params.track_weight

        def sampler(rng: random.Random) -> RoundState:
            return weighted_deal(obs, rng, unseen, avoid, weight)

        result = search(
            obs, cands, sampler, self.rng, self.params.search,
            max_samples=self.params.max_samples, min_samples=self.params.min_samples,
            deadline=started + budget, hard_deadline=started + hard,
        )  # fmt: skip
        self.samples += result.samples
        self.last = result
        return result.action
