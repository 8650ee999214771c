"""A brute-force reference for small positions, independent of the solver's DP.

``best_value_partition`` tries every way to split a tile multiset into valid melds (the first
real tile goes into every meld that can hold it) and returns the highest total value;
``brute_solve`` tries every sub-multiset of the rack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import product

from rummikub.core.rules import Rules
from rummikub.core.tiles import JOKER, Tile


def _melds_with(first: Tile, avail: Counter[Tile], rules: Rules) -> list[tuple[Counter[Tile], int]]:
    """Melds holding ``first`` plus tiles of ``avail`` (multiset), with their best value."""
    out: list[tuple[Counter[Tile], int]] = []
    jokers = avail[JOKER]
    gmax = min(rules.colours, 4) if rules.colours >= 3 else 0
    n = first.number
    others = [Tile(c, n) for c in range(rules.colours) if c != first.colour and avail[Tile(c, n)]]
    for pick in product((0, 1), repeat=len(others)):
        chosen = [first] + [t for t, b in zip(others, pick, strict=True) if b]
        for j in range(jokers + 1):
            if 3 <= len(chosen) + j <= gmax:
                out.append((Counter(chosen + [JOKER] * j), n * (len(chosen) + j)))
    c = first.colour
    for start in range(1, n + 1):
        for end in range(max(n, start + 2), rules.numbers + 1):
            tiles: list[Tile] = []
            need = 0
            for k in range(start, end + 1):
                if k == n:
                    tiles.append(first)
                elif avail[Tile(c, k)]:
                    tiles.append(Tile(c, k))
                else:
                    need += 1
            if need > jokers:
                continue
            # positions without a real tile may still be filled by a joker instead of a real
            # tile; only the all-real-where-possible choice and joker swaps matter for
            # feasibility, so also try leaving out real tiles (replaced by jokers)
            reals = [t for t in tiles if t != first]
            for drop in product((0, 1), repeat=len(reals)):
                extra = sum(drop)
                if need + extra > jokers:
                    continue
                kept = [first] + [t for t, d in zip(reals, drop, strict=True) if not d]
                length = end - start + 1
                value = length * start + length * (length - 1) // 2
                out.append((Counter(kept + [JOKER] * (need + extra)), value))
    return out


def best_value_partition(tiles: Sequence[Tile], rules: Rules) -> int | None:
    """The highest total value of a split of ``tiles`` into valid melds, every tile used;
    ``None`` if there is no such split."""

    @cache
    def rec(state: tuple[tuple[Tile, int], ...]) -> int | None:
        avail = Counter(dict(state))
        avail = +avail
        if not avail:
            return 0
        reals = sorted((t for t in avail if not t.is_joker), key=lambda t: (t.colour, t.number))
        if not reals:
            return None
        first = reals[0]
        avail[first] -= 1
        best: int | None = None
        for meld, value in _melds_with(first, avail, rules):
            rest = avail.copy()
            rest[first] += 1
            rest.subtract(meld)
            if any(v < 0 for v in rest.values()):
                continue
            sub = rec(_key(rest))
            if sub is not None and (best is None or sub + value > best):
                best = sub + value
        return best

    return rec(_key(Counter(tiles)))


def _key(c: Counter[Tile]) -> tuple[tuple[Tile, int], ...]:
    return tuple(
        sorted(((t, k) for t, k in c.items() if k > 0), key=lambda kv: (kv[0].colour, kv[0].number))
    )


def brute_solve(
    table: Sequence[Tile], rack: Sequence[Tile], rules: Rules, *, floor: int = 0
) -> tuple[int, int]:
    """(most tiles placed, then highest total value of all melds); (0, 0) if nothing. With
    ``floor`` (an opening), the table must be empty and the melds worth at least ``floor``."""
    counts = Counter(rack)
    kinds = sorted(counts, key=lambda t: (t.colour, t.number))
    best = (0, 0)
    for choice in product(*(range(counts[k] + 1) for k in kinds)):
        placed = [k for k, m in zip(kinds, choice, strict=True) for _ in range(m)]
        if not placed or len(placed) < best[0]:
            continue
        value = best_value_partition([*table, *placed], rules)
        if value is None or value < floor:
            continue
        cand = (len(placed), value)
        if cand > best:
            best = cand
    return best
