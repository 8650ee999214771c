"""The learned leaf value: the shipped model loads, gives chances that sum to 1, treats the
seats alike and prefers fewer tiles left."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.bots.leaf import (
    FEATURES,
    MODEL_VERSION,
    LeafModel,
    grid_features,
    learned_shares,
    learned_value,
    load_model,
)
from rummikub.core import Rack, RoundState, Table, parse_tiles, preset

RULES = preset("standard")
POOL = tuple(parse_tiles("O1 O2 O3 O4 O5 O6 K1 K2 K3 K4"))


def _state(mine: str, theirs: str, opened: tuple[bool, bool] = (True, True)) -> RoundState:
    racks = (Rack(parse_tiles(mine)), Rack(parse_tiles(theirs)))
    return RoundState(RULES, racks, Table.parse("R1 R2 R3 | B7 B8 B9"), POOL, opened, 1)


POSITION = _state("R4 R5 K9 K10", "B1 B2 O7 O8 O11 K13")


def test_the_shipped_model_loads_with_a_model_per_player_count() -> None:
    model = load_model()
    assert model.version == MODEL_VERSION
    assert sorted(model.weights) == [2, 3, 4]
    assert all(len(w) == len(FEATURES) for w in model.weights.values())
    data = json.loads(resources.files("rummikub.bots").joinpath("leaf_model.json").read_text())
    # its provenance: the command that trains it and its held-out figures
    assert data["trained"]["command"].startswith("bench/leaf_train.py")
    for players in ("2", "3", "4"):
        held = data["trained"]["held_out"][players]
        assert held["log_loss"] < held["log_loss_constant"]


def test_chances_sum_to_one_and_fewer_tiles_is_worth_more() -> None:
    shares = learned_shares(POSITION)
    assert sum(shares) == pytest.approx(1.0)
    behind = _state("R4 R5 K9 K10 O11 O13 B3 B5", "B1 B2 O7 O8")
    assert learned_value(POSITION, 0) > learned_value(behind, 0)
    assert learned_value(POSITION, 0) > 0.5  # 4 tiles against 6


def test_a_finished_round_is_won_or_lost() -> None:
    done = _state("", "B1 B2")
    from dataclasses import replace

    from rummikub.core import RoundEnd

    done = replace(done, end=RoundEnd("rummikub", 0, done.racks, (3, -3)))
    assert learned_shares(done) == [1.0, 0.0]


@settings(max_examples=30, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 6), min_size=2, max_size=4),
    current=st.integers(0, 3),
    pool=st.integers(0, 80),
)
def test_the_seats_are_treated_alike(sizes: list[int], current: int, pool: int) -> None:
    # the same racks in a rotated seating give the rotated chances
    n = len(sizes)
    racks = np.zeros((n, 4, 13), np.int64)
    for p, k in enumerate(sizes):
        for i in range(k):
            racks[p, (p + i) % 4, (3 * i + p) % 13] += 1
    jokers = np.zeros(n, np.int64)
    opened = np.ones(n)
    model = load_model()
    base = model.shares(grid_features(racks, jokers, opened, current % n, pool, 30))
    assert base.sum() == pytest.approx(1.0)
    turned = model.shares(
        grid_features(np.roll(racks, 1, axis=0), jokers, opened, (current + 1) % n, pool, 30)
    )
    assert list(turned) == pytest.approx(list(np.roll(base, 1)))


def test_a_model_of_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="features"):
        LeafModel({"version": MODEL_VERSION, "features": ["bias"], "weights": {"2": [0.0]}})
