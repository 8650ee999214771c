"""Exact placement search for Xpress: put as many dice faces as possible onto the table.

The table's faces must all stay on the table; any subset of the hand's faces may join them;
the result is rearranged freely into valid sets (groups and runs as in the tile game, judged
by :func:`rummikub.core.melds.read_meld`). With at most 18 dice in a game the search is small,
so it is exhaustive: the result is always optimal. Placements are compared by the number of
dice placed, then by the points they would count if left over (joker 10).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from rummikub.core.melds import Meld, read_meld
from rummikub.core.table import Table
from rummikub.core.tiles import JOKER, Tile, sort_key

from .dice import Face, face_value

__all__ = ["Placement", "arrange", "best_placement", "can_place"]

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


def _melds_with(anchor: int, kinds: _Kinds, avail: _Counts) -> Iterator[tuple[Tile, ...]]:
    """Every valid set (tiles in written order) holding kinds[anchor] and otherwise only
    tiles available in ``avail`` (counts per kind). Jokers may stand for any tile, also one that
    is available (that can matter when the real tile is needed elsewhere)."""
    index = {k: i for i, k in enumerate(kinds)}
    jokers = avail[index[JOKER]] if JOKER in index else 0
    t = kinds[anchor]

    def has(tile: Tile, need: int = 1) -> bool:
        i = index.get(tile)
        return i is not None and avail[i] >= need

    if t.is_joker:
        # a joker-anchored set needs a real tile; enumerate via each real anchor, with a joker
        seen: set[tuple[Tile, ...]] = set()
        for i, k in enumerate(kinds):
            if k.is_joker or avail[i] == 0:
                continue
            for meld in _melds_with(i, kinds, avail):
                if JOKER in meld:
                    key = tuple(sorted(meld, key=_order))
                    if key not in seen:
                        seen.add(key)
                        yield meld
        return
    c, n = t.colour, t.number
    # groups of n holding colour c
    others = [Tile(o, n) for o in range(COLOURS) if o != c and has(Tile(o, n))]
    for size in range(0, len(others) + 1):
        for chosen in combinations(others, size):
            real = 1 + size
            for j in range(0, min(jokers, 4 - real) + 1):
                if 3 <= real + j <= 4:
                    yield (t, *chosen) + (JOKER,) * j
    # runs of colour c holding n
    for start in range(max(1, n - NUMBERS + 1), n + 1):
        forced_below = sum(1 for k in range(start, n) if not has(Tile(c, k)))
        if forced_below > jokers:
            continue
        for end in range(n, NUMBERS + 1):
            if end - start + 1 < 3:
                continue
            positions = [k for k in range(start, end + 1) if k != n]
            missing = [k for k in positions if not has(Tile(c, k))]
            if len(missing) > jokers:
                break
            present = [k for k in positions if has(Tile(c, k))]
            spare = jokers - len(missing)
            for extra in range(0, min(spare, len(present)) + 1):
                for subs in combinations(present, extra):
                    joker_at = set(missing) | set(subs)
                    yield tuple(
                        JOKER if k in joker_at else Tile(c, k) for k in range(start, end + 1)
                    )


def _take(meld: Sequence[Tile], kinds: _Kinds, total: _Counts, req: _Counts) -> tuple[
    _Counts, _Counts
] | None:
    """Remove a set's tiles from the counts (required copies first); None if not available."""
    tot = list(total)
    rq = list(req)
    index = {k: i for i, k in enumerate(kinds)}
    for tile in meld:
        i = index[tile]
        if tot[i] == 0:
            return None
        tot[i] -= 1
        if rq[i] > 0:
            rq[i] -= 1
    return tuple(tot), tuple(rq)


def _score(meld: Sequence[Tile]) -> tuple[int, int]:
    return len(meld), sum(face_value(t) for t in meld)


_Best = tuple[int, int, _Melds] | None


def _search(kinds: _Kinds, total: _Counts, req: _Counts) -> _Best:
    """The best (tiles used, value used, sets) using every required tile; None if impossible."""

    @lru_cache(maxsize=None)
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
        for meld in _melds_with(anchor, kinds, tot):
            taken = _take(meld, kinds, tot, rq)
            if taken is None:
                continue
            sub = go(*taken)
            if sub is None:
                continue
            cnt, val = _score(meld)
            cand = (sub[0] + cnt, sub[1] + val, (meld, *sub[2]))
            if best is None or cand[:2] > best[:2]:
                best = cand
        return best

    return go(total, req)


def _canonical(melds: Iterable[Sequence[Tile]]) -> Table:
    out = [read_meld(Meld(tuple(m))).meld for m in melds]
    out.sort(key=lambda m: [sort_key(t) for t in m.tiles])
    return Table(tuple(out))


@lru_cache(maxsize=4096)
def _solve(table_key: tuple[Tile, ...], hand_key: tuple[Tile, ...]) -> _Best:
    req = Counter(table_key)
    tot = req + Counter(hand_key)
    kinds = tuple(sorted(tot, key=_order))
    return _search(kinds, tuple(tot[k] for k in kinds), tuple(req[k] for k in kinds))


def _key(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=_order))


def best_placement(table: Table | Sequence[Face], hand: Sequence[Face]) -> Placement:
    """The placement of the most hand faces (then the most points) onto ``table``.

    ``table`` is the current table (every face on it stays); the result's ``faces`` is empty
    when nothing can be placed, and then ``table`` is returned unchanged.
    """
    table_faces = table.tiles() if isinstance(table, Table) else list(table)
    found = _solve(_key(table_faces), _key(hand))
    if found is None:
        raise ValueError("the table itself cannot be arranged into valid sets")
    melds = found[2]
    used = Counter(t for m in melds for t in m) - Counter(table_faces)
    if not +used:
        current = table if isinstance(table, Table) else _canonical(melds)
        return Placement((), current)
    return Placement(_key(used.elements()), _canonical(melds))


def can_place(table: Table | Sequence[Face], hand: Sequence[Face]) -> bool:
    """Whether at least one face of ``hand`` can be placed (with any rearrangement)."""
    if not hand:
        return False
    return best_placement(table, hand).count > 0


def arrange(faces: Sequence[Face]) -> Table | None:
    """An arrangement of exactly ``faces`` into valid sets, or None if there is none."""
    found = _solve(_key(faces), ())
    if found is None:
        return None
    return _canonical(found[2])
