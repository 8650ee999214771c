"""The learning environments: PettingZoo's and Gymnasium's own API checks, seeded episodes that
replay exactly, masks that offer only legal candidates, rewards from the rules' scoring."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from rummikub.core import Code, UsageError, preset
from rummikub.envs import TilesSpec, make, make_gym


@pytest.mark.parametrize(
    ("game", "players", "rules"),
    [
        ("tiles", 2, None),
        ("tiles", 3, "swedish-tin"),
        ("tiles", 4, "classic-strict"),
        ("tiles", 2, {"preset": "standard", "jokers": 0}),
        ("xpress", 2, None),
    ],
)
def test_pettingzoos_api_check(game: str, players: int, rules: Any) -> None:
    api_test(make(game, players=players, rules=rules, seed=3), num_cycles=60)


@pytest.mark.parametrize(("game", "opponent"), [("tiles", "greedy"), ("xpress", "greedy")])
def test_gymnasiums_api_check(game: str, opponent: str) -> None:
    check_env(make_gym(game, seed=5, opponent=opponent), skip_render_check=True)


def play_out(env: Any, pick: random.Random) -> tuple[list[Any], dict[str, float]]:
    """Play an episode choosing candidates at random; every observation and the returns."""
    seen: list[Any] = []
    returns: dict[str, float] = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        seen.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist()))
        if term or trunc:
            env.step(None)
            continue
        choices = np.flatnonzero(obs["action_mask"])
        env.step(int(pick.choice(list(choices))))
    return seen, returns


@pytest.mark.parametrize("game", ["tiles", "xpress"])
def test_a_seed_replays_exactly(game: str) -> None:
    one = make(game, players=2, seed=11)
    one.reset(seed=11)
    first = play_out(one, random.Random(1))
    two = make(game, players=2, seed=11)
    two.reset(seed=11)
    assert play_out(two, random.Random(1)) == first
    two.reset(seed=12)
    assert play_out(two, random.Random(1)) != first


def test_score_rewards_sum_to_zero_and_win_rewards_name_the_winner() -> None:
    env = make("tiles", players=3, seed=2)
    env.reset()
    _, returns = play_out(env, random.Random(4))
    assert sum(returns.values()) == 0 and any(returns.values())
    env = make("tiles", players=3, seed=2, reward="win")
    env.reset()
    _, wins = play_out(env, random.Random(4))
    assert sorted(wins.values()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])
    assert max(returns, key=lambda a: returns[a]) == max(wins, key=lambda a: wins[a])


def test_candidates_are_legal_and_a_bad_index_changes_nothing() -> None:
    env = make("tiles", players=2, seed=8)
    env.reset()
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    offered = env.candidates()
    assert int(mask.sum()) == len(offered) and mask[: len(offered)].all()
    assert env.infos[agent]["candidates"][0] == {"action": "draw"}
    state = env.match.state  # type: ignore[union-attr]
    for action in offered:
        assert env.game.check(state, action) is None
    with pytest.raises(UsageError) as err:
        env.step(len(offered))
    assert err.value.code == Code.BAD_ARGUMENT and str(len(offered)) in str(err.value)
    assert env.match.state is state and env.agent_selection == agent  # type: ignore[union-attr]


def test_the_tile_features_follow_the_documented_layout() -> None:
    env = make("tiles", players=3, seed=6)
    env.reset()
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    raw = env.infos[agent]["observation"]
    x = env.observe(agent)["observation"]
    rules = preset("standard")
    k = rules.colours * rules.numbers + 1
    assert x.shape == (TilesSpec().feature_size(rules, 3),) == (2 * k + 3 * 3 + 1,)
    assert x[:k].sum() == len(raw.rack.tiles) == raw.rack_sizes[seat]
    assert x[k : 2 * k].sum() == 0  # nothing on the table yet
    sizes = x[2 * k : 2 * k + 3]
    assert sizes[0] == raw.rack_sizes[seat]  # his own first
    assert x[-1] == raw.pool_size


def test_the_gym_episode_against_bots() -> None:
    env = make_gym("tiles", players=2, seed=9, opponent="greedy")
    obs, info = env.reset(seed=9)
    assert (obs["action_mask"] == info["action_mask"]).all() and info["candidates"]
    total, done, steps = 0.0, False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(0)  # always draw
        total += float(reward)
        done = terminated or truncated
        steps += 1
    assert total < 0  # a player who only draws loses to greedy
    with pytest.raises(UsageError):
        env.step(0)
    # an index outside the mask plays the first candidate, and says so
    env.reset(seed=9)
    _, _, _, _, info = env.step(23)
    assert info["invalid_action"] is True


def test_registered_with_gymnasium() -> None:
    env = gymnasium.make("rummikub/Xpress-v0", seed=2)
    obs, info = env.reset(seed=2)
    assert obs["observation"].shape == (3 * 53 + 10,) and info["candidates"]
    env.close()


def test_bad_arguments_are_named() -> None:
    with pytest.raises(UsageError) as err:
        make("tiles", players=7)
    assert err.value.code == Code.PLAYER_COUNT
    with pytest.raises(UsageError) as err:
        make("tiles", reward="money")  # type: ignore[arg-type]
    assert err.value.params["name"] == "reward"
    with pytest.raises(ValueError, match="chess"):
        make("chess")
    with pytest.raises(UsageError) as err:
        make_gym("tiles", seat=5)
    assert err.value.code == Code.BAD_SEAT
