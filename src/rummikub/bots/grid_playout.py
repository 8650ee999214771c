"""Playouts on tile counts: the greedy playout policy of :mod:`.playout` for a round kept as
count grids (racks, table) instead of tiles and melds, several times faster.

Under rules where the solver locks no table meld (:func:`rummikub.solver.counts.
counts_supported`) its answer depends on the table's tiles only, not on their arrangement, so
a playout needs no melds: :func:`rummikub.solver.counts.placed_counts` gives the tiles the
greedy policy places, the same ones :func:`.playout.greedy_action` places (the same dynamic
program on the same problem), and drawing, passing and the end of the round follow
:func:`rummikub.core.apply`. A :class:`GridRound` played ``k`` moves is the
:class:`~rummikub.core.RoundState` that :func:`.playout.rollout` reaches in ``k`` moves, as
counts (``tests/bots/test_grid_playout.py`` checks it move by move).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np

from rummikub.core import (
    JOKER,
    Action,
    Draw,
    Pass,
    Play,
    Rack,
    RoundState,
    Rules,
    RulesError,
    Tile,
)
from rummikub.core.game import Match
from rummikub.core.scoring import EndReason, lowest_total, scores_of_values

__all__ = ["JOKER_OPENING_POOL", "GridRound", "PlayedRound", "greedy_round", "play_counts"]

#: with ``keep_jokers``, no opening with a joker while the pool holds more tiles than this
#: (``strategic``'s default, :class:`.strategic.StrategyParams`)
JOKER_OPENING_POOL = 20


@dataclass(slots=True)
class GridRound:
    """A round in play as counts (mutable: a playout's private copy). ``racks[p, c, n - 1]``:
    player ``p``'s tiles of colour ``c`` and number ``n`` (an int64 array); ``jokers[p]`` his
    jokers, ``sizes[p]`` all his tiles; ``table``, ``table_jokers`` and ``table_value`` (of its
    real tiles) likewise for the table; ``pool[drawn:]`` is what is left to draw."""

    rules: Rules
    racks: np.ndarray
    jokers: list[int]
    sizes: list[int]
    table: np.ndarray
    table_jokers: int
    table_value: int
    pool: tuple[Tile, ...]
    drawn: int
    opened: list[bool]
    current: int
    passes: int
    turn: int
    ended: bool = False
    winner: int | None = None
    reason: EndReason | None = None  # how the round ended ("rummikub" or "exhausted")

    @classmethod
    def of(cls, state: RoundState) -> GridRound:
        rules = state.rules
        racks = np.zeros((state.players, rules.colours, rules.numbers), np.int64)
        jokers = [0] * state.players
        for p, rack in enumerate(state.racks):
            jokers[p] = _count_into(racks[p], rack.tiles)
        table = np.zeros((rules.colours, rules.numbers), np.int64)
        tj = _count_into(table, (t for m in state.table.melds for t in m.tiles))
        value = int(table.sum(axis=0) @ np.arange(1, rules.numbers + 1))
        end = state.end
        return cls(
            rules, racks, jokers, [len(r) for r in state.racks], table, tj, value, state.pool,
            0, list(state.opened), state.current, state.passes, state.turn,
            end is not None, None if end is None else end.winner,
            None if end is None else end.reason,
        )  # fmt: skip

    @property
    def players(self) -> int:
        return len(self.sizes)

    def rack(self, player: int) -> Rack:
        """A player's rack as tiles."""
        tiles = [
            Tile(int(c), int(i) + 1)
            for c, i in zip(*np.nonzero(self.racks[player]), strict=True)
            for _ in range(int(self.racks[player, c, i]))
        ]
        return Rack(tuple(tiles) + (JOKER,) * self.jokers[player])

    def rollout(self, plies: int, keep_jokers: bool = False, hold: int | None = None) -> GridRound:
        """At most ``plies`` moves of the playout policy (fewer if the round ends); returns
        ``self``. ``keep_jokers`` and ``hold``: as for :meth:`step`."""
        for _ in range(plies):
            if self.ended:
                break
            self.step(keep_jokers, hold)
        return self

    def step(self, keep_jokers: bool = False, hold: int | None = None) -> None:
        """The playout policy's move for the player to move: greedy's (the solver's biggest
        play), or with ``keep_jokers`` the same under ``strategic``'s joker policy
        (:func:`.strategic.policy_play`: rack jokers go down only in a play that empties the
        rack, or once the pool is empty rather than passing; no opening with a joker while the
        pool holds more than :data:`JOKER_OPENING_POOL` tiles). The seat ``hold``, once
        opened, holds his tiles while the pool has any: he goes out when his whole rack can
        go down, and draws otherwise."""
        me = self.current
        if me == hold and self.opened[me] and self.drawn < len(self.pool):
            if self._whole_rack_fits(me):
                self._place(me, self.racks[me].copy(), self.jokers[me])
            else:
                self._draw(me)
            return
        got = self._best(me, self.jokers[me])
        # a play with a rack joker that does not empty the rack
        if keep_jokers and got is not None and got[1] and got[1] + got[0].sum() < self.sizes[me]:
            plain = self._best(me, 0)
            left = len(self.pool) - self.drawn
            if plain is not None or (not self.opened[me] and left > JOKER_OPENING_POOL):
                got = plain
            elif self.opened[me] and left > 0:
                got = None  # draw and keep the jokers
        if got is not None:
            self._place(me, *got)
        elif self.drawn < len(self.pool):
            self._draw(me)
        else:
            self._pass()

    def _best(self, me: int, jokers: int) -> tuple[np.ndarray, int] | None:
        """The solver's biggest play from ``me``'s rack with ``jokers`` of his jokers (an
        opening from the rack alone before he has opened), or ``None``."""
        from rummikub.solver.counts import placed_counts

        if not self.opened[me]:
            return self._opening(me, jokers)
        return placed_counts(self.rules, self.table, self.table_jokers, self.table_value,
                             self.racks[me], jokers)  # fmt: skip

    def apply(self, action: Action) -> GridRound:
        """Carry out a legal action of the player to move (it is not checked again: the
        caller checked it, as :func:`rummikub.core.apply` would); returns ``self``."""
        if isinstance(action, Play):
            self.place(*play_counts(action, self.rules))
        elif isinstance(action, Draw):
            self._draw(self.current)
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise TypeError(f"a playout takes a play, a draw or a pass, not {action!r}")
        return self

    def place(self, placed: np.ndarray, jokers: int) -> GridRound:
        """The player to move places these tiles of his rack (:func:`play_counts` of a legal
        play: not checked again); returns ``self``."""
        self._place(self.current, placed, jokers)
        return self

    def values(self) -> list[int]:
        """Each player's rack value (:func:`rummikub.core.rack_value`: a joker counts the
        rules' joker penalty)."""
        points = self.racks.sum(axis=1) @ _numbers(self.rules.numbers)
        penalty = self.rules.joker_penalty
        return [int(v) + penalty * j for v, j in zip(points, self.jokers, strict=True)]

    def copy(self) -> GridRound:
        """An independent copy (the rules and the pool are shared: they never change)."""
        return GridRound(
            self.rules, self.racks.copy(), self.jokers[:], self.sizes[:], self.table.copy(),
            self.table_jokers, self.table_value, self.pool, self.drawn, self.opened[:],
            self.current, self.passes, self.turn, self.ended, self.winner, self.reason,
        )  # fmt: skip

    def _draw(self, me: int) -> None:
        tile = self.pool[self.drawn]
        self.drawn += 1
        if tile.colour < 0:
            self.jokers[me] += 1
        else:
            self.racks[me, tile.colour, tile.number - 1] += 1
        self.sizes[me] += 1
        self._advance(0)

    def _pass(self) -> None:
        self._advance(self.passes + 1)
        if self.passes >= self.players:
            self._end(lowest_total(self.values(), self.current), "exhausted")

    def _whole_rack_fits(self, me: int) -> bool:
        """Whether ``me`` (opened) can place his whole rack: the table and his rack laid out
        together, every tile used."""
        from rummikub.solver.counts import arrangeable_counts

        grid = self.table + self.racks[me]
        return arrangeable_counts(self.rules, grid, self.table_jokers + self.jokers[me])

    def _opening(self, me: int, jokers: int) -> tuple[np.ndarray, int] | None:
        """The solver's opening from this rack with ``jokers`` of its jokers (rack tiles
        only: the table plays no part)."""
        from rummikub.solver.counts import opening_counts

        return opening_counts(self.rules, self.racks[me], jokers)

    def _place(self, me: int, placed: np.ndarray, jokers: int) -> None:
        self.racks[me] -= placed
        self.table += placed
        self.table_value += int(placed.sum(axis=0) @ _numbers(self.rules.numbers))
        self.jokers[me] -= jokers
        self.table_jokers += jokers
        self.sizes[me] -= int(placed.sum()) + jokers
        self.opened[me] = True
        self.passes = 0
        self.turn += 1
        if self.sizes[me] == 0:
            self._end(me, "rummikub")
        else:
            self.current = (me + 1) % self.players

    def _advance(self, passes: int) -> None:
        self.current = (self.current + 1) % self.players
        self.passes = passes
        self.turn += 1

    def _end(self, winner: int, reason: EndReason) -> None:
        self.ended = True
        self.winner = winner
        self.reason = reason

    def scores(self) -> tuple[int, ...]:
        """The round's scores under the rules (all 0 while it is not over)."""
        if self.reason is None:
            return (0,) * self.players
        return scores_of_values(self.rules, self.values(), self.reason, self.winner)


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """The outcome of a round played out on counts: its seed, the winner (``None`` for a
    round abandoned after too many turns), how it ended (``"rummikub"``, ``"exhausted"`` or
    ``"abandoned"``), the scores and the number of turns."""

    seed: int
    winner: int | None
    reason: EndReason
    scores: tuple[int, ...]
    turns: int


def greedy_round(rules: Rules, players: int, seed: int, max_turns: int = 2000) -> PlayedRound:
    """The first round of the match ``seed`` (the deal and first player of
    ``Match(rules, players, seed)``, as :func:`rummikub.bots.play_match` deals it), played
    to its end with the greedy playout policy in every seat, on counts. Only for rules where
    :func:`rummikub.solver.counts.counts_supported` holds. A round still running after
    ``max_turns`` turns is abandoned (scores nothing), as in :func:`play_match`."""
    from rummikub.solver.counts import counts_supported

    if not counts_supported(rules):
        raise RulesError(
            "rounds on counts need rules that lock no meld and open from the rack only",
            field="rules",
        )
    state = Match(rules, [f"p{i + 1}" for i in range(players)], seed).state
    g = GridRound.of(state).rollout(max_turns)
    if g.reason is None:
        return PlayedRound(seed, None, "abandoned", (0,) * players, g.turn)
    return PlayedRound(seed, g.winner, g.reason, g.scores(), g.turn)


def play_counts(play: Play, rules: Rules) -> tuple[np.ndarray, int]:
    """The rack tiles ``play`` places as counts (``grid[c, n - 1]``) and its jokers, as
    :meth:`GridRound.place` takes them."""
    placed = np.zeros((rules.colours, rules.numbers), np.int64)
    return placed, _count_into(placed, play.tiles)


@cache
def _numbers(numbers: int) -> np.ndarray:
    return np.arange(1, numbers + 1, dtype=np.int64)


def _count_into(grid: np.ndarray, tiles: Iterable[Tile]) -> int:
    """Add the real ``tiles`` to the count ``grid`` (``grid[c, n - 1]``); their jokers."""
    jokers = 0
    for t in tiles:
        if t.colour < 0:
            jokers += 1
        else:
            grid[t.colour, t.number - 1] += 1
    return jokers
