"""``strategic``: the solver's biggest play, minus tiles worth holding back.

The tiles worth holding back most are the **jokers**. A joker on the rack lets its owner go out
later with a rack that would otherwise be one tile short; a joker on the table (under the `free`
joker rule) is a wildcard for every opponent. So the bot keeps its jokers until a play with
them empties its rack, and does not open with a joker while the pool is still large: it plays
the solver's biggest play *without* its jokers, and draws when that places nothing. Against
``greedy`` (which lays a joker whenever it places one more tile) this is the largest gain we
measured (docs/bots.md).

Rummikub players also keep a *reserve*: tiles that could go on the table now but can just as
well go there next turn, so that next turn they play instead of drawing. With ``reserve`` > 0
the bot takes back tiles that sit where the meld stays valid without them — the end of a run of
four or more, the fourth tile of a group — so each can be laid back on that same meld later,
the highest tiles played first (so the reserve costs little if an opponent goes out). Holding
back stops when it would not pay: when an opponent is close to going out, when the pool runs
low, or when the rest of the rack can all be played (then it goes out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
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

__all__ = ["StrategicBot", "StrategyParams", "hold_back", "policy_play"]


@dataclass(frozen=True, slots=True)
class StrategyParams:
    """Knobs of the hold-back strategy."""

    reserve: int = 1  # most tiles kept back on the rack (besides jokers)
    danger: int = 5  # no reserve when an opponent holds this many tiles or fewer
    pool_low: int = 8  # no reserve when the pool holds this many tiles or fewer
    hold_jokers: bool = True  # the reserve may hold a joker (when one is in the play)
    only_jokers: bool = False  # the reserve holds jokers only
    keep_jokers: bool = True  # rack jokers go down only in a play that empties the rack
    joker_opening_pool: int = 20  # before opening, use jokers only once the pool is this small


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


def best_play(
    obs: Observation, time_limit: float | None = None, rack: Sequence[Tile] | None = None
) -> Play | None:
    """The solver's play placing the most tiles from ``rack`` (default: the whole rack; an
    opening before opening), or ``None``."""
    from rummikub.solver import solve

    tiles = obs.rack.tiles if rack is None else tuple(rack)
    if not tiles:
        return None
    sol = solve(obs.table, tiles, opened=obs.has_opened, rules=obs.rules,
                objective="tiles", time_limit=time_limit)  # fmt: skip
    play = sol.as_play()
    if play is None or not is_legal(obs, play):
        return None
    return play


def policy_play(
    obs: Observation, params: StrategyParams, time_limit: float | None = None
) -> tuple[Play | None, tuple[Tile, ...]]:
    """The biggest play under the joker policy (``keep_jokers``), and the rack tiles it was
    chosen from (the rack without its jokers when they are kept back). ``None``: draw (pass).

    A play with a rack joker is made only when it empties the rack; otherwise the biggest play
    without the jokers. Before opening, while the pool holds more than ``joker_opening_pool``
    tiles, the opening is made without jokers or not at all. Once the pool is empty a joker
    play is made rather than passing."""
    rack = obs.rack.tiles
    plain = tuple(t for t in rack if not t.is_joker)
    if not params.keep_jokers or len(plain) == len(rack):
        return best_play(obs, time_limit), rack
    full = best_play(obs, time_limit)
    if full is not None and len(full.tiles) == len(rack):
        return full, rack  # going out (an opening may empty the rack too)
    if not obs.has_opened and obs.pool_size > params.joker_opening_pool:
        return best_play(obs, time_limit, plain), plain
    if full is None or not any(t.is_joker for t in full.tiles):
        return full, rack
    held = best_play(obs, time_limit, plain)
    if held is not None:
        return held, plain
    if obs.has_opened and obs.pool_size > 0:
        return None, plain  # draw and keep the jokers
    return full, rack


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
    """Plays like ``greedy`` but keeps its jokers until they let it go out, does not open with a
    joker while the pool is large, and keeps back a reserve tile it can lay later until an
    opponent is close to going out or the pool runs low."""

    name = "strategic"

    def __init__(self, seed: int | None = None, params: StrategyParams | None = None) -> None:
        self.seed = seed
        self.params = params or StrategyParams()

    def act(self, obs: Observation, time_limit: float | None = None) -> Action:
        return strategic_play(obs, self.params, policy_play(obs, self.params, time_limit)[0])
