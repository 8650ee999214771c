"""The deals the evaluation samples: every tile dealt once, the player's own rack untouched, and
an opponent given a tile that would give him a move only with the odds asked for."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.bots.evaluation import _filtered_deal, _table_grid
from rummikub.bots.sampling import unseen_tiles, weighted_deal
from rummikub.core import Observation, Rack, RoundState, Table, parse_tiles, preset
from rummikub.solver.counts import placed_counts

STANDARD = preset("standard")


def _obs(sizes: tuple[int, int], turn: int, table: str = "R1 R2 R3 | K5 B5 O5",
         rack: str = "B9 B10 O1") -> Observation:  # fmt: skip
    pool = 106 - len(parse_tiles(rack)) - len(Table.parse(table).tiles()) - sizes[1]
    return Observation(0, STANDARD, Rack(parse_tiles(rack)), Table.parse(table), sizes,
                       pool, (True, True), 0, turn, 0, (0, 0))  # fmt: skip


def _conserves(obs: Observation, det: RoundState) -> None:
    assert det.racks[0] == obs.rack
    assert [len(r) for r in det.racks] == list(obs.rack_sizes)
    assert len(det.pool) == obs.pool_size
    dealt = [t for p, r in enumerate(det.racks) if p != obs.player for t in r.tiles]
    assert Counter(dealt + list(det.pool)) == Counter(unseen_tiles(obs))
    assert det.table == obs.table and det.current == obs.player


def _has_a_move(obs: Observation, rack: Rack) -> bool:
    grid, jokers, value = _table_grid(obs)
    counts = np.zeros_like(grid)
    for t in rack.tiles:
        if not t.is_joker:
            counts[t.colour, t.number - 1] += 1
    held = sum(t.is_joker for t in rack.tiles)
    return placed_counts(obs.rules, grid, jokers, value, counts, held) is not None


def test_weighted_deals_are_consistent_and_avoid_the_shown_tiles() -> None:
    obs = _obs((3, 10), 4)
    unseen = unseen_tiles(obs)
    bad = set(parse_tiles("R4"))
    rng = random.Random(1)
    held = Counter[str]()
    for _ in range(300):
        det = weighted_deal(obs, rng, unseen, {1: bad}, 0.1)
        _conserves(obs, det)
        held["weighted"] += sum(t in bad for t in det.racks[1].tiles)
        plain = weighted_deal(obs, rng, unseen, {}, 0.1)
        held["plain"] += sum(t in bad for t in plain.racks[1].tiles)
    # two R4s among 97 unseen tiles, 10 dealt to him: about 0.21 per deal without weights
    assert held["plain"] > 40
    assert held["weighted"] < held["plain"] / 3


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 20), weight=st.sampled_from([0, 0.3]))
def test_a_filtered_deal_deals_every_unseen_tile_once(seed: int, size: int, weight: float) -> None:
    obs = _obs((3, size), 6)
    det = _filtered_deal(obs, random.Random(seed), unseen_tiles(obs), _table_grid(obs), weight)
    _conserves(obs, det)


def test_with_no_odds_an_opened_opponent_holds_no_move_and_with_some_he_sometimes_does() -> None:
    """``FIT_WEIGHT`` 0: never a rack with a move on the table (other tiles are left); at 0.3
    fewer racks with a move than in uniform deals, but some."""
    obs = _obs((3, 8), 6)
    unseen = unseen_tiles(obs)
    grid = _table_grid(obs)
    rng = random.Random(7)
    moves = Counter[float]()
    for _ in range(200):
        for weight in (0.0, 0.3, 1.0):
            det = _filtered_deal(obs, rng, unseen, grid, weight)
            moves[weight] += _has_a_move(obs, det.racks[1])
    assert moves[0.0] == 0
    assert 0 < moves[0.3] < moves[1.0] / 2
    assert moves[1.0] > 60  # about half of the racks of 8 random tiles have a move there
