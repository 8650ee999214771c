"""The learned leaf value: the shipped model loads and values positions as documented."""

from __future__ import annotations

import pytest

from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.leaf import FEATURES, LeafModel, features, learned_value, load_model
from rummikub.bots.moves import is_legal
from rummikub.bots.playout import LeafParams, leaf_value
from rummikub.bots.search import SearchParams
from rummikub.core import Observation, Play, Rack, RoundState, Table, parse_tiles, preset

RULES = preset("standard")
POOL = tuple(parse_tiles("O1 O2 O3 O4 O5 O6 K1 K2 K3 K4"))


def _state(mine: str, theirs: str, opened: tuple[bool, bool] = (True, True)) -> RoundState:
    racks = (Rack(parse_tiles(mine)), Rack(parse_tiles(theirs)))
    return RoundState(RULES, racks, Table.parse("R1 R2 R3 | B7 B8 B9"), POOL, opened, 1)


# the position docs/bots.md quotes: 4 tiles against 6, both opened, 10 tiles in the pool
POSITION = _state("R4 R5 K9 K10", "B1 B2 O7 O8 O11 K13")


def test_the_shipped_model_loads_with_a_model_per_player_count() -> None:
    model = load_model()
    assert model.version == 1
    assert sorted(model.weights) == [2, 3, 4]
    assert all(len(w) == len(FEATURES) for w in model.weights.values())


def test_the_documented_value_of_a_fixed_position() -> None:
    assert learned_value(POSITION, 0) == pytest.approx(0.598, abs=5e-4)
    assert learned_value(POSITION, 1) == pytest.approx(0.433, abs=5e-4)
    assert leaf_value(POSITION, 0, LeafParams(learned=True)) == learned_value(POSITION, 0)


def test_features_are_counts_a_player_sees() -> None:
    x = features(POSITION, 0)
    assert len(x) == len(FEATURES)
    named = dict(zip(FEATURES, x, strict=True))
    assert named["my_tiles"] == pytest.approx(4 / 14)
    assert named["closest_tiles"] == pytest.approx(6 / 14)
    assert named["lead"] == pytest.approx(2 / 14)
    # R4 R5 and K9 K10 are pairs: every tile has a partner
    assert named["my_near"] == pytest.approx(4 / 14) and named["my_lone"] == 0.0
    assert named["pool"] == pytest.approx(0.1)
    assert named["to_move"] == pytest.approx(0.5)


def test_fewer_tiles_left_is_worth_more() -> None:
    behind = _state("R4 R5 K9 K10 O11 O13 B3 B5", "B1 B2 O7 O8")
    assert learned_value(POSITION, 0) > learned_value(behind, 0)


def test_a_model_of_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="features"):
        LeafModel({"version": 1, "features": ["bias"], "weights": {"2": [0.0]}})


def test_the_expert_searches_with_the_learned_leaf() -> None:
    obs = Observation(0, RULES, Rack(parse_tiles("R4 R5 K9 K10")),
                      Table.parse("R1 R2 R3 | B7 B8 B9"), (4, 1), 3, (True, True), 0, 20, 0,
                      (0, 0))  # fmt: skip
    search = SearchParams(leaf=LeafParams(learned=True))
    params = ExpertParams(limit=1000.0, max_samples=12, min_samples=12, search=search)
    first, second = ExpertBot(3, params), ExpertBot(3, params)
    action = first.act(obs, None)
    assert action == second.act(obs, None)
    assert first.last is not None and second.last is not None
    assert first.last.values == second.last.values and first.samples == 12
    assert all(0.0 <= v <= 1.0 for v in first.last.values)
    assert action in first.last.candidates and len(first.last.candidates) > 1
    assert all(is_legal(obs, c) for c in first.last.candidates if isinstance(c, Play))
