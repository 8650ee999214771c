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

from rummikub.core import JOKER, Action, Draw, Pass, Play, Rack, RoundState, Rules, Table, Tile
from rummikub.core.scoring import exhausted_winner

__all__ = ["GridRound"]

_EMPTY = Table(())


@dataclass(slots=True)
class GridRound:
    """A round in play as counts (mutable: a playout's private copy). ``racks[p][c][n - 1]``:
    player ``p``'s tiles of colour ``c`` and number ``n``; ``jokers[p]`` his jokers;
    ``table``, ``table_jokers`` and ``table_value`` (of its real tiles) likewise for the
    table; ``pool[drawn:]`` is what is left to draw."""

    rules: Rules
    racks: list[list[list[int]]]
    jokers: list[int]
    sizes: list[int]
    table: list[list[int]]
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

    @classmethod
    def of(cls, state: RoundState) -> GridRound:
        rules = state.rules
        racks: list[list[list[int]]] = []
        jokers: list[int] = []
        for rack in state.racks:
            grid, j = _counts(rack.tiles, rules)
            racks.append(grid)
            jokers.append(j)
        table, tj = _counts((t for m in state.table.melds for t in m.tiles), rules)
        value = sum(k * (i + 1) for row in table for i, k in enumerate(row) if k)
        end = state.end
        return cls(
            rules, racks, jokers, [len(r) for r in state.racks], table, tj, value, state.pool,
            0, list(state.opened), state.current, state.passes, state.turn,
            end is not None, None if end is None else end.winner,
        )  # fmt: skip

    @property
    def players(self) -> int:
        return len(self.racks)

    def rack(self, player: int) -> Rack:
        """A player's rack as tiles."""
        tiles = [
            Tile(c, i + 1) for c, row in enumerate(self.racks[player]) for i, k in enumerate(row)
            for _ in range(k)
        ]  # fmt: skip
        return Rack(tuple(tiles) + (JOKER,) * self.jokers[player])

    def rollout(self, plies: int) -> GridRound:
        """At most ``plies`` greedy moves (fewer if the round ends); returns ``self``."""
        for _ in range(plies):
            if self.ended:
                break
            self.step()
        return self

    def step(self) -> None:
        """The greedy playout policy's move for the player to move."""
        from rummikub.solver.counts import placed_counts

        me = self.current
        if self.opened[me]:
            got = placed_counts(self.rules, self.table, self.table_jokers, self.table_value,
                                self.racks[me], self.jokers[me])  # fmt: skip
        else:
            got = self._opening(me)
        if got is not None:
            self._place(me, *got)
        elif self.drawn < len(self.pool):
            self._draw(me)
        else:
            self._pass()

    def apply(self, action: Action) -> GridRound:
        """Carry out a legal action of the player to move (it is not checked again: the
        caller checked it, as :func:`rummikub.core.apply` would); returns ``self``."""
        if isinstance(action, Play):
            placed, jokers = _counts(action.tiles, self.rules)
            self._place(self.current, placed, jokers)
        elif isinstance(action, Draw):
            self._draw(self.current)
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise TypeError(f"a playout takes a play, a draw or a pass, not {action!r}")
        return self

    def copy(self) -> GridRound:
        """An independent copy (the rules and the pool are shared: they never change)."""
        return GridRound(
            self.rules, [[row[:] for row in r] for r in self.racks], self.jokers[:],
            self.sizes[:], [row[:] for row in self.table], self.table_jokers, self.table_value,
            self.pool, self.drawn, self.opened[:], self.current, self.passes, self.turn,
            self.ended, self.winner,
        )  # fmt: skip

    def _draw(self, me: int) -> None:
        tile = self.pool[self.drawn]
        self.drawn += 1
        if tile.colour < 0:
            self.jokers[me] += 1
        else:
            self.racks[me][tile.colour][tile.number - 1] += 1
        self.sizes[me] += 1
        self._advance(0)

    def _pass(self) -> None:
        self._advance(self.passes + 1)
        if self.passes >= self.players:
            racks = [self.rack(p) for p in range(self.players)]
            self._end(exhausted_winner(racks, self.rules, self.current))

    def _opening(self, me: int) -> tuple[list[list[int]], int] | None:
        """The solver's opening from this rack (rack tiles only: the table plays no part)."""
        from rummikub.solver import solve

        sol = solve(_EMPTY, self.rack(me), opened=False, rules=self.rules, fewest_changes=False)
        if not sol.play:
            return None
        placed, jokers = _counts(sol.play, self.rules)
        return placed, jokers

    def _place(self, me: int, placed: list[list[int]], jokers: int) -> None:
        rack, table = self.racks[me], self.table
        count = jokers
        for c, row in enumerate(placed):
            for i, k in enumerate(row):
                if k:
                    rack[c][i] -= k
                    table[c][i] += k
                    self.table_value += k * (i + 1)
                    count += k
        self.jokers[me] -= jokers
        self.table_jokers += jokers
        self.sizes[me] -= count
        self.opened[me] = True
        self.passes = 0
        self.turn += 1
        if self.sizes[me] == 0:
            self._end(me)
        else:
            self.current = (me + 1) % self.players

    def _advance(self, passes: int) -> None:
        self.current = (self.current + 1) % self.players
        self.passes = passes
        self.turn += 1

    def _end(self, winner: int) -> None:
        self.ended = True
        self.winner = winner


def _counts(tiles: Iterable[Tile], rules: Rules) -> tuple[list[list[int]], int]:
    from rummikub.solver.model import counts_grid

    return counts_grid(tiles, rules)
