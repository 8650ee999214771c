"""Many games at once: Gymnasium's vector environments over the registered ids, in this
process or one process per environment, give the same seeded episodes."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

import rummikub.envs  # noqa: F401  (registers the ids)


def run(mode: str, steps: int) -> list[Any]:
    """Observations and rewards of ``steps`` vector steps, the first legal candidate each."""
    vec = gymnasium.make_vec("rummikub/Tiles-v0", num_envs=3, vectorization_mode=mode)
    try:
        obs, info = vec.reset(seed=5)
        seen = [obs["observation"].copy()]
        for _ in range(steps):
            action = np.stack(info["action_mask"]).argmax(axis=1)
            obs, reward, term, _, info = vec.step(action)
            seen += [obs["observation"].copy(), reward.copy(), term.copy()]
        return seen
    finally:
        vec.close()


def test_a_vector_of_games_is_seeded_and_the_same_in_processes() -> None:
    here = run("sync", 12)
    assert len(here) == 1 + 3 * 12
    assert here[0].shape[0] == 3  # one row per game
    assert not np.array_equal(here[0][0], here[0][1])  # three different deals
    for a, b in zip(here, run("sync", 12), strict=True):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(here, run("async", 12), strict=True):
        np.testing.assert_array_equal(a, b)
