"""Exact placement search for Xpress: put as many dice faces as possible onto the table.

The table's faces must all stay on the table; any subset of the hand's faces may join them;
the result is rearranged freely into valid sets (groups and runs as in the tile game, judged
by :func:`rummikub.core.melds.read_meld`). With at most 18 dice in a game the search is small,
so it is exhaustive: the result is always optimal. Placements are compared by the number of
dice placed, then by the points they would count if left over (joker 10).

The printed rule "a joker that is removed from a set must become part of another set during the
same turn" (``XpressRules.freed_joker_new_set``, judged as in
:func:`rummikub.core.melds.replaced_joker_kept`) depends on the table's sets, so it applies when
the table is given as a :class:`Table` (``new_set=True``, the default). The search first ignores
it; when the best arrangement breaks it, the search runs again with every set that would keep a
replaced joker in its old run left out. That second search is slightly stricter than the rule
(it never counts on an old run being left whole elsewhere), so every placement returned is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from rummikub.core.melds import (
    Meld,
    joker_run_patterns,
    read_meld,
    replaced_joker_kept,
    stays_with_its_set,
)
from rummikub.core.table import Table
from rummikub.core.tiles import JOKER, Tile, sort_key

from .dice import Face, face_value

__all__ = [
    "Placement",
    "arrange",
    "arrange_onto",
    "best_placement",
    "can_place",
    "hand_set",
    "placement_score",
]

NUMBERS = 13
COLOURS = 4

_Kinds = tuple[Tile, ...]
_Counts = tuple[int, ...]
_Melds = tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class Placement:
    """The faces placed from the hand (sorted) and the complete new table."""

    faces: tuple[Face, ...]
    table: Table

    @property
    def count(self) -> int:
        return len(self.faces)

    @property
    def value(self) -> int:
        return sum(face_value(f) for f in self.faces)


def _order(tile: Tile) -> tuple[int, int, int]:
    return (1, 0, 0) if tile.is_joker else (0, tile.colour, tile.number)


class _Universe:
    """The tile kinds of one search and fast lookups between kinds and (colour, number)."""

    def __init__(self, kinds: _Kinds) -> None:
        self.kinds = kinds
        self.index = {k: i for i, k in enumerate(kinds)}
        self.joker = self.index.get(JOKER, -1)
        # grid[c][n] = kind index of Tile(c, n), or -1
        self.grid = [[-1] * (NUMBERS + 2) for _ in range(COLOURS)]
        for i, k in enumerate(kinds):
            if not k.is_joker:
                self.grid[k.colour][k.number] = i

    def melds_with(self, anchor: int, avail: _Counts) -> Iterator[tuple[int, ...]]:
        """Every valid set (kind indices in written order) holding ``anchor`` and otherwise
        only kinds available in ``avail``. Jokers may stand for any tile, also an available
        one (that matters when the real tile is needed elsewhere)."""
        jk = self.joker
        jokers = avail[jk] if jk >= 0 else 0
        t = self.kinds[anchor]
        if t.is_joker:
            seen: set[tuple[int, ...]] = set()
            for i, k in enumerate(self.kinds):
                if k.is_joker or avail[i] == 0:
                    continue
                for meld in self.melds_with(i, avail):
                    if jk in meld:
                        key = tuple(sorted(meld))
                        if key not in seen:
                            seen.add(key)
                            yield meld
            return
        c, n = t.colour, t.number
        grid = self.grid
        others = [
            grid[o][n] for o in range(COLOURS) if o != c and grid[o][n] >= 0 and avail[grid[o][n]]
        ]
        for size in range(0, len(others) + 1):
            for chosen in combinations(others, size):
                real = 1 + size
                for j in range(0, min(jokers, 4 - real) + 1):
                    if 3 <= real + j <= 4:
                        yield (anchor, *chosen) + (jk,) * j
        row = grid[c]
        have = [row[k] >= 0 and avail[row[k]] > 0 for k in range(NUMBERS + 2)]
        missing_below = 0
        for start in range(n, 0, -1):
            if start < n and not have[start]:
                missing_below += 1
            if missing_below > jokers:
                break
            missing = missing_below
            for stop in range(n, NUMBERS + 1):
                if stop > n and not have[stop]:
                    missing += 1
                if missing > jokers:
                    break
                if stop - start + 1 < 3:
                    continue
                spare = jokers - missing
                if spare == 0:
                    yield tuple(
                        anchor if k == n else (row[k] if have[k] else jk)
                        for k in range(start, stop + 1)
                    )
                    continue
                present = [k for k in range(start, stop + 1) if k != n and have[k]]
                for extra in range(0, min(spare, len(present)) + 1):
                    for subs in combinations(present, extra):
                        yield tuple(
                            anchor if k == n else (jk if (not have[k] or k in subs) else row[k])
                            for k in range(start, stop + 1)
                        )


def _take(meld: Sequence[int], total: _Counts, req: _Counts) -> tuple[_Counts, _Counts] | None:
    """Remove a set's tiles from the counts (required copies first); None if not available."""
    tot = list(total)
    rq = list(req)
    for i in meld:
        if tot[i] == 0:
            return None
        tot[i] -= 1
        if rq[i] > 0:
            rq[i] -= 1
    return tuple(tot), tuple(rq)


