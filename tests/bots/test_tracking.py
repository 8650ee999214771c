"""What the expert learns from an opponent's draws, and the deals it samples from that."""

from __future__ import annotations

import random
from collections import Counter

from rummikub.bots.sampling import unseen_tiles
from rummikub.bots.tracking import OpponentModel, weighted_deal
from rummikub.core import Observation, Rack, Table, parse_tiles, preset


def _obs(sizes: tuple[int, int], turn: int, table: str = "R1 R2 R3 | K5 B5 O5",
         rack: str = "B9 B10 O1") -> Observation:  # fmt: skip
    return Observation(0, preset("standard"), Rack(parse_tiles(rack)), Table.parse(table), sizes,
                       87, (True, True), 0, turn, 0, (0, 0))  # fmt: skip


def test_an_opponent_who_draws_lacks_the_tiles_that_fit_the_table() -> None:
    model = OpponentModel()
    first = _obs((3, 10), 4)
    model.observe(first)
    model.left(first.table)  # the bot drew: the table stays
    assert model.avoid == {}
    model.observe(_obs((4, 11), 6))  # he drew too
    avoid = model.avoid[1]
    # R4 lengthens the run, R5 is the 4th colour of K5 B5 O5
    assert set(parse_tiles("R4 R5")) <= avoid
    assert not set(parse_tiles("R9 K6 B1")) & avoid
    # a new round forgets
    model.observe(_obs((14, 14), 0))
    assert model.avoid == {}


def test_an_opponent_who_plays_shows_nothing() -> None:
    model = OpponentModel()
    first = _obs((3, 10), 4)
    model.observe(first)
    model.left(first.table)
    model.observe(_obs((4, 9), 6))
    assert model.avoid == {}


def test_weighted_deals_are_consistent_and_avoid_the_shown_tiles() -> None:
    obs = _obs((3, 10), 4)
    unseen = unseen_tiles(obs)
    bad = set(parse_tiles("R4"))
    rng = random.Random(1)
    held = Counter[str]()
    for _ in range(300):
        det = weighted_deal(obs, rng, unseen, {1: bad}, 0.1)
        assert det.racks[0] == obs.rack and len(det.racks[1]) == 10 and len(det.pool) == 87
        assert sorted(det.racks[1].tiles + det.pool) == sorted(unseen)
        held["weighted"] += sum(t in bad for t in det.racks[1].tiles)
        plain = weighted_deal(obs, rng, unseen, {}, 0.1)
        held["plain"] += sum(t in bad for t in plain.racks[1].tiles)
    # two R4s among 97 unseen tiles, 10 dealt to him: about 0.21 per deal without weights
    assert held["plain"] > 40
    assert held["weighted"] < held["plain"] / 3


def test_with_plays_the_player_before_lacks_the_tiles_that_fit_the_table_he_left() -> None:
    model = OpponentModel(plays=True)
    first = _obs((3, 10), 4)
    model.observe(first)
    model.left(first.table)
    model.observe(_obs((4, 9), 6))  # he played: the table the bot sees is the one he left
    avoid = model.avoid[1]
    assert set(parse_tiles("R4 R5")) <= avoid
    assert not set(parse_tiles("R9 K6 B1")) & avoid
