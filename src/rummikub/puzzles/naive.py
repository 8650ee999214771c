"""What the naive ways place, the yardstick a puzzle has to beat: new sets from the rack
alone, and tiles added to the ends of the table's sets (a run made longer at either end, a
group given another colour), the table's sets otherwise left as they are. A puzzle is kept only
when its answer places more than this: the answer needs the table rearranged.

For an opening the naive way is the obvious packing: the most valuable single set of real
tiles taken first, again and again, then what is left (jokers included) packed as well as it
can be."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache

from rummikub.core import JOKER, Meld, Rules, Table, Tile, pack_melds, read_meld
from rummikub.core.packing import max_meld_value

__all__ = ["greedy_opening_value", "naive_tiles"]

#: a table meld as the naive ways see it: ("run", colour, first, last) or
#: ("group", number, real colours (sorted), size)
_Shape = tuple[str, int, int, int] | tuple[str, int, tuple[int, ...], int]


def _shape(meld: Meld, rules: Rules) -> _Shape:
    reading = read_meld(meld, rules)
    n = len(reading.tiles)
    if reading.kind == "run":
        return ("run", reading.colour, reading.number, reading.number + n - 1)
    colours = tuple(sorted(t.colour for t in meld.tiles if not t.is_joker))
    return ("group", reading.number, colours, n)


def _extensions(shape: _Shape, tile: Tile, rules: Rules) -> list[_Shape]:
    """The shapes ``shape`` takes with ``tile`` added at an end (none if it does not fit)."""
    out: list[_Shape] = []
    if shape[0] == "run":
        _, colour, first, last = shape
        assert isinstance(first, int)
        if last - first + 1 >= rules.numbers:
            return out
        if tile.is_joker or tile.colour == colour:
            if first > 1 and (tile.is_joker or tile.number == first - 1):
                out.append(("run", colour, first - 1, last))
            if last < rules.numbers and (tile.is_joker or tile.number == last + 1):
                out.append(("run", colour, first, last + 1))
        return out
    _, number, colours, size = shape
    assert isinstance(colours, tuple)
    if size >= min(rules.colours, 4):
        return out
    if tile.is_joker:
        out.append(("group", number, colours, size + 1))
    elif tile.number == number and tile.colour not in colours:
        out.append(("group", number, tuple(sorted((*colours, tile.colour))), size + 1))
    return out


def naive_tiles(table: Table, rack: Iterable[Tile], rules: Rules) -> int:
    """The most rack tiles the naive ways place (for a player who has opened)."""
    shapes = tuple(sorted(_shape(m, rules) for m in table.melds))
    start = tuple(sorted(Counter(rack).items(), key=lambda kv: (kv[0].colour, kv[0].number)))

    @cache
    def best(state: tuple[_Shape, ...], left: tuple[tuple[Tile, int], ...]) -> int:
        tiles = [t for t, k in left for _ in range(k)]
        top = sum(len(m) for m in pack_melds(tiles, rules))
        for i, (tile, _k) in enumerate(left):
            for j, shape in enumerate(state):
                for grown in _extensions(shape, tile, rules):
                    rest = list(left)
                    k = rest[i][1] - 1
                    if k:
                        rest[i] = (tile, k)
                    else:
                        del rest[i]
                    new_state = tuple(sorted((*state[:j], grown, *state[j + 1 :])))
                    top = max(top, 1 + best(new_state, tuple(rest)))
                    if top == len(tiles):
                        return top
        return top

    return best(shapes, start)


def _best_single(tiles: Counter[Tile], rules: Rules) -> tuple[Tile, ...]:
    """The most valuable single set of the real tiles ``tiles`` (longest first on ties)."""
    best: tuple[int, int, tuple[Tile, ...]] = (0, 0, ())
    for colour in range(rules.colours):
        for first in range(1, rules.numbers + 1):
            run: list[Tile] = []
            for n in range(first, rules.numbers + 1):
                if tiles[Tile(colour, n)] == 0:
                    break
                run.append(Tile(colour, n))
                if len(run) >= 3:
                    value = sum(t.number for t in run)
                    best = max(best, (value, len(run), tuple(run)))
    for number in range(1, rules.numbers + 1):
        group = tuple(Tile(c, number) for c in range(rules.colours) if tiles[Tile(c, number)])
        group = group[: min(rules.colours, 4)]
        if len(group) >= 3:
            best = max(best, (number * len(group), len(group), group))
    return best[2]


def greedy_opening_value(rack: Iterable[Tile], rules: Rules) -> int:
    """The value of the obvious opening: the most valuable set of real tiles, taken again and
    again while there is one, then the rest (jokers too) packed for value."""
    left = Counter(rack)
    total = 0
    while True:
        real = Counter({t: k for t, k in left.items() if t != JOKER})
        meld = _best_single(real, rules)
        if not meld:
            break
        total += sum(t.number for t in meld)
        left -= Counter(meld)
    return total + max_meld_value(list(left.elements()), rules)
