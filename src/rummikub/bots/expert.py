"""``expert``: determinized Monte Carlo search over the solver's candidate plays.

Each decision the bot asks the solver for its biggest play and builds a few candidates from it:
the play itself, the play with one to three tiles held back (see :mod:`.strategic`), the play
that dumps the most points, and drawing. It then samples deals of the unseen tiles consistent
with what it sees (:mod:`.sampling`), plays every candidate in the same sampled deals (common
random numbers) and rolls each game forward a few turns with a fast greedy policy for every
player, scoring a win 1, a loss 0 and an unfinished game by who is ahead in tiles. The
candidate with the best mean wins; it stops when its time budget is spent and answers at once
when the choice is clear (nothing to play, going out, opening, one candidate).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rummikub.core import (
    Action,
    Draw,
    IllegalPlayError,
    Observation,
    Pass,
    Play,
    RoundState,
    Table,
    apply,
    pack_melds,
    read_meld,
)

from .base import fallback_action
from .moves import extensions, is_legal, replace_meld
from .sampling import determinize, unseen_tiles
from .strategic import best_play, hold_back

__all__ = ["ExpertBot", "ExpertParams", "quick_action"]


@dataclass(frozen=True, slots=True)
class ExpertParams:
    limit: float = 0.3  # seconds per decision (the caller's time limit may lower it)
    horizon: int = 6  # plies rolled out after the candidate move
    max_samples: int = 64  # sampled deals per decision at most
    min_samples: int = 6  # below this the search keeps going past the budget's soft end
    reserve: int = 3
    draw_candidate: bool = False


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

    def candidates(self, obs: Observation, best: Play) -> list[Action]:
        out: list[Action] = [best]
        seen = {best.tiles}
        for r in range(1, self.params.reserve + 1):
            smaller, held = hold_back(obs, best, r)
            if held and smaller.tiles not in seen:
                seen.add(smaller.tiles)
                out.append(smaller)
        from rummikub.solver import solve

        dump = solve(obs.table, obs.rack, opened=True, rules=obs.rules, objective="value")
        play = dump.as_play()
        if play is not None and play.tiles not in seen and is_legal(obs, play):
            seen.add(play.tiles)
            out.append(play)
        if self.params.draw_candidate and obs.pool_size > 0:
            out.append(Draw())
        return out

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        started = time.monotonic()
        budget = self.params.limit
        if time_limit is not None:
            budget = min(budget, 0.8 * time_limit)
        best = best_play(obs, time_limit=time_limit)
        if best is None:
            return fallback_action(obs)
        if len(best.tiles) == len(obs.rack) or not obs.has_opened:
            return best
        cands = self.candidates(obs, best)
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
        best_index = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best_index]
