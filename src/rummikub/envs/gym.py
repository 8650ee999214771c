"""A Gymnasium single-agent environment: one seat is the agent, every other seat is played by
a built-in bot of a chosen level. One round per episode; the observation, action space, mask and
rewards are those of :class:`.aec.RummikubEnv` for the agent's seat (``info["action_mask"]``
repeats the mask, as maskable policies expect). An action outside the mask plays the first
candidate (drawing, passing, throwing every die: always legal) and says so in
``info["invalid_action"]``, so an unmasked policy can still be trained."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium

from rummikub.core import Code, UsageError

from .aec import RummikubEnv, bad_argument

__all__ = ["RummikubGym"]


class RummikubGym(gymnasium.Env[dict[str, Any], int]):
    """The agent plays seat ``seat`` of ``env``; ``opponents`` make the bots of the other seats
    in order: each is called with a seed at every reset (so a seeded reset replays exactly) and
    returns a bot with an ``act(observation)`` method, e.g. ``lambda s: get_bot("greedy", s)``.
    A bot that searches against the clock (``expert``) replays exactly only when its search
    finishes within its budget."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium's own attribute

    def __init__(
        self, env: RummikubEnv, opponents: list[Callable[[int], Any]], *, seat: int = 0
    ) -> None:
        if len(opponents) != env.players - 1:
            raise bad_argument("opponents", len(opponents), f"{env.players - 1} opponents")
        if seat not in range(env.players):
            raise UsageError(
                f"seat {seat} is not a seat of a {env.players}-player game",
                code=Code.BAD_SEAT,
                params={"seat": seat, "players": env.players},
            )
        self.env = env
        self.seat = seat
        self.agent = env.possible_agents[seat]
        self.others = [x for x in env.possible_agents if x != self.agent]
        self.makers = list(opponents)
        self.opponents: dict[str, Any] = {}
        self._seeds = random.Random(f"opponents/{env.seed}")
        self.observation_space = env.observation_space(self.agent)
        self.action_space = env.action_space(self.agent)
        self.render_mode = env.render_mode

    def _play_others(self) -> None:
        """Let the bots move until it is the agent's turn or the round is over."""
        env = self.env
        while env.agents and env.agent_selection != self.agent:
            other = env.agent_selection
            if env.terminations[other] or env.truncations[other]:
                env.step(None)
                continue
            match = env.match
            assert match is not None
            seat = env.possible_agents.index(other)
            env.play_outside(self.opponents[other].act(match.observation(seat)))

    def _out(self) -> tuple[dict[str, Any], dict[str, Any]]:
        obs = self.env.observe(self.agent)
        info = dict(self.env.infos.get(self.agent, {}))
        info["action_mask"] = obs["action_mask"]
        return obs, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(f"opponents/{seed}")
        base = self._seeds.randrange(2**31)
        self.opponents = {
            a: make(base + k)
            for k, (a, make) in enumerate(zip(self.others, self.makers, strict=True))
        }
        self.env.outside = {self.env.possible_agents.index(a) for a in self.others}
        self.env.reset(seed=seed)
        self._play_others()
        return self._out()

    def step(self, action: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        env = self.env
        if env.agent_selection != self.agent or env.terminations.get(self.agent, True):
            raise UsageError("the episode is over: call reset()", code=Code.ROUND_OVER)
        invalid = not 0 <= int(action) < len(env.candidates())
        env.step(0 if invalid else int(action))  # outside the mask: the always-legal first one
        self._play_others()
        reward = env._cumulative_rewards.get(self.agent, 0.0)
        terminated = env.terminations.get(self.agent, False)
        truncated = env.truncations.get(self.agent, False)
        obs, info = self._out()
        info["invalid_action"] = invalid
        return obs, reward, terminated, truncated, info

    def render(self) -> str | None:
        return self.env.render()