_Best = tuple[int, int, _Melds] | None


_Pattern = tuple[Counter[Tile], tuple[Tile, ...], int, Counter[Tile]]


def _search(
    kinds: _Kinds, total: _Counts, req: _Counts, forbidden: tuple[_Pattern, ...] = ()
) -> _Best:
    """The best (tiles used, value used, sets) using every required tile; None if impossible.
    A set that keeps a replaced joker of one of the ``forbidden`` old runs is never used."""

    uni = _Universe(kinds)
    values = [face_value(k) for k in kinds]

    @cache
    def go(tot: _Counts, rq: _Counts) -> _Best:
        anchor = next((i for i, c in enumerate(rq) if c > 0), None)
        best: _Best = None
        if anchor is None:
            best = (0, 0, ())
            # optional tiles: the smallest one left is either left off or used in a set
            free = next((i for i, c in enumerate(tot) if c > 0 and not kinds[i].is_joker), None)
            if free is None:
                return best
            skip = list(tot)
            skip[free] -= 1
            rest = go(tuple(skip), rq)
            if rest is not None and rest[:2] > best[:2]:
                best = rest
            anchor = free
        for meld in uni.melds_with(anchor, tot):
            if forbidden and uni.joker in meld:
                faces = Counter(kinds[i] for i in meld)
                if any(stays_with_its_set(p, faces) for p in forbidden):
                    continue
            taken = _take(meld, tot, rq)
            if taken is None:
                continue
            sub = go(*taken)
            if sub is None:
                continue
            tiles = tuple(kinds[i] for i in meld)
            cand = (sub[0] + len(meld), sub[1] + sum(values[i] for i in meld), (tiles, *sub[2]))
            if best is None or cand[:2] > best[:2]:
                best = cand
        return best

    return go(total, req)


def _canonical(melds: Iterable[Sequence[Tile]]) -> Table:
    out = [read_meld(Meld(tuple(m))).meld for m in melds]
    out.sort(key=lambda m: [sort_key(t) for t in m.tiles])
    return Table(tuple(out))


#: positions remembered: the evaluation's playouts meet the same ones again and again
@lru_cache(maxsize=32768)
def _solve(table_key: tuple[Tile, ...], hand_key: tuple[Tile, ...]) -> _Best:
    req = Counter(table_key)
    tot = req + Counter(hand_key)
    kinds = tuple(sorted(tot, key=_order))
    return _search(kinds, tuple(tot[k] for k in kinds), tuple(req[k] for k in kinds))


_PatternKey = tuple[tuple[Tile, ...], tuple[Tile, ...], int, tuple[Tile, ...]]


@lru_cache(maxsize=4096)
def _solve_forbidding(
    table_key: tuple[Tile, ...], hand_key: tuple[Tile, ...], patterns: tuple[_PatternKey, ...]
) -> _Best:
    req = Counter(table_key)
    tot = req + Counter(hand_key)
    kinds = tuple(sorted(tot, key=_order))
    forbidden = tuple((Counter(r), roles, j, Counter(w)) for r, roles, j, w in patterns)
    return _search(kinds, tuple(tot[k] for k in kinds), tuple(req[k] for k in kinds), forbidden)


