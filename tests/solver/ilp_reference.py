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
    careful: bool = True,
) -> ILPResult | None:
    """Best (tiles, value) for placing rack tiles so that table + placed tiles form sets.
    ``None`` when even the table alone cannot be arranged.

    ``careful`` (the reference the tests use): HiGHS's presolve off, and the objectives one
    at a time: first the most tiles placed, then (that number fixed) the highest value. With
    HiGHS 1.16's presolve on, the single weighted objective of the published formulation
    (``100000 * tiles + value``) returned a 3-tile play as optimal where 6 fit
    (classic-strict, seed 1259957 of ``test_strict_matches_ilp_on_unlocked_melds``), and the
    value phase was reported infeasible with a number of tiles it had just found (seed
    1757893455). ``careful=False`` is the published formulation with HiGHS's defaults, as
    existing tools run it: what ``bench/solver.py`` times."""
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
    ns, nk = len(sets), len(kinds)
    rows: dict[Kind, tuple[list[int], list[float]]] = {k: ([], []) for k in kinds}
    for si, (cnt, _) in enumerate(sets):
        for k, m in cnt.items():
            rows[k][0].append(si)
            rows[k][1].append(float(m))
    value_costs = [float(v) for _, v in sets]

    def run(costs: list[float], tiles: int | None = None) -> list[float] | None:
        """Maximise ``costs`` over the sets and placed counts (with exactly ``tiles`` placed,
        when given) in a model of its own; the solution, or None when there is no optimum."""
        h = highspy.Highs()  # type: ignore[no-untyped-call]
        h.setOptionValue("output_flag", False)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 0.0)
        if careful:
            h.setOptionValue("presolve", "off")
        # variables: sets (0..copies), then placed counts per kind (0..rack count)
        lower = np.zeros(ns + nk)
        upper = np.array([float(rules.copies)] * ns + [float(rcount[k]) for k in kinds])
        h.addVars(ns + nk, lower, upper)
        every = np.arange(ns + nk, dtype=np.int32)
        h.changeColsIntegrality(
            ns + nk, every, np.array([highspy.HighsVarType.kInteger] * (ns + nk))
        )
        h.changeColsCost(ns + nk, every, np.array(costs))
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        for k in kinds:  # every tile kind: the table's tiles plus the placed ones, in sets
            idx, vals = rows[k]
            h.addRow(
                float(tcount[k]),
                float(tcount[k]),
                len(idx) + 1,
                np.array([*idx, ns + kind_index[k]], dtype=np.int32),
                np.array([*vals, -1.0]),
            )
        if floor:
            h.addRow(
                float(floor),
                highspy.kHighsInf,
                ns,
                np.arange(ns, dtype=np.int32),
                np.array(value_costs),
            )
        if tiles is not None:
            placed = np.arange(ns, ns + nk, dtype=np.int32)
            h.addRow(float(tiles), float(tiles), nk, placed, np.ones(nk))
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        return list(h.getSolution().col_value)

    if not careful:
        sol = run(value_costs + [100_000.0] * nk)
        if sol is None:
            return None
        tiles = round(sum(sol[ns:]))
    else:
        first = run([0.0] * ns + [1.0] * nk)  # phase 1: the most tiles placed
        if first is None:
            return None
        tiles = round(sum(first[ns:]))
        sol = run(value_costs + [0.0] * nk, tiles)  # phase 2: then the highest value
        if sol is None:  # pragma: no cover
            raise AssertionError("HiGHS: no optimum with the number of tiles it found optimal")
        assert round(sum(sol[ns:])) == tiles
    value = round(sum(sol[s] * sets[s][1] for s in range(ns)))
    return ILPResult(tiles, value)
