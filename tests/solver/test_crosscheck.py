"""Cross-checks on random positions: every play passes the engine's validation, and the optimum
matches the HiGHS integer program (den Hertog & Hulshof) and brute force."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rummikub.core.melds import read_meld
from rummikub.core.rules import Rules, preset
from rummikub.core.table import Rack, Table
from rummikub.solver import arrangeable, solve
from rummikub.solver.dp import best_score, run_python
from rummikub.solver.strict import locked_melds

from .brute import best_value_partition, brute_solve
from .ilp_reference import ilp_solve
from .positions import check_solution, random_position

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
# RUMMIKUB_SOLVER_EXAMPLES=10 runs ten times as many examples (a longer local check).
SCALE = float(os.environ.get("RUMMIKUB_SOLVER_EXAMPLES", "1"))


def check(examples: int) -> settings:
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def _position(
    seed: int, rules: Rules, table: tuple[int, int], rack: tuple[int, int], jokers: tuple[int, int]
) -> tuple[Table, Rack]:
    rng = random.Random(seed)
    return random_position(
        rng,
        rules,
        rng.randint(*table),
        rng.randint(*rack),
        table_jokers=rng.randint(0, jokers[0]),
        rack_jokers=rng.randint(0, jokers[1]),
        joker_prob=0.2,
    )


def _old_value(table: Table, rules: Rules, skip: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    return sum(read_meld(m, rules).value for i, m in enumerate(table.melds) if i not in skip)


def _check_ilp(table: Table, rack: Rack, rules: Rules) -> None:
    sol = solve(table, rack, opened=True, rules=rules)
    check_solution(table, rack, True, rules, sol)
    locked = locked_melds(table, rules)
    free = [t for i, m in enumerate(table.melds) if i not in locked for t in m.tiles]
    ref = ilp_solve(free, rack.tiles, rules)
    assert ref is not None
    assert sol.tiles == ref.tiles, (str(table), str(rack))
    if sol.tiles:
        assert sol.value == ref.value - _old_value(table, rules, locked), (str(table), str(rack))


@check(120)
@given(seed=SEEDS)
def test_midgame_matches_ilp(seed: int) -> None:
    table, rack = _position(seed, preset("standard"), (20, 45), (5, 16), (2, 2))
    _check_ilp(table, rack, preset("standard"))


@check(10)
@given(seed=SEEDS)
def test_dense_matches_ilp(seed: int) -> None:
    table, rack = _position(seed, preset("standard"), (70, 85), (15, 20), (2, 2))
    _check_ilp(table, rack, preset("standard"))


@check(40)
@given(seed=SEEDS)
def test_large_set_matches_ilp(seed: int) -> None:
    rules = preset("xp")
    table, rack = _position(seed, rules, (20, 60), (5, 16), (2, 2))
    _check_ilp(table, rack, rules)


@check(50)
@given(seed=SEEDS)
def test_strict_matches_ilp_on_unlocked_melds(seed: int) -> None:
    rules = preset("classic-strict")
    table, rack = _position(seed, rules, (10, 40), (5, 14), (2, 2))
    _check_ilp(table, rack, rules)


@check(150)
@given(seed=SEEDS, name=st.sampled_from(["standard", "xp"]))
def test_opening_matches_ilp(seed: int, name: str) -> None:
    rules = preset(name)
    table, rack = _position(seed, rules, (0, 30), (8, 18), (0, 2))
    sol = solve(table, rack, opened=False, rules=rules)
    check_solution(table, rack, False, rules, sol)
    ref = ilp_solve([], rack.tiles, rules, floor=rules.opening_value)
    expected = (ref.tiles, ref.value) if ref is not None and ref.tiles else (0, 0)
    assert (sol.tiles, sol.value) == expected


@check(150)
@given(seed=SEEDS, name=st.sampled_from(["standard", "xp"]), opened=st.booleans())
def test_small_positions_match_brute_force(seed: int, name: str, opened: bool) -> None:
    rules = preset(name)
    table, rack = _position(seed, rules, (0, 9), (1, 7), (2, 2))
    sol = solve(table, rack, opened=opened, rules=rules)
    check_solution(table, rack, opened, rules, sol)
    if opened:
        tiles, value = brute_solve(table.tiles(), rack.tiles, rules)
        assert sol.tiles == tiles
        if tiles:
            assert sol.value == value - _old_value(table, rules)
    else:
        assert (sol.tiles, sol.value) == brute_solve(
            [], rack.tiles, rules, floor=rules.opening_value
        )


@check(600)
@given(
    seed=SEEDS,
    name=st.sampled_from(
        ["standard", "classic-strict", "xp", "tournament", "swedish-tin", "standard/new-set"]
    ),
    opened=st.booleans(),
    extend=st.booleans(),
    objective=st.sampled_from(["tiles", "value", "min-change"]),
)
def test_every_play_is_legal(
    seed: int, name: str, opened: bool, extend: bool, objective: str
) -> None:
    # "standard/new-set": the free joker rule with freed_joker_new_set (a replaced joker must
    # leave its run's set)
    base, _, variant = name.partition("/")
    rules = preset(base).replace(open_then_extend=extend)
    if variant:
        rules = rules.replace(freed_joker_new_set=True)
    table, rack = _position(seed, rules, (0, 50), (1, 16), (2, 2))
    sol = solve(table, rack, opened=opened, rules=rules, objective=objective, time_limit=2.0)
    check_solution(table, rack, opened, rules, sol)


@check(40)
@given(seed=SEEDS, name=st.sampled_from(["standard", "xp"]))
def test_python_dp_matches_kernel(seed: int, name: str) -> None:
    from rummikub.solver.api import _prepare
    from rummikub.solver.solution import _problem

    rules = preset(name)
    table, rack = _position(seed, rules, (0, 20), (1, 8), (2, 2))
    ctx = _prepare(table, rack.tiles, rules, "tiles", None)
    p = _problem(ctx, table.tiles(), rack.tiles)
    py = run_python(p)
    score = best_score(p)
    assert (score is None) == (0 not in py)
    if score is not None:
        w = p.w_tiles
        assert score == (py[0][0] // w - p.jt, py[0][0] % w)


@check(200)
@given(seed=SEEDS, name=st.sampled_from(["standard", "xp"]))
def test_arrangeable_matches_brute_force(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    pool = list(rules.all_tiles())
    # bias towards arrangeable multisets: random melds plus a few random tiles
    table, _ = random_position(rng, rules, rng.randint(3, 9), 0, table_jokers=2)
    tiles = table.tiles()
    if rng.random() < 0.5:
        tiles = tiles[: rng.randint(1, len(tiles))]
    if rng.random() < 0.3:
        tiles.append(rng.choice(pool))
    counts = {t: tiles.count(t) for t in tiles}
    # more copies of a tile than the set holds: not a position of the game
    assume(all(k <= (rules.jokers if t.is_joker else rules.copies) for t, k in counts.items()))
    assert arrangeable(tiles, rules) == (best_value_partition(tiles, rules) is not None)


@check(60)
@given(
    seed=SEEDS,
    name=st.sampled_from(["standard", "xp", "tournament"]),
    per_count=st.booleans(),
    floor=st.sampled_from([0, 30]),
)
def test_compiled_trace_matches_python_trace(
    seed: int, name: str, per_count: bool, floor: int
) -> None:
    """The compiled walk builds exactly the melds (same order), counts and values that the
    Python trace builds from the same choices."""
    from rummikub.solver import fast
    from rummikub.solver.api import _prepare
    from rummikub.solver.dp import Step, trace
    from rummikub.solver.solution import _problem
    from rummikub.solver.tables import _consts

    rules = preset(name)
    assert fast.available(), "the compiled solver (numba) is installed with the solver extra"
    table, rack = _position(seed, rules, (0, 60), (1, 16), (0, 2))
    ctx = _prepare(table, rack.tiles, rules, "tiles", None)
    if per_count:
        ctx.weights = (0, 1)
    p = _problem(ctx, table.tiles(), rack.tiles, floor=floor, per_count=per_count)
    consts = _consts(p.colours, p.copies, p.jhi < 3)
    o_x, o_g, o_jr, assigns = consts[4], consts[5], consts[6], consts[14]
    for score, path in fast.run(p).values():
        assert not isinstance(path, list)
        steps: list[Step] = []
        for layer, ch in enumerate(path.tolist()):
            n, pos = divmod(layer, p.colours + 1)
            if pos == p.colours:
                steps.append(("g", n + 1, ch))
            else:
                assign = tuple(int(a) for a in assigns[ch])
                steps.append(("c", pos, int(o_x[ch]), int(o_g[ch]), int(o_jr[ch]), assign))
        assert trace(p, steps, score) == fast.trace_path(p, path, score)
