"""The expert: its candidates, its ranking by the evaluation, its time budget and its clear
choices."""

from __future__ import annotations

import time

from rummikub.bots.evaluation import best_move, candidate_moves, judge_seed, rank_moves
from rummikub.bots.expert import ExpertBot, ExpertParams
from rummikub.bots.moves import is_legal
from rummikub.bots.search import SearchParams, candidates
from rummikub.core import Draw, Observation, Play, Rack, Table, parse_tiles, preset

# a budget given as a sample count: the ranking never depends on the machine's speed
SAMPLES = ExpertParams(limit=1000.0, max_samples=12)


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


def test_the_expert_plays_the_evaluations_best_move() -> None:
    # The opponent holds one tile: the expert ranks the candidates by the evaluation (the same
    # one the analysis and the hint use) and plays the best of its ranking
    bot = ExpertBot(1, SAMPLES)
    action = bot.act(ENDGAME, None)
    assert bot.searched == 1 and bot.samples == 12
    assert bot.last is not None and len(bot.last.candidates) == len(candidate_moves(ENDGAME))
    assert action in bot.last.candidates
    assert bot.last.values[bot.last.candidates.index(action)] == max(bot.last.values)
    # it samples the deals the hint and the analysis sample in this position: the same
    # ranking, asked directly with the position's judge_seed, gives the same move
    ranked = rank_moves(ENDGAME, candidate_moves(ENDGAME), samples=12, seed=judge_seed(ENDGAME))
    assert ranked[0][0] == action
    assert best_move(ENDGAME, samples=12)[0] == action


def test_the_expert_is_reproducible_whatever_its_seed() -> None:
    first, second = ExpertBot(7, SAMPLES), ExpertBot(8, SAMPLES)
    assert first.act(ENDGAME, None) == second.act(ENDGAME, None)
    assert first.last is not None and second.last is not None
    assert first.last.values == second.last.values


def test_the_expert_stops_within_the_callers_time_limit() -> None:
    bot = ExpertBot(1, ExpertParams(limit=5.0, max_samples=100_000))
    started = time.monotonic()
    action = bot.act(ENDGAME, 0.2)
    # 0.8 x 0.2 s of sampling; the margin is for a loaded machine
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
