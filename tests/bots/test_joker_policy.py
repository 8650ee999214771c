"""The joker policy of ``strategic`` and ``expert``: jokers go down only to go out."""

from __future__ import annotations

from rummikub.bots.expert import ExpertBot
from rummikub.bots.moves import is_legal
from rummikub.bots.strategic import StrategicBot, StrategyParams, policy_play
from rummikub.core import JOKER, Draw, Observation, Pass, Play, Rack, Table, parse_tiles, preset

KEEP = StrategyParams(reserve=0)


def _obs(rack: str, table: str, pool: int, opened: bool = True, sizes: int = 14) -> Observation:
    return Observation(0, preset("standard"), Rack(parse_tiles(rack)), Table.parse(table),
                       (len(parse_tiles(rack)), sizes), pool, (opened, True), 0, 20, 0,
                       (0, 0))  # fmt: skip


def test_a_joker_stays_on_the_rack_unless_it_lets_the_bot_go_out() -> None:
    obs = _obs("J R7 K9", "R4 R5 R6", pool=40)
    play, rack = policy_play(obs, KEEP)
    assert isinstance(play, Play) and play.tiles == tuple(parse_tiles("R7"))
    assert JOKER not in rack and is_legal(obs, play)
    # without the policy the solver lays the joker too
    greedy, _ = policy_play(obs, StrategyParams(keep_jokers=False))
    assert greedy is not None and JOKER in greedy.tiles
    # going out: the joker goes down with the rest
    out = _obs("J R7", "R4 R5 R6", pool=40)
    play, _ = policy_play(out, KEEP)
    assert play is not None and sorted(play.tiles) == sorted(out.rack.tiles)


def test_the_bot_draws_rather_than_lay_only_a_joker_until_the_pool_is_empty() -> None:
    obs = _obs("J K9", "R4 R5 R6", pool=10)
    assert policy_play(obs, KEEP)[0] is None
    assert isinstance(StrategicBot(1).act(obs), Draw)
    empty = _obs("J K9", "R4 R5 R6", pool=0)
    play, _ = policy_play(empty, KEEP)
    assert play is not None and play.tiles == (JOKER,)  # laid rather than passing
    assert not isinstance(StrategicBot(1).act(empty), Pass)


def test_no_opening_with_a_joker_while_the_pool_is_large() -> None:
    obs = _obs("R10 R11 J K3 B5", "", pool=60, opened=False)  # 10 + 11 + 12 = 33 needs the joker
    assert policy_play(obs, KEEP)[0] is None
    assert isinstance(ExpertBot(1).act(obs, 5.0), Draw)
    late = _obs("R10 R11 J K3 B5", "", pool=20, opened=False)
    play, _ = policy_play(late, KEEP)
    assert play is not None and JOKER in play.tiles and is_legal(late, play)
    # an opening that empties the rack goes out, joker and all
    out = _obs("R10 R11 J K3 K4 K5", "", pool=60, opened=False)
    play, _ = policy_play(out, KEEP)
    assert play is not None and len(play.tiles) == 6 and is_legal(out, play)
    # a joker-free opening is made at once
    plain = _obs("R10 R11 R12 J K3", "", pool=60, opened=False)
    play, _ = policy_play(plain, KEEP)
    assert play is not None and JOKER not in play.tiles and len(play.tiles) == 3
