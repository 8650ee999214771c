"""The solver's integer shortcuts agree with the plain definitions they replace: the order of
old melds by relevance to the rack, the position check's errors and table values."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.core.errors import IllegalPlayError
from rummikub.core.melds import Meld, read_meld
from rummikub.core.rules import preset
from rummikub.core.table import Table
from rummikub.core.tiles import Tile, parse_tiles
from rummikub.solver import solve
from rummikub.solver.api import _prepare
from rummikub.solver.fewer_changes import _by_relevance
from rummikub.solver.model import check_position

from .positions import random_position

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
RULES = st.sampled_from(["standard", "xp", "classic-strict"])


def _relevance(meld: Meld, rack: Sequence[Tile]) -> int:
    """How many rack tiles could join or reshape ``meld``, counted tile by tile."""
    real = [t for t in meld.tiles if not t.is_joker]
    numbers = {t.number for t in real}
    colours = {t.colour for t in real}
    lo, hi = min(numbers) - 1, max(numbers) + 1 + len(meld.tiles)
    single = next(iter(numbers)) if len(numbers) == 1 else None
    return sum(
        1
        for t in rack
        if t.is_joker or (t.colour in colours and lo <= t.number <= hi) or t.number == single
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, name=RULES)
def test_relevance_order_matches_definition(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    table, rack = random_position(
        rng,
        rules,
        rng.randint(3, 60),
        rng.randint(1, 20),
        table_jokers=rng.randint(0, 2),
        rack_jokers=rng.randint(0, 2),
        joker_prob=0.3,
    )
    ctx = _prepare(table, rack, rules, "tiles", None)
    free = list(range(len(table.melds)))
    rng.shuffle(free)
    expected = sorted(free, key=lambda i: -_relevance(table.melds[i], rack.tiles))
    assert _by_relevance(ctx, free) == expected


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, name=RULES)
def test_check_position_values(seed: int, name: str) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    table, rack = random_position(
        rng, rules, rng.randint(0, 60), rng.randint(0, 14), table_jokers=rng.randint(0, 2)
    )
    assert check_position(table, rack.tiles, rules) == [
        read_meld(m, rules).value for m in table.melds
    ]


def test_check_position_errors() -> None:
    rules = preset("standard")
    table = Table.parse("R1 R2 R3 | K5 B5 O5")
    with pytest.raises(IllegalPlayError, match="3 copies of R2") as err:
        check_position(table, parse_tiles("K9 R2 R2"), rules)
    assert err.value.reason == "too-many-copies"
    with pytest.raises(IllegalPlayError, match="3 jokers") as err:
        check_position(table, parse_tiles("J J J"), rules)
    with pytest.raises(IllegalPlayError, match="R14 is not a tile of these rules") as err:
        check_position(table, [Tile(1, 14), Tile(1, 2), Tile(1, 2)], rules)
    assert err.value.reason == "not-a-tile"
    with pytest.raises(IllegalPlayError, match="table meld 2") as err:
        check_position(Table.parse("R1 R2 R3 | K5 B5 K5"), (), rules)
    assert err.value.reason == "invalid-meld"
    # the first tile over its limit is named (table tiles first, then the rack)
    counts = Counter(table.tiles())
    assert counts[Tile(1, 2)] == 1
    with pytest.raises(IllegalPlayError, match="3 copies of R2"):
        check_position(table, parse_tiles("K5 K5 R2 R2"), rules)
    with pytest.raises(IllegalPlayError, match="3 copies of K5"):
        check_position(table, parse_tiles("K5 K5 J J J"), rules)
    with pytest.raises(IllegalPlayError):
        solve(table, parse_tiles("R2 R2"), opened=True)
