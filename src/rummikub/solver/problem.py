"""What the dynamic program works on, shared by the Python DP (:mod:`rummikub.solver.dp`)
and the compiled kernel (:mod:`rummikub.solver.fast`): the :class:`Problem`, the
:class:`DPResult`, the slot codes and the per-colour options at one number.

Slot codes: 0 empty; ``2 * L + real`` for a run of length ``L`` in 1..3 (3 means "3 or more")
that holds a real tile (``real`` 1) or jokers only (0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DPResult",
    "Problem",
    "SolverTimeout",
    "Step",
    "Trail",
    "canon_slots",
    "next_cap",
]

# slot codes: 0 empty; 2*L + real for L in 1..3 (3 means "3 or more")
_EMPTY = 0
_CLOSABLE = (0, 7)


class SolverTimeout(Exception):
    """The time limit ran out inside the dynamic program."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A multiset problem for the DP.

    ``table[c][n]`` tiles of colour ``c`` and number ``n + 1`` are already on the table (they
    count as used, not as placed); between ``lo[c][n]`` and ``hi[c][n]`` tiles of that kind end up
    in the new melds. Jokers: ``jt`` on the table, between ``jlo`` and ``jhi`` used in total.
    """

    colours: int
    numbers: int
    copies: int
    table: tuple[tuple[int, ...], ...]
    lo: tuple[tuple[int, ...], ...]
    hi: tuple[tuple[int, ...], ...]
    jt: int
    jlo: int
    jhi: int
    floor: int = 0  # the value placed must reach this (opening); 0 = no constraint
    w_tiles: int = 100_000
    w_value: int = 1
    per_count: bool = False  # keep the best solution for every number of tiles placed


@dataclass(frozen=True, slots=True)
class DPResult:
    """A solution: its score, tiles and value placed, the new melds and the placed counts."""

    score: int
    tiles: int  # tiles placed (jokers included)
    value: int  # value of all tiles in the new melds
    melds: list[list[tuple[int, int, bool]]]  # (colour, number, is_joker)
    used: dict[tuple[int, int], int]  # (colour, number) -> real tiles used in the melds
    jokers: int  # jokers used in the melds


@cache
def _options(
    slots: tuple[int, ...],
    lo: int,
    hi: int,
    jmax: int,
    joker_real: bool,
) -> tuple[tuple[tuple[int, ...], int, int, int, tuple[int, ...]], ...]:
    """Per-colour choices at one number: (new sorted slots, real used, to groups, jokers in
    runs, assignment per old slot: 0 none / 1 real / 2 joker)."""
    k = len(slots)
    seen: dict[tuple[tuple[int, ...], int, int, int], tuple[int, ...]] = {}
    for assign in product((0, 1, 2), repeat=k):
        e_real = assign.count(1)
        jr = assign.count(2)
        if jr > jmax:
            continue
        new: list[int] = []
        ok = True
        for code, a in zip(slots, assign, strict=True):
            length, real = code >> 1, code & 1
            if a == 0:
                if code not in _CLOSABLE:
                    ok = False
                    break
                new.append(_EMPTY)
            else:
                nl = min(length + 1, 3)
                nr = 1 if (a == 1 or joker_real) else (real if length else 0)
                new.append(nl * 2 + nr)
        if not ok:
            continue
        ns = tuple(sorted(new))
        for x in range(max(lo, e_real), hi + 1):
            g = x - e_real
            key = (ns, x, g, jr)
            if key not in seen:
                seen[key] = assign
    return tuple((ns, x, g, jr, a) for (ns, x, g, jr), a in seen.items())


@cache
def canon_slots(slots: tuple[int, ...], cap: int) -> tuple[int, ...] | None:
    """The slot multiset when at most ``cap`` tiles of the colour can go to runs at the next
    number: more slots that must continue than that is a dead end (``None``); open runs of 3+
    beyond what can continue are as good as closed (they become empty)."""
    must = sum(1 for c in slots if c not in _CLOSABLE)
    if must > cap:
        return None
    sevens = sum(1 for c in slots if c == 7)
    keep = min(sevens, cap - must)
    new = [c for c in slots if c not in _CLOSABLE] + [7] * keep
    new += [0] * (len(slots) - len(new))
    return tuple(sorted(new))


def next_cap(p: Problem, c: int, n: int, jokers_used: int) -> int:
    """How many tiles of colour ``c`` can at most go to runs at number ``n + 1``."""
    k = p.copies
    nxt = p.hi[c][n] if n < p.numbers else 0
    return min(k, min(k, p.jhi - jokers_used) + nxt)


def _closable(slots: tuple[int, ...]) -> bool:
    return all(s in _CLOSABLE for s in slots)


Step = tuple[object, ...]
#: how a final state was reached: the Python DP's steps, or the compiled kernel's choice of
#: every layer (an array)
Trail: TypeAlias = "list[Step] | np.ndarray[Any, Any]"
