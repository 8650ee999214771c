"""The tile game's candidates (issue 33: one search a step): draw first, then the best play of
every tile count that can be placed, most tiles first, then the play keeping the rack's jokers;
all legal, all different, the mask exactly as long as the list."""

from __future__ import annotations

import random

import numpy as np

from rummikub.bots.moves import is_legal
from rummikub.core import Draw, Observation, Pass, Play
from rummikub.envs import make
from rummikub.solver import best_per_count, solve


def positions(seed: int, count: int) -> list[tuple[Observation, np.ndarray, list[object]]]:
    """Positions of a seeded round of random play: observation, mask and candidates."""
    env = make("tiles", players=2, seed=seed)
    pick = random.Random(seed)
    out: list[tuple[Observation, np.ndarray, list[object]]] = []
    env.reset(seed=seed)
    for _ in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        out.append((info["observation"], obs["action_mask"], list(env.candidates())))
        if len(out) >= count:
            break
        env.step(int(pick.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def key(play: Play) -> tuple[object, ...]:
    return (tuple(sorted(play.tiles)), tuple(sorted(m.key() for m in play.table.melds)))


def test_the_candidates_are_every_count_most_first_all_legal_and_different() -> None:
    plays_seen = 0
    for obs, mask, cands in positions(seed=21, count=60):
        assert int(mask.sum()) == len(cands) and mask[: len(cands)].all()
        assert cands[0] == (Draw() if obs.pool_size > 0 else Pass())
        plays = [c for c in cands[1:] if isinstance(c, Play)]
        assert len(plays) == len(cands) - 1
        assert all(is_legal(obs, p) for p in plays)
        assert len({key(p) for p in plays}) == len(plays)
        per_count = best_per_count(obs.table, obs.rack.tiles, opened=obs.has_opened,
                                   rules=obs.rules)  # fmt: skip
        counts = [len(p.tiles) for p in plays]
        # every count once, most first; the play keeping the jokers may repeat a count, last
        assert counts[: len(per_count)] == sorted(per_count, reverse=True)
        best = solve(obs.table, obs.rack.tiles, opened=obs.has_opened, rules=obs.rules)
        if plays:
            plays_seen += 1
            # the first play is as big and as valuable as greedy's (equal plays may differ)
            first = per_count[max(per_count)]
            first_play = first.as_play()
            assert first_play is not None and key(plays[0]) == key(first_play)
            assert (first.tiles, first.value) == (best.tiles, best.value)
        else:
            assert best.as_play() is None
    assert plays_seen >= 10  # the round had positions with plays to check
