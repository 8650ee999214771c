"""``strategic``: the solver's biggest play, minus tiles worth holding back.

Rummikub players keep a *reserve*: tiles that could go on the table now but can just as well go
there next turn, so that next turn they play instead of drawing. The bot takes the solver's
play that places the most tiles and then takes back tiles that sit where the meld stays valid
without them — the end of a run of four or more, the fourth tile of a group, a joker in such a
spot — so each of them can be laid back on that same meld later. Jokers are held first (they fit
almost anywhere), then the highest tiles are played first (so the reserve costs little if an
opponent goes out). Holding back stops when it would not pay: when an opponent is close to going
out, when the pool runs low, or when the rest of the rack can all be played (then it goes out).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rummikub.core import (
    Action,
    IllegalPlayError,
    Meld,
    Observation,
    Play,
    Rules,
    Table,
    Tile,
    read_meld,
)

from .base import fallback_action
from .moves import is_legal

__all__ = ["StrategicBot", "StrategyParams", "hold_back"]


@dataclass(frozen=True, slots=True)
class StrategyParams:
    """Knobs of the hold-back strategy."""

    reserve: int = 1  # most tiles kept back on the rack
    danger: int = 5  # play everything when an opponent holds this many tiles or fewer
    pool_low: int = 8  # play everything when the pool holds this many tiles or fewer
    hold_jokers: bool = True
    only_jokers: bool = False  # hold back jokers only


def _without(meld: Meld, index: int) -> Meld:
    tiles = meld.tiles[:index] + meld.tiles[index + 1 :]
    roles = meld.roles[:index] + meld.roles[index + 1 :] if meld.roles else ()
    return Meld(tiles, roles)


def _valid(meld: Meld, rules: Rules) -> Meld | None:
    try:
        return read_meld(meld, rules).meld
    except IllegalPlayError:
        return None


def hold_back(
    obs: Observation, play: Play, limit: int, *, jokers: bool = True, only_jokers: bool = False
) -> tuple[Play, tuple[Tile, ...]]:
    """``play`` with up to ``limit`` of its rack tiles taken back, each from a spot where its
    meld stays valid without it; the play always keeps at least one tile. Returns the smaller
    play and the tiles held back. Before opening, only new melds are touched and the opening
    value is kept."""
    rules = obs.rules
    if limit <= 0 or len(play.tiles) <= 1:
        return play, ()
    melds = list(play.table.melds)
    protected = len(obs.table.melds) if not obs.has_opened else 0
    if protected and [m.key() for m in melds[:protected]] != [m.key() for m in obs.table.melds]:
        return play, ()
    available = Counter(play.tiles)
    order = sorted(
        available,
        key=lambda t: (0 if (t.is_joker and jokers) else 1, t.number if not t.is_joker else 99),
    )
    held: list[Tile] = []
    for tile in order:
        if (tile.is_joker and not jokers) or (only_jokers and not tile.is_joker):
            continue
        while available[tile] > 0 and len(held) < limit and len(held) < len(play.tiles) - 1:
            done = False
            for mi in range(protected, len(melds)):
                meld = melds[mi]
                if len(meld.tiles) <= 3:
                    continue
                for ti in (len(meld.tiles) - 1, 0, *range(1, len(meld.tiles) - 1)):
                    if meld.tiles[ti] != tile:
                        continue
                    smaller = _valid(_without(meld, ti), rules)
                    if smaller is not None:
                        melds[mi] = smaller
                        done = True
                        break
                if done:
                    break
            if not done:
                break
            available[tile] -= 1
            held.append(tile)
    if not held:
        return play, ()
    rest = list(play.tiles)
    for t in held:
        rest.remove(t)
    smaller_play = Play(tuple(rest), Table(tuple(melds)))
    if not is_legal(obs, smaller_play):
        return play, ()
    return smaller_play, tuple(held)


def endgame(obs: Observation, params: StrategyParams) -> bool:
    """Whether to stop holding back: an opponent is close to going out or the pool is low."""
    others = [n for i, n in enumerate(obs.rack_sizes) if i != obs.player]
    return min(others, default=99) <= params.danger or obs.pool_size <= params.pool_low


def best_play(obs: Observation, time_limit: float | None = None) -> Play | None:
    """The solver's play placing the most tiles (an opening before opening), or ``None``."""
    from rummikub.solver import solve

    sol = solve(obs.table, obs.rack, opened=obs.has_opened, rules=obs.rules,
                objective="tiles", time_limit=time_limit)  # fmt: skip
    play = sol.as_play()
    if play is None or not is_legal(obs, play):
        return None
    return play


def strategic_play(obs: Observation, params: StrategyParams, best: Play | None) -> Action:
    """The strategic answer given the solver's biggest play ``best``."""
    if best is None:
        return fallback_action(obs)
    if len(best.tiles) == len(obs.rack) or endgame(obs, params):
        return best
    smaller, _ = hold_back(
        obs, best, params.reserve, jokers=params.hold_jokers, only_jokers=params.only_jokers
    )
    return smaller


class StrategicBot:
    """Plays like ``greedy`` but keeps back a reserve tile it can lay later (a joker first), and
    plays everything once an opponent is close to going out or the pool runs low."""

    name = "strategic"

    def __init__(self, seed: int | None = None, params: StrategyParams | None = None) -> None:
        self.seed = seed
        self.params = params or StrategyParams()

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        return strategic_play(obs, self.params, best_play(obs))
