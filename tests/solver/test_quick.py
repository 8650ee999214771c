"""The exact shortcuts of :mod:`rummikub.solver.quick`: they may only say "no play" when there
is none (checked against brute force) and the opening bound is never below the best rack-only
melds."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.core.packing import max_meld_value
from rummikub.core.rules import Rules, preset
from rummikub.core.table import Rack, Table
from rummikub.core.tiles import parse_tiles
from rummikub.solver import solve
from rummikub.solver.model import counts_grid
from rummikub.solver.quick import (
    can_place_any,
    colours_present,
    fit_count,
    fit_masks,
    fit_totals,
    fits_grid,
    opening_bound,
    placeable,
    placeable_grid,
)

from .brute import brute_solve
from .positions import random_position

STANDARD = preset("standard")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RULES = st.sampled_from(["standard", "xp", "classic-strict"])


def test_no_meld_possible() -> None:
    table = Table.parse("R5 R6 R7 | K9 B9 O9")
    assert not can_place_any(table.tiles(), parse_tiles("K1 B3 O12"), STANDARD)
    assert can_place_any(table.tiles(), parse_tiles("K1 R8"), STANDARD)  # R5..R8
    assert can_place_any(table.tiles(), parse_tiles("R9"), STANDARD)  # R9 with K9 B9 O9
    assert can_place_any(table.tiles(), parse_tiles("K1 J"), STANDARD)  # a joker: not examined
    sol = solve(table, Rack(parse_tiles("K1 B3 O12")), opened=True)
    assert sol.tiles == 0 and sol.table == table


def test_opening_bound() -> None:
    assert opening_bound(parse_tiles("R10 R11 R12"), STANDARD) == 33
    assert opening_bound(parse_tiles("R10 R11 B12"), STANDARD) == 0
    assert opening_bound(parse_tiles("R10 R12 J"), STANDARD) == 13 + 10 + 12
    assert opening_bound(parse_tiles("R10 B12 J"), STANDARD) == 13
    assert solve(Table(()), Rack(parse_tiles("R1 R2 R3 K9")), opened=False).tiles == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, name=RULES)
def test_no_play_only_when_brute_force_agrees(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    table, rack = random_position(
        rng, rules, rng.randint(0, 9), rng.randint(1, 6), table_jokers=rng.randint(0, 1),
        rack_jokers=0, joker_prob=0.2,
    )  # fmt: skip
    if not can_place_any(table.tiles(), rack.tiles, rules):
        assert brute_solve(table.tiles(), rack.tiles, rules)[0] == 0


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, name=RULES)
def test_opening_bound_is_an_upper_bound(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    _, rack = random_position(
        rng, rules, 0, rng.randint(1, 14), table_jokers=0, rack_jokers=rng.randint(0, 2),
        joker_prob=0.0,
    )  # fmt: skip
    assert opening_bound(rack.tiles, rules) >= max_meld_value(rack.tiles, rules)
    # the bound is the value of the tiles that pass the three-tile test among the rack's own
    # (jokers at the highest number)
    fitting = placeable((), rack.tiles, rules)
    assert opening_bound(rack.tiles, rules) == sum(
        rules.numbers if t.is_joker else t.number for t in fitting
    )


def _grid_position(rng: random.Random, rules: Rules) -> tuple[Table, Rack]:
    """A random position for the count-grid tests: up to 40 table tiles, 1-16 on the rack."""
    return random_position(
        rng,
        rules,
        rng.randint(0, 40),
        rng.randint(1, 16),
        table_jokers=rng.randint(0, 2),
        rack_jokers=rng.randint(0, 1),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, name=RULES)
def test_fit_count_matches_placeable(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    table, rack = _grid_position(rng, rules)
    avail, jokers = counts_grid([*table.tiles(), *rack.tiles], rules)
    grid, rack_jokers = counts_grid(rack.tiles, rules)
    fits = placeable(table.tiles(), rack.tiles, rules)
    assert fit_count(avail, jokers, grid, rack_jokers, rules) == len(fits)
    value = sum(rules.numbers if t.is_joker else t.number for t in fits)
    assert fit_totals(avail, jokers, grid, rack_jokers, rules) == (len(fits), value)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, name=RULES)
def test_placeable_grid_matches_placeable(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    table, rack = _grid_position(rng, rules)
    shuffled = list(rack.tiles)
    rng.shuffle(shuffled)  # the rack order is kept
    avail, jokers = counts_grid([*table.tiles(), *shuffled], rules)
    assert placeable_grid(avail, jokers, shuffled, rules) == placeable(
        table.tiles(), shuffled, rules
    )


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, name=st.sampled_from(["standard", "xp"]), jokers=st.integers(0, 3))
def test_fit_masks_match_fits_grid(seed: int, name: str, jokers: int) -> None:
    """The bit masks answer the three-tile test as the per-tile test does, for every real
    tile of sparse and dense grids."""
    rules = preset(name)
    rng = random.Random(seed)
    density = rng.random()
    width = rules.numbers
    avail = [
        [rng.randint(1, rules.copies) if rng.random() < density else 0 for _ in range(width)]
        for _ in range(rules.colours)
    ]
    present = colours_present(avail, rules)
    masks = fit_masks(avail, jokers, rules)
    for c in range(rules.colours):
        for i in range(rules.numbers):
            expected = fits_grid(avail, present, jokers, c, i)
            assert bool(masks[c] >> i & 1) == expected, (c, i + 1)
