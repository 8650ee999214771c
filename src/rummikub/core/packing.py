"""Packing: the best disjoint valid melds made from a multiset of tiles (a rack), for the bots'
plays and the opening test (:func:`max_meld_value`: can these tiles be worth the opening value?).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Literal

from .melds import _STANDARD, Kind, Meld, Role, _max_group
from .rules import Rules
from .tiles import JOKER, Tile, sort_key

__all__ = ["max_meld_value", "pack_melds"]

Objective = Literal["value", "tiles"]


def pack_melds(
    tiles: Iterable[Tile], rules: Rules = _STANDARD, *, objective: Objective = "tiles"
) -> tuple[Meld, ...]:
    """Disjoint valid melds made only from ``tiles`` (a rack), best for ``objective``:
    ``tiles`` (most tiles, then highest value) or ``value`` (highest value, then most tiles).
    Jokers carry explicit roles so each meld reads exactly as packed. Exponential in the worst
    case but fast for rack-sized inputs."""
    counts = Counter(tiles)
    jokers = counts.pop(JOKER, 0)
    items = tuple(sorted(counts.items(), key=lambda kv: sort_key(kv[0])))

    def better(a: tuple[int, int], b: tuple[int, int]) -> bool:
        if objective == "tiles":
            return a > b
        return (a[1], a[0]) > (b[1], b[0])

    @cache
    def solve(
        state: tuple[tuple[Tile, int], ...], jk: int
    ) -> tuple[tuple[int, int], tuple[_Candidate, ...]]:
        if not state:
            return (0, 0), ()
        first = state[0][0]
        best_score, best_melds = solve(_dec(state, first), jk)
        for cand in _melds_with(first, dict(state), jk, rules):
            new_state = state
            for t in cand[0]:
                if not t.is_joker:
                    new_state = _dec(new_state, t)
            sub_score, sub_melds = solve(new_state, jk - cand[1])
            score = (sub_score[0] + len(cand[0]), sub_score[1] + cand[2])
            if better(score, best_score):
                best_score, best_melds = score, (cand, *sub_melds)
        return best_score, best_melds

    _, melds = solve(items, jokers)
    return tuple(_to_meld(c) for c in melds)


def max_meld_value(
    tiles: Iterable[Tile], rules: Rules = _STANDARD, *, at_least: int | None = None
) -> int:
    """The highest total value of disjoint valid melds made from ``tiles`` (a multiset).

    With ``at_least`` the search may stop as soon as that value is reached (the result is then
    at least ``at_least``, not necessarily the maximum)."""
    counts = Counter(tiles)
    jokers = counts.pop(JOKER, 0)
    items = tuple(sorted(counts.items(), key=lambda kv: sort_key(kv[0])))
    target = at_least

    @cache
    def solve(state: tuple[tuple[Tile, int], ...], jk: int) -> int:
        if not state:
            return 0
        first = state[0][0]
        result = solve(_dec(state, first), jk)
        for meld, used_jokers, value, _ in _melds_with(first, dict(state), jk, rules):
            new_state = state
            for t in meld:
                if not t.is_joker:
                    new_state = _dec(new_state, t)
            result = max(result, value + solve(new_state, jk - used_jokers))
            if target is not None and result >= target:
                return result
        return result

    return solve(items, jokers)


def _dec(state: tuple[tuple[Tile, int], ...], tile: Tile) -> tuple[tuple[Tile, int], ...]:
    out = []
    for t, c in state:
        if t == tile:
            if c > 1:
                out.append((t, c - 1))
        else:
            out.append((t, c))
    return tuple(out)


#: a candidate meld: its tiles in canonical order (jokers in place), jokers used, value, kind
_Candidate = tuple[tuple[Tile, ...], int, int, Kind]


def _to_meld(cand: _Candidate) -> Meld:
    tiles, _, _, kind = cand
    real = next(t for t in tiles if not t.is_joker)
    if kind == "group":
        roles: list[Role | None] = [real.number if t.is_joker else None for t in tiles]
    else:
        start = real.number - tiles.index(real)
        roles = [Tile(real.colour, start + i) if t.is_joker else None for i, t in enumerate(tiles)]
    return Meld(tiles, tuple(roles))


def _melds_with(
    first: Tile, available: dict[Tile, int], jokers: int, rules: Rules
) -> list[_Candidate]:
    """Candidate melds that contain ``first`` (the smallest remaining tile) and otherwise only
    real tiles from ``available`` that sort after it, plus up to ``jokers`` jokers; each once,
    in the order they are found (never a set's order, which changes with the process's string
    hashing: equally good packings must be chosen alike in every process)."""
    out: dict[_Candidate, None] = {}
    others = [
        Tile(c, first.number)
        for c in range(first.colour + 1, rules.colours)
        if available.get(Tile(c, first.number), 0) > 0
    ]
    limit = _max_group(rules)
    for mask in range(1 << len(others)):
        chosen = (first, *(others[i] for i in range(len(others)) if mask >> i & 1))
        for j in range(0, jokers + 1):
            if 3 <= len(chosen) + j <= limit:
                out[((*chosen, *(JOKER,) * j), j, first.number * (len(chosen) + j), "group")] = None
    # runs: first is the lowest real tile; jokers may stand below it, in gaps and above
    for below in range(0, jokers + 1):
        start = first.number - below
        if start < 1:
            break
        run: list[Tile] = [JOKER] * below + [first]
        used = below
        k = first.number + 1
        while True:
            # the run start..k-1 is complete; it may end with extra trailing jokers
            for trail in range(0, jokers - used + 1):
                end = k - 1 + trail
                if end > rules.numbers:
                    break
                if end - start + 1 >= 3:
                    value = sum(range(start, end + 1))
                    out[((*run, *(JOKER,) * trail), used + trail, value, "run")] = None
            if k > rules.numbers:
                break
            t = Tile(first.colour, k)
            if available.get(t, 0) > 0:
                run.append(t)
            elif used < jokers:
                run.append(JOKER)
                used += 1
            else:
                break
            k += 1
    return list(out)