def _key(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=_order))


def _best(table: Table | Sequence[Face], hand: Sequence[Face], new_set: bool) -> _Best:
    """The best arrangement of the table's faces and some of ``hand``'s, keeping a replaced
    joker out of its old run's set when ``new_set`` and the table is a :class:`Table`."""
    table_faces = table.tiles() if isinstance(table, Table) else list(table)
    found = _solve(_key(table_faces), _key(hand))
    if found is None or not new_set or not isinstance(table, Table):
        return found
    if replaced_joker_kept(table.melds, [Meld(m) for m in found[2]]) is None:
        return found
    patterns = tuple(
        (_key(r.elements()), roles, j, _key(w.elements()))
        for r, roles, j, w in joker_run_patterns(table.melds)
    )
    return _solve_forbidding(_key(table_faces), _key(hand), patterns)


def placement_score(
    table: Table | Sequence[Face], hand: Sequence[Face], *, new_set: bool = True
) -> tuple[int, int]:
    """(dice placed, their points) of the best placement, without building the table."""
    table_faces = table.tiles() if isinstance(table, Table) else list(table)
    found = _best(table, hand, new_set)
    if found is None:
        raise ValueError("the table itself cannot be arranged into valid sets")
    base = sum(face_value(f) for f in table_faces)
    return found[0] - len(table_faces), found[1] - base


def best_placement(
    table: Table | Sequence[Face], hand: Sequence[Face], *, new_set: bool = True
) -> Placement:
    """The placement of the most hand faces (then the most points) onto ``table``.

    ``table`` is the current table (every face on it stays); the result's ``faces`` is empty
    when nothing can be placed, and then ``table`` is returned unchanged. With ``new_set``
    (the printed rule) no joker replaced by the die it stood for stays in its old run's set.
    """
    table_faces = table.tiles() if isinstance(table, Table) else list(table)
    found = _best(table, hand, new_set)
    if found is None:
        raise ValueError("the table itself cannot be arranged into valid sets")
    melds = found[2]
    used = Counter(t for m in melds for t in m) - Counter(table_faces)
    if not +used:
        current = table if isinstance(table, Table) else _canonical(melds)
        return Placement((), current)
    return Placement(_key(used.elements()), _canonical(melds))


def can_place(table: Table | Sequence[Face], hand: Sequence[Face], *, new_set: bool = True) -> bool:
    """Whether at least one face of ``hand`` can be placed (with any rearrangement)."""
    if not hand:
        return False
    return placement_score(table, hand, new_set=new_set)[0] > 0


def hand_set(hand: Sequence[Face]) -> Meld | None:
    """A complete set made only of ``hand``'s faces, or None if the hand holds none."""
    found = _solve((), _key(hand))
    if found is None or not found[2]:
        return None
    return read_meld(Meld(found[2][0])).meld


def arrange(faces: Sequence[Face]) -> Table | None:
    """An arrangement of exactly ``faces`` into valid sets, or None if there is none."""
    found = _solve(_key(faces), ())
    if found is None:
        return None
    return _canonical(found[2])


def arrange_onto(table: Table, faces: Sequence[Face], *, new_set: bool = True) -> Table | None:
    """A new table holding every face of ``table`` and exactly ``faces`` in valid sets (with
    ``new_set``, none keeping a replaced joker in its old run's set), or None."""
    every = [*table.tiles(), *faces]
    found = _solve(_key(every), ())
    if found is None:
        return None
    if not new_set or replaced_joker_kept(table.melds, [Meld(m) for m in found[2]]) is None:
        return _canonical(found[2])
    patterns = tuple(
        (_key(r.elements()), roles, j, _key(w.elements()))
        for r, roles, j, w in joker_run_patterns(table.melds)
    )
    found = _solve_forbidding(_key(every), (), patterns)
    return None if found is None else _canonical(found[2])
