"""The expert's endgame check and its time budget."""

from __future__ import annotations

import random
import time

from rummikub.bots.expert import ExpertBot, ExpertParams, _someone_goes_out
from rummikub.bots.moves import is_legal
from rummikub.bots.sampling import determinize
from rummikub.core import Observation, Play, Rack, Table, parse_tiles, preset


def _obs(rack: str, table: str, sizes: tuple[int, int], pool: int,
         opened: tuple[bool, bool] = (True, True)) -> Observation:  # fmt: skip
    return Observation(0, preset("standard"), Rack(parse_tiles(rack)), Table.parse(table), sizes,
                       pool, opened, 0, 20, 0, (0, 0))  # fmt: skip


def test_someone_goes_out_sees_an_opponent_who_can_lay_everything() -> None:
    obs = _obs("K1", "R1 R2 R3", (1, 1), 0)
    det = determinize(obs, random.Random(0))
    opp = det.racks[1].tiles[0]
    can = opp.colour == 1 and opp.number == 4
    assert _someone_goes_out(det, 0, Table.parse("R1 R2 R3")) == int(can)
    # on a table where every tile fits, he goes out whatever he holds of R4/R5... (R4 here)
    det2 = det.__class__(det.rules, (det.racks[0], Rack(parse_tiles("R4"))), det.table, (),
                         det.opened, 0)  # fmt: skip
    assert _someone_goes_out(det2, 0, Table.parse("R1 R2 R3")) == 1
    assert _someone_goes_out(det2, 0, Table.parse("K5 B5 O5")) == 0


def test_expert_endgame_search_answers_legally_within_its_budget() -> None:
    # The opponent holds one tile: the expert samples it and weighs the biggest play against
    # the best play placing one tile fewer.
    obs = _obs("R4 R5 K9 K10", "R1 R2 R3 | B7 B8 B9", (4, 1), 3)
    bot = ExpertBot(1, ExpertParams(limit=0.2))
    started = time.monotonic()
    action = bot.act(obs, 5.0)
    assert time.monotonic() - started < 3.0
    assert bot.searched == 1 and bot.samples >= 4
    assert isinstance(action, Play) and is_legal(obs, action)
    assert len(action.tiles) in (1, 2)


def test_expert_goes_out_at_once() -> None:
    obs = _obs("R4 R5", "R1 R2 R3", (2, 5), 30)
    action = ExpertBot(1).act(obs, 5.0)
    assert isinstance(action, Play) and len(action.tiles) == 2
