"""Groups at one number: which colour counts (with jokers) can be split into valid groups.

A group holds 3 to ``min(colours, 4)`` tiles of one number, all of different colours, at least
one of them a real tile; jokers fill the missing colours. At one number the solver only knows how
many tiles of each colour go to groups (``0..copies``); these helpers decide whether that vector,
with ``jokers`` jokers, splits into groups, and build the groups.
"""

from __future__ import annotations

from functools import cache

__all__ = ["group_joker_range", "group_sizes", "max_group_size"]


def max_group_size(colours: int) -> int:
    """The largest group these rules allow (0 when there are fewer than 3 colours)."""
    return min(colours, 4) if colours >= 3 else 0


def _balanced_loads(counts: tuple[int, ...], k: int) -> list[int] | None:
    """Real-tile loads of ``k`` groups when each colour ``c`` puts one tile into ``counts[c]``
    distinct groups, spread as evenly as possible (largest colour counts first, each into the
    currently smallest groups). ``None`` when a colour has more tiles than there are groups."""
    if any(c > k for c in counts):
        return None
    loads = [0] * k
    for c in sorted(counts, reverse=True):
        order = sorted(range(k), key=lambda i: loads[i])
        for i in order[:c]:
            loads[i] += 1
    return loads


@cache
def group_joker_range(counts: tuple[int, ...], gmax: int) -> tuple[int, ...]:
    """The joker counts with which the colour counts ``counts`` (sorted, zeros dropped) split
    into valid groups; ``(0,)`` for no tiles; ``()`` when impossible."""
    total = sum(counts)
    if total == 0:
        return (0,)
    if gmax < 3:
        return ()
    feasible: set[int] = set()
    for k in range(max(counts), total + 1):
        loads = _balanced_loads(counts, k)
        if loads is None or max(loads) > gmax or min(loads) < 1:
            continue
        need = sum(max(0, 3 - x) for x in loads)
        room = sum(gmax - x for x in loads)
        feasible.update(range(need, room + 1))
    return tuple(sorted(feasible))


def group_sizes(counts: tuple[int, ...], jokers: int, gmax: int) -> list[tuple[list[int], int]]:
    """Split colour counts (indexed by colour, not sorted) plus ``jokers`` into groups.

    Returns a list of ``(colours, jokers)`` per group. Raises ``ValueError`` if impossible.
    """
    total = sum(counts)
    if total == 0:
        if jokers:
            raise ValueError("jokers cannot form a group on their own")
        return []
    for k in range(max(counts), total + 1):
        if any(c > k for c in counts):
            continue
        members: list[list[int]] = [[] for _ in range(k)]
        for colour in sorted(range(len(counts)), key=lambda c: -counts[c]):
            order = sorted(range(k), key=lambda i: len(members[i]))
            for i in order[: counts[colour]]:
                members[i].append(colour)
        loads = [len(m) for m in members]
        if max(loads) > gmax or min(loads) < 1:
            continue
        need = [max(0, 3 - x) for x in loads]
        if sum(need) > jokers or jokers > sum(gmax - x for x in loads):
            continue
        extra = jokers - sum(need)
        out: list[tuple[list[int], int]] = []
        for m, nd in zip(members, need, strict=True):
            add = min(extra, gmax - len(m) - nd)
            extra -= add
            out.append((sorted(m), nd + add))
        return out
    raise ValueError(f"colour counts {counts} with {jokers} jokers do not form groups")
