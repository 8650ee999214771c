"""The expert: its candidates, its search, its time budget and its clear choices."""

from __future__ import annotations

import time
from dataclasses import replace

from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.moves import is_legal
from rummikub.bots.search import SearchParams, candidates
from rummikub.core import Draw, Observation, Play, Rack, Table, parse_tiles, preset

# a budget given as a sample count: the search never depends on the machine's speed
SAMPLES = ExpertParams(limit=1000.0, max_samples=12, min_samples=12)


def _obs(rack: str, table: str, sizes: tuple[int, int], pool: int,
         opened: tuple[bool, bool] = (True, True)) -> Observation:  # fmt: skip
    return Observation(0, preset("standard"), Rack(parse_tiles(rack)), Table.parse(table), sizes,
                       pool, opened, 0, 20, 0, (0, 0))  # fmt: skip


ENDGAME = _obs("R4 R5 K9 K10", "R1 R2 R3 | B7 B8 B9", (4, 1), 3)


def test_candidates_hold_back_and_draw_besides_the_biggest_play() -> None:
    best = Play(tuple(parse_tiles("R4 R5")), Table.parse("R1 R2 R3 R4 R5 | B7 B8 B9"))
    cands = candidates(ENDGAME, best, ENDGAME.rack.tiles, SearchParams())
    assert cands[0] == best
    sizes = sorted(len(c.tiles) for c in cands if isinstance(c, Play))
    assert sizes == [1, 2]
    assert sum(isinstance(c, Draw) for c in cands) == 1
    assert all(is_legal(ENDGAME, c) for c in cands if isinstance(c, Play))
    none = candidates(ENDGAME, best, ENDGAME.rack.tiles,
                      SearchParams(hold_backs=0, reserve=False, draw=False))  # fmt: skip
    assert none == [best]


def test_keep_each_offers_the_biggest_play_keeping_back_each_tile_of_the_default() -> None:
    obs = _obs("R4 R5 K8 B1", "R1 R2 R3 | K9 K10 K11", (4, 6), 30)
    best = Play(tuple(parse_tiles("R4 R5 K8")),
                Table.parse("R1 R2 R3 R4 R5 | K8 K9 K10 K11"))  # fmt: skip
    params = SearchParams(hold_backs=0, reserve=False, draw=False, keep_each=True)
    cands = candidates(obs, best, obs.rack.tiles, params)
    placed = [sorted(map(str, c.tiles)) for c in cands if isinstance(c, Play)]
    assert placed[0] == ["K8", "R4", "R5"]
    assert sorted(placed[1:]) == [["K8"], ["K8", "R4"], ["R4", "R5"]]
    assert all(isinstance(c, Play) and is_legal(obs, c) for c in cands)


def test_the_search_holds_a_tile_back_when_the_playouts_say_so() -> None:
    # The opponent holds one tile. Greedy lays R4 R5; the playouts, in the same sampled deals,
    # find holding R5 back better (a tile to lay next turn instead of drawing).
    bot = ExpertBot(1, SAMPLES)
    action = bot.act(ENDGAME, None)
    assert bot.searched == 1 and bot.samples == 12
    assert bot.last is not None and len(bot.last.candidates) == 3
    assert isinstance(action, Play) and is_legal(ENDGAME, action)
    assert action.tiles == tuple(parse_tiles("R4"))


def test_the_search_is_reproducible_with_a_seed() -> None:
    first, second = ExpertBot(7, SAMPLES), ExpertBot(7, SAMPLES)
    assert first.act(ENDGAME, None) == second.act(ENDGAME, None)
    assert first.last is not None and second.last is not None
    assert first.last.values == second.last.values


def test_the_search_stops_within_the_callers_time_limit() -> None:
    bot = ExpertBot(1, ExpertParams(limit=5.0, max_samples=100_000, min_samples=1))
    started = time.monotonic()
    action = bot.act(ENDGAME, 0.2)
    # 0.8 x 0.2 s of sampling (twice that at the very most); the margin is for a loaded machine
    assert time.monotonic() - started < 2.0
    assert bot.samples >= 1
    assert bot.last is not None and action in bot.last.candidates


def test_expert_goes_out_at_once() -> None:
    obs = _obs("R4 R5", "R1 R2 R3", (2, 5), 30)
    bot = ExpertBot(1)
    action = bot.act(obs, 5.0)
    assert isinstance(action, Play) and len(action.tiles) == 2
    assert bot.searched == 0


def test_without_search_the_expert_plays_the_biggest_play() -> None:
    bot = ExpertBot(1, ExpertParams(rollout_search=False))
    action = bot.act(ENDGAME, None)
    assert isinstance(action, Play) and len(action.tiles) == 2 and bot.searched == 0


MIDGAME = _obs("R4 R5 R6 K9 K10 K11 B2 B5 O5 O12 K1 B13", "R1 R2 R3 | B7 B8 B9 | O1 O2 O3",
               (12, 9), 40)  # fmt: skip


def test_pruning_stops_playing_out_a_candidate_clearly_behind_the_default() -> None:
    # two rounds of playout: there the draw is clearly behind within 40 deals
    full = ExpertBot(1, replace(SAMPLES, max_samples=40, min_samples=40,
                                search=SearchParams(rounds=2)))  # fmt: skip
    pruned = ExpertBot(1, replace(SAMPLES, max_samples=40, min_samples=40,
                                  search=SearchParams(rounds=2, prune=2.0)))  # fmt: skip
    assert full.act(MIDGAME, None) == pruned.act(MIDGAME, None)
    assert full.last is not None and pruned.last is not None
    assert full.last.played == (40, 40, 40, 40)
    assert isinstance(pruned.last.candidates[3], Draw)
    assert pruned.last.played[:3] == (40, 40, 40) and pruned.last.played[3] < 40
    # the candidates played out in every deal have the same values as without pruning
    assert pruned.last.values[:3] == full.last.values[:3]
