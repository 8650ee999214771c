"""A PettingZoo AEC environment for every game of the platform: one round per episode, the
seats as agents ``player_0`` … ``player_{n-1}``, the game's candidate actions as a discrete
action space with a mask.

Each agent's observation is ``{"observation": features, "action_mask": mask}``: the game's
features (:mod:`.tiles`, :mod:`.xpress`; layout in docs/learning.md) and, for the agent to move,
a 1 for every candidate (zeros for the others). ``infos[agent]`` of the agent to move holds
``candidates`` (the actions, as the game's action JSON) and ``observation`` (the game's own
observation object). Rewards come at the end of the round: the round's scores under the rules
(``reward="score"``) or +1 for the winner and -1 for the others (``reward="win"``; 0 for all when
nobody wins). Chance (the deal, draws, dice) comes from the match's seeded generator: the same
seed gives the same episode for the same actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rummikub.core import Code, UsageError
from rummikub.core.interface import Game, GameMatch

from .lazy import Lazy
from .spec import Features, GameSpec

__all__ = ["Reward", "RummikubEnv"]

Reward = Literal["score", "win"]
#: the largest magnitude of a feature (scores are the largest: a match total of thousands)
BOUND = 100_000.0


def _given(action: Any) -> Any:
    return lambda: action


def bad_argument(name: str, value: object, wanted: str) -> UsageError:
    """The error of an argument that does not fit, naming it and what would."""
    return UsageError(
        f"{name} {value!r} is not valid here (expected {wanted})",
        code=Code.BAD_ARGUMENT,
        params={"name": name, "value": str(value)},
    )


class RummikubEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # untyped base
    """One round of ``game`` for ``players`` agents (see the module)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "rummikub_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game[Any, Any, Any, Any],
        spec: GameSpec,
        rules: Any,
        players: int,
        *,
        seed: int = 0,
        reward: Reward = "score",
        max_actions: int = 2000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        counts = game.player_counts(rules)
        if players not in counts:
            raise UsageError(
                f"{game.name} under these rules is for {counts.start}-{counts.stop - 1} players, "
                f"not {players}",
                code=Code.PLAYER_COUNT,
                params={"count": players, "min": counts.start, "max": counts.stop - 1},
            )
        if reward not in ("score", "win"):
            raise bad_argument("reward", reward, "score or win")
        if render_mode not in (None, "ansi"):
            raise bad_argument("render_mode", render_mode, "ansi")
        self.game = game
        self.spec = spec
        self.rules = rules
        self.players = players
        self.reward_kind = reward
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.seed = seed
        self._seeds = random.Random(seed)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = spec.feature_size(rules, players)
        limit = self.limit = spec.limit
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(limit,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(limit) for a in self.possible_agents}
        #: seats played from outside (:meth:`play_outside`): no candidates are made for them
        self.outside: set[int] = set()
        self.match: GameMatch[Any, Any, Any, Any] | None = None
        self._candidates: Lazy[Any] = Lazy(())
        self._actions = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode ------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new round, dealt from ``seed`` (default: the next seed of the environment's own
        seeded sequence)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        deal = self._seeds.randrange(2**31)
        names = [f"player_{i}" for i in range(self.players)]
        self.match = self.game.new_match(self.rules, names, deal)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._actions = 0
        self._skip_agent_selection = None
        self._next_turn()

    def _state(self) -> Any:
        assert self.match is not None
        return getattr(self.match, "state")  # noqa: B009 - every game's match keeps its state

    def _seat(self) -> int:
        return self.game.current(self._state())

    def _next_turn(self) -> None:
        """Offer the candidates of the player to move."""
        assert self.match is not None
        seat = self._seat()
        self.agent_selection = self.possible_agents[seat]
        for a in self.agents:
            self.infos[a] = {}
        if seat in self.outside:
            self._candidates = Lazy(())
            return
        obs = self.match.observation(seat)
        offered = self.spec.candidates(obs)
        cands = offered if isinstance(offered, Lazy) else Lazy(_given(a) for a in offered)
        self._candidates = cands if len(cands) <= self.limit else cands[: self.limit]
        self.infos[self.agent_selection] = {
            "candidates": self._candidates.map(self.game.action_to_json),
            "observation": obs,
        }

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.match is not None
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.limit, dtype=np.int8)
        live = not (self.terminations.get(agent, True) or self.truncations.get(agent, True))
        if agent == self.agent_selection and live:
            mask[: len(self._candidates)] = 1
        features: Features = self.spec.features(self.match.observation(seat))
        return {"observation": features, "action_mask": mask}

    def candidates(self) -> Sequence[Any]:
        """The actions offered to the agent to move (index = action; each made when read)."""
        return self._candidates

    def step(self, action: int | None) -> None:
        """Play candidate ``action`` of the agent to move (``None`` for an agent whose episode
        is over, as the AEC API asks). An index that is no candidate raises ``ValueError``
        naming it and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.match is not None
        if action is None or not 0 <= int(action) < len(self._candidates):
            raise bad_argument(
                "action", action, f"one of the {len(self._candidates)} candidates of {agent}"
            )
        self._play(self._candidates[int(action)])

    def play_outside(self, action: Any) -> None:
        """Play ``action`` — any action of the game, not only a candidate — for the agent to
        move (how a bot seat of the Gymnasium environment plays its own choice). An illegal one
        raises :class:`~rummikub.core.IllegalPlayError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise UsageError(f"{agent}'s episode is over", code=Code.ROUND_OVER)
        error = self.game.check(self._state(), action)
        if error is not None:
            raise error
        self._play(action)

    def _play(self, chosen: Any) -> None:
        agent = self.agent_selection
        assert self.match is not None
        self._cumulative_rewards[agent] = 0.0
        self.match.act(chosen)  # a candidate the rules refuse (a bug of its spec) raises
        self._actions += 1
        self.rewards = {a: 0.0 for a in self.agents}
        result = self.game.result(self._state())
        if result is not None:
            for i, a in enumerate(self.agents):
                self.rewards[a] = self._reward(result.scores, result.winner, i)
                self.terminations[a] = True
                self.infos[a] = {"result": result}
            self._candidates = Lazy(())
        elif self._actions >= self.max_actions:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {}
            self._candidates = Lazy(())
        else:
            self._next_turn()
        self._accumulate_rewards()

    def _reward(self, scores: tuple[int, ...], winner: int | None, seat: int) -> float:
        if self.reward_kind == "score":
            return float(scores[seat])
        if winner is None:
            return 0.0
        return 1.0 if seat == winner else -1.0

    def render(self) -> str | None:
        """The position as the player to move sees it (``render_mode="ansi"``)."""
        if self.render_mode is None or self.match is None:
            return None
        seat = self._seat()
        data = self.game.observation_to_json(self.match.observation(seat))
        return f"{self.agent_selection} to move: {data}"

    def close(self) -> None:
        self.match = None
