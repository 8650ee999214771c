"""An independent reference: the integer program of den Hertog & Hulshof (2006), with HiGHS.

One integer variable per possible set (meld as a tile multiset with joker roles: groups of 3-4,
runs of 3-5 — longer runs split into shorter ones with the same tiles and value), one per rack
tile kind placed; for every tile kind, the sets used hold exactly the table's tiles plus the
placed ones. Objective: ``w_tiles * tiles placed + w_value * value of the new table``. For an
opening the table is left out and the new sets must be worth at least the opening value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import highspy
import numpy as np

from rummikub.core.rules import Rules
from rummikub.core.tiles import Tile
from rummikub.solver.groups import max_group_size

Kind = tuple[int, int]  # (colour, number); (-1, 0) is the joker


@dataclass(frozen=True)
class ILPResult:
    tiles: int
    value: int  # value of all sets in the solution


@lru_cache(maxsize=64)
def candidate_sets(rules: Rules, jokers: int) -> list[tuple[Counter[Kind], int]]:
    """Every possible set with at most ``jokers`` jokers, as (tile kinds, value)."""
    out: list[tuple[Counter[Kind], int]] = []
    gmax = max_group_size(rules.colours)
    for n in range(1, rules.numbers + 1):
        for size in range(3, gmax + 1):
            for real in range(1, size + 1):
                j = size - real
                if j > jokers:
                    continue
                for cols in combinations(range(rules.colours), real):
                    cnt: Counter[Kind] = Counter((c, n) for c in cols)
                    if j:
                        cnt[(-1, 0)] = j
                    out.append((cnt, n * size))
    for c in range(rules.colours):
        for length in range(3, 6):
            for start in range(1, rules.numbers - length + 2):
                nums = list(range(start, start + length))
                for jk in range(0, min(jokers, length - 1) + 1):
                    for pos in combinations(range(length), jk):
                        cnt = Counter((c, nums[i]) for i in range(length) if i not in pos)
                        if jk:
                            cnt[(-1, 0)] = jk
                        out.append((cnt, sum(nums)))
    return out


def ilp_solve(
    table: Sequence[Tile],
    rack: Sequence[Tile],
    rules: Rules,
    *,
    floor: int = 0,
    w_tiles: int = 100_000,
    w_value: int = 1,
) -> ILPResult | None:
    """Best (tiles, value) for placing rack tiles so that table + placed tiles form sets.
    ``None`` when even the table alone cannot be arranged."""
    tcount = Counter((t.colour, t.number) if not t.is_joker else (-1, 0) for t in table)
    rcount = Counter((t.colour, t.number) if not t.is_joker else (-1, 0) for t in rack)
    jokers = tcount[(-1, 0)] + rcount[(-1, 0)]
    kinds = sorted(set(tcount) | set(rcount))
    kind_index = {k: i for i, k in enumerate(kinds)}
    sets = [
        (cnt, v)
        for cnt, v in candidate_sets(rules, jokers)
        if all(tcount[k] + rcount[k] >= m for k, m in cnt.items())
    ]
    h = highspy.Highs()  # type: ignore[no-untyped-call]
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    ns, nk = len(sets), len(kinds)
    inf = highspy.kHighsInf
    # variables: sets (0..copies), then placed counts per kind (0..rack count)
    lower = np.zeros(ns + nk)
    upper = np.array([float(rules.copies)] * ns + [float(rcount[k]) for k in kinds])
    h.addVars(ns + nk, lower, upper)
    h.changeColsIntegrality(
        ns + nk,
        np.arange(ns + nk, dtype=np.int32),
        np.array([highspy.HighsVarType.kInteger] * (ns + nk)),
    )
    costs = np.array([float(w_value * v) for _, v in sets] + [float(w_tiles)] * nk)
    h.changeColsCost(ns + nk, np.arange(ns + nk, dtype=np.int32), costs)
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    rows: dict[Kind, tuple[list[int], list[float]]] = {k: ([], []) for k in kinds}
    for si, (cnt, _) in enumerate(sets):
        for k, m in cnt.items():
            rows[k][0].append(si)
            rows[k][1].append(float(m))
    for k in kinds:
        idx, vals = rows[k]
        idx.append(ns + kind_index[k])
        vals.append(-1.0)
        h.addRow(
            float(tcount[k]),
            float(tcount[k]),
            len(idx),
            np.array(idx, dtype=np.int32),
            np.array(vals),
        )
    if floor:
        idx = list(range(ns))
        h.addRow(
            float(floor),
            inf,
            ns,
            np.array(idx, dtype=np.int32),
            np.array([float(v) for _, v in sets]),
        )
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        return None
    sol = h.getSolution().col_value
    tiles = round(sum(sol[ns:]))
    value = round(sum(sol[s] * sets[s][1] for s in range(ns)))
    return ILPResult(tiles, value)
