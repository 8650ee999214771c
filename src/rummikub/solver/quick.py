"""Exact shortcuts that answer "nothing can be placed" without running the dynamic program.

Both tests are relaxations: they only say *no* when no valid meld can exist, so skipping the
DP on their answer never changes a result.

- A real tile can be in a valid meld only if some three-tile part of that meld containing it
  can be built: a group (the tile, and two tiles of other colours at its number or jokers) or
  a run window of three consecutive numbers of its colour (gaps filled by jokers). Every valid
  meld has at least three tiles, so every tile of it lies in such a part.
- A play placing real rack tiles needs at least one of them in a meld, so when no real rack tile
  passes that test with all table and rack tiles available (and the rack holds no joker), no
  play exists.
- A real rack tile that fails the test can never be placed, so the DP may leave it out (a
  smaller problem, the same optimum).
- An opening is made of rack-only melds: its value is at most the sum of the real rack tiles
  that pass the test with rack tiles only, plus the highest number per rack joker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..core.rules import Rules
from ..core.tiles import Tile
from .groups import max_group_size

__all__ = [
    "can_place_any",
    "colours_present",
    "fit_count",
    "fit_masks",
    "fit_masks_of_bits",
    "fit_totals",
    "fits_grid",
    "fitting_rack",
    "opening_bound",
    "placeable",
    "placeable_grid",
    "rack_totals",
    "row_bits",
]


def _fits(tile: Tile, kinds: Counter[tuple[int, int]], jokers: int, rules: Rules) -> bool:
    """Whether ``tile`` can be in a three-tile group or run window made of the available tile
    kinds (``(colour, number)`` counts, the tile's own copy included) and ``jokers``."""
    return _fits_kinds(tile.colour, tile.number, kinds, jokers, rules.colours, rules.numbers)


def _fits_kinds(
    c: int, n: int, kinds: Counter[tuple[int, int]], jokers: int, colours: int, numbers: int
) -> bool:
    """:func:`_fits` for the tile of colour ``c`` and number ``n`` under rules of ``colours``
    colours and ``numbers`` numbers."""
    if jokers >= 2 and (colours >= 3 or numbers >= 3) and 1 <= n <= numbers:
        return True  # two jokers complete any group or run window of three
    get = kinds.get
    if colours >= 3:  # groups of three exist
        others = 0
        for k in range(colours):
            if k != c and get((k, n), 0) > 0:
                others += 1
        if others + jokers >= 2:
            return True
    for start in range(max(1, n - 2), min(n, numbers - 2) + 1):
        missing = 0
        for m in range(start, start + 3):
            if m != n and get((c, m), 0) == 0:
                missing += 1
        if missing <= jokers:
            return True
    return False


def colours_present(avail: Sequence[Sequence[int]], rules: Rules) -> list[int]:
    """How many colours are available at each number (index ``n - 1``) of a count grid; empty
    when the rules allow no group of three (then only runs are tested)."""
    if max_group_size(rules.colours) < 3:
        return []
    return [sum(map(bool, col)) for col in zip(*avail, strict=True)]


def fits_grid(
    avail: Sequence[Sequence[int]], present: Sequence[int], jokers: int, c: int, i: int
) -> bool:
    """The three-tile test (:func:`_fits`) on a count grid for a real tile of colour ``c`` and
    number ``i + 1``: ``avail[c][i]`` tiles available (its own copy included), ``present`` from
    :func:`colours_present`, ``jokers`` jokers in all."""
    if present and jokers + present[i] - 1 >= 2:
        return True
    row = avail[c]
    for start in range(max(0, i - 2), min(i, len(row) - 3) + 1):
        missing = (start != i and not row[start]) + (start + 1 != i and not row[start + 1])
        missing += start + 2 != i and not row[start + 2]
        if missing <= jokers:
            return True
    return False


_ROW_BITS: dict[tuple[int, ...], int] = {}  # count rows (a table's rows recur) and their bits


def row_bits(row: Sequence[int]) -> int:
    """The numbers of a count grid's row that hold a tile, as bits (bit ``i``: number
    ``i + 1``)."""
    key = row if isinstance(row, tuple) else tuple(row)
    bits = _ROW_BITS.get(key)
    if bits is None:
        bits = 0
        for i, x in enumerate(key):
            if x:
                bits |= 1 << i
        if len(_ROW_BITS) >= 1 << 16:
            _ROW_BITS.clear()
        _ROW_BITS[key] = bits
    return bits


def fit_masks(avail: Sequence[Sequence[int]], jokers: int, rules: Rules) -> list[int]:
    """The three-tile test (:func:`fits_grid`) for every real tile at once: per colour, the
    numbers whose tile passes it as bits (bit ``i``: number ``i + 1``), with ``avail`` and
    ``jokers`` as in :func:`fits_grid`."""
    return fit_masks_of_bits([row_bits(row) for row in avail], jokers, rules)


def fit_masks_of_bits(rows: Sequence[int], jokers: int, rules: Rules) -> list[int]:
    """:func:`fit_masks` of the available numbers of each colour as bits (``rows[c]``, bit
    ``i``: number ``i + 1``; :func:`row_bits`)."""
    width = rules.numbers
    full = (1 << width) - 1
    # groups: the numbers where at least 3 - jokers colours are available (the tile's own
    # among them)
    group = 0
    if max_group_size(rules.colours) >= 3:
        if jokers >= 2:
            group = full
        else:
            ge1 = ge2 = ge3 = 0
            for b in rows:
                ge3 |= ge2 & b
                ge2 |= ge1 & b
                ge1 |= b
            group = ge2 if jokers == 1 else ge3
    out = []
    for b in rows:
        # runs: a window of three numbers around the tile missing at most ``jokers`` tiles
        if width < 3:
            run = 0
        elif jokers >= 2:
            run = full
        elif jokers == 1:
            run = (b << 1 | b >> 1 | b << 2 | b >> 2) & full
        else:
            run = ((b << 2) & (b << 1) | (b << 1) & (b >> 1) | (b >> 1) & (b >> 2)) & full
        out.append(run | group)
    return out


def _kinds(tiles: Iterable[Tile]) -> tuple[Counter[tuple[int, int]], int]:
    kinds: Counter[tuple[int, int]] = Counter()
    jokers = 0
    for t in tiles:
        if t.colour < 0:  # the joker
            jokers += 1
        else:
            kinds[(t.colour, t.number)] += 1
    return kinds, jokers


def can_place_any(table_tiles: Iterable[Tile], rack: Sequence[Tile], rules: Rules) -> bool:
    """False only when no rack tile can be placed on this table, whatever the rearrangement
    (an opened player's play). A rack joker always answers True (not examined)."""
    if any(t.is_joker for t in rack):
        return True
    kinds, jokers = _kinds([*table_tiles, *rack])
    return any(_fits(t, kinds, jokers, rules) for t in rack)


def placeable(table_tiles: Iterable[Tile], rack: Sequence[Tile], rules: Rules) -> tuple[Tile, ...]:
    """The rack tiles that might be placed with these table tiles (jokers always; real tiles
    that pass the three-tile test), in rack order. The others fit in no meld."""
    kinds, jokers = _kinds([*table_tiles, *rack])
    return tuple(t for t in rack if t.is_joker or _fits(t, kinds, jokers, rules))


def placeable_grid(
    avail: Sequence[Sequence[int]], jokers: int, rack: Sequence[Tile], rules: Rules
) -> tuple[Tile, ...]:
    """:func:`placeable` on a count grid: ``avail[c][n - 1]`` tiles of colour ``c`` and number
    ``n`` are available (table and rack), ``jokers`` jokers in all."""
    masks = fit_masks(avail, jokers, rules)
    return tuple(t for t in rack if t.colour < 0 or masks[t.colour] >> (t.number - 1) & 1)


def fit_count(
    avail: Sequence[Sequence[int]],
    jokers: int,
    rack: Sequence[Sequence[int]],
    rack_jokers: int,
    rules: Rules,
) -> int:
    """How many rack tiles might be placed (the :func:`placeable` test on count grids):
    ``avail[c][n - 1]`` tiles of colour ``c`` and number ``n`` are available (table and rack),
    ``jokers`` jokers in all; ``rack`` holds the rack's counts, ``rack_jokers`` its jokers
    (always counted). An upper bound on the tiles any play places with these tiles."""
    return fit_totals(avail, jokers, rack, rack_jokers, rules)[0]


def fit_totals(
    avail: Sequence[Sequence[int]],
    jokers: int,
    rack: Sequence[Sequence[int]],
    rack_jokers: int,
    rules: Rules,
) -> tuple[int, int]:
    """:func:`fit_count`, and the value of those tiles (a joker counted at the highest
    number): an upper bound on the value of the rack tiles any play places."""
    return rack_totals(fitting_rack(avail, jokers, rack, rules), rack_jokers, rules)


def fitting_rack(
    avail: Sequence[Sequence[int]], jokers: int, rack: Sequence[Sequence[int]], rules: Rules
) -> list[list[int]]:
    """The rack's count grid ``rack`` with the tiles that fail the three-tile test (with
    ``avail`` and ``jokers`` as in :func:`fit_count`) left out: they can never be placed."""
    masks = fit_masks(avail, jokers, rules)
    return [
        [k if k and m >> i & 1 else 0 for i, k in enumerate(row)]
        for m, row in zip(masks, rack, strict=True)
    ]


def rack_totals(
    fitting: Sequence[Sequence[int]], rack_jokers: int, rules: Rules
) -> tuple[int, int]:
    """The number of tiles in a rack count grid plus ``rack_jokers``, and their value (a joker
    counted at the highest number)."""
    total = rack_jokers + sum(map(sum, fitting))
    value = rack_jokers * rules.numbers
    for row in fitting:
        value += sum(k * (i + 1) for i, k in enumerate(row) if k)
    return total, value


def opening_bound(rack: Sequence[Tile], rules: Rules) -> int:
    """An upper bound on the value of rack-only melds (the most an opening can be worth)."""
    numbers = rules.numbers
    grid = [[0] * numbers for _ in range(rules.colours)]
    jokers = 0
    for t in rack:
        if t.colour < 0:
            jokers += 1
        else:
            grid[t.colour][t.number - 1] += 1
    masks = fit_masks(grid, jokers, rules)  # the three-tile test of every tile at once
    total = jokers * numbers
    for t in rack:
        if t.colour >= 0 and masks[t.colour] >> (t.number - 1) & 1:
            total += t.number
    return total
