"""Openings with ``open_then_extend``: the minimal sets of rack-only melds that open.

With ``open_then_extend`` a player who has not opened may use the table in the same turn once
rack-only melds worth the opening value are down. The engine accepts a play when its placed
tiles contain disjoint melds worth at least the opening value. The solver forces each minimal
such set of rack tiles (an "opening core") into the new table in turn and keeps the best play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core.rules import Rules
from ..core.tiles import JOKER, Tile, sort_key
from .groups import max_group_size

__all__ = ["opening_cores", "rack_melds"]


def rack_melds(rack: Sequence[Tile], rules: Rules) -> list[tuple[tuple[Tile, ...], int]]:
    """Every meld (as a sorted tile multiset, with its value) that can be built from the rack,
    runs up to 5 long (longer runs split into shorter ones of the same total value)."""
    counts = Counter(rack)
    jokers = counts.get(JOKER, 0)
    out: dict[tuple[Tile, ...], int] = {}
    gmax = max_group_size(rules.colours)
    for n in range(1, rules.numbers + 1):
        present = [c for c in range(rules.colours) if counts.get(Tile(c, n), 0)]
        for mask in range(1, 1 << len(present)):
            cols = [present[i] for i in range(len(present)) if mask >> i & 1]
            for j in range(0, jokers + 1):
                size = len(cols) + j
                if 3 <= size <= gmax:
                    tiles = tuple([Tile(c, n) for c in cols] + [JOKER] * j)
                    out[tuple(sorted(tiles, key=sort_key))] = n * size
    for c in range(rules.colours):
        for start in range(1, rules.numbers + 1):
            for length in range(3, 6):
                end = start + length - 1
                if end > rules.numbers:
                    break
                real = [Tile(c, k) for k in range(start, end + 1) if counts.get(Tile(c, k), 0)]
                need = length - len(real)
                if not real or need > jokers:
                    continue
                tiles = tuple(sorted(real + [JOKER] * need, key=sort_key))
                value = length * start + length * (length - 1) // 2
                if out.get(tiles, -1) < value:
                    out[tiles] = value
    return sorted(out.items(), key=lambda kv: [sort_key(t) for t in kv[0]])


def opening_cores(rack: Sequence[Tile], rules: Rules, limit: int = 2000) -> list[tuple[Tile, ...]]:
    """Minimal multisets of rack tiles that split into melds worth the opening value."""
    melds = rack_melds(rack, rules)
    target = rules.opening_value
    avail = Counter(rack)
    cores: set[tuple[Tile, ...]] = set()

    def search(i: int, chosen: list[Tile], value: int) -> None:
        if len(cores) >= limit:
            return
        if value >= target and chosen:
            cores.add(tuple(sorted(chosen, key=sort_key)))
            return
        for k in range(i, len(melds)):
            tiles, v = melds[k]
            need = Counter(tiles)
            if any(avail[t] < m for t, m in need.items()):
                continue
            avail.subtract(need)
            search(k, [*chosen, *tiles], value + v)
            avail.update(need)

    search(0, [], 0)
    # drop cores that contain another core
    ordered = sorted(cores, key=len)
    minimal: list[tuple[Tile, ...]] = []
    for core in ordered:
        cc = Counter(core)
        if not any(not (Counter(m) - cc) for m in minimal):
            minimal.append(core)
    return minimal
