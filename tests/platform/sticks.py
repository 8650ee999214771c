"""A third game, only for the tests: the proof that the game interface is not shaped to
exactly the tile game and Xpress. Sticks: a pile of 10-20 sticks (dealt from the seed); in turn
each player takes 1 to ``max_take``; who takes the last stick wins the round and scores one
point from every other player. A match is ``rounds`` rounds; the start moves one seat a round.
Its match, record format, replay and verification come from :class:`SimpleGame`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from rummikub.core import IllegalPlayError
from rummikub.core.errors import Code
from rummikub.core.interface import RoundResult
from rummikub.core.simple_game import SimpleGame


@dataclass(frozen=True)
class Rules:
    rounds: int = 3
    max_take: int = 3


@dataclass(frozen=True)
class Take:
    count: int


@dataclass(frozen=True)
class State:
    rules: Rules
    players: int
    pile: int
    current: int
    turn: int = 0
    winner: int | None = None


class Sticks(SimpleGame[Rules, State, Take, State]):
    name = "sticks"
    record_format = "test-sticks/1"
    PRESETS = MappingProxyType({"standard": Rules(), "long": Rules(rounds=5, max_take=4)})

    def rules_from_json(self, data: Any, *, stored: bool = False) -> Rules:
        return Rules(**data)

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return {"rounds": rules.rounds, "max_take": rules.max_take}

    def player_counts(self, rules: Rules) -> range:
        return range(2, 5)

    def deal(self, rules: Rules, players: int, index: int, rng: random.Random) -> dict[str, Any]:
        return {"pile": rng.randint(10, 20)}

    def start(self, rules: Rules, players: int, index: int, deal: Mapping[str, Any]) -> State:
        return State(rules, players, int(deal["pile"]), index % players)

    def current(self, state: State) -> int:
        return state.current

    def turn(self, state: State) -> int:
        return state.turn

    def check(self, state: State, action: Take) -> IllegalPlayError | None:
        if not 1 <= action.count <= min(state.rules.max_take, state.pile):
            # a game's own refusals use the general code, with what it needs to say why
            return IllegalPlayError(
                f"cannot take {action.count}", code=Code.ILLEGAL, params={"count": action.count}
            )
        return None

    def apply(self, state: State, action: Take) -> State:
        if (err := self.check(state, action)) is not None:
            raise err
        pile, who = state.pile - action.count, state.current
        nxt = (who + 1) % state.players
        return replace(state, pile=pile, current=nxt, turn=state.turn + 1,
                       winner=who if pile == 0 else None)  # fmt: skip

    def result(self, state: State) -> RoundResult | None:
        if state.winner is None:
            return None
        scores = [-1] * state.players
        scores[state.winner] = state.players - 1
        return RoundResult("out", state.winner, tuple(scores))

    def observe(self, state: State, player: int) -> State:
        return state  # nothing is hidden

    def observation_to_json(self, obs: State) -> dict[str, Any]:
        return {"pile": obs.pile, "current": obs.current, "turn": obs.turn}

    def redeal_hidden(self, state: State, player: int, rng: random.Random) -> State:
        return state

    def is_action(self, value: object) -> bool:
        return isinstance(value, Take)

    def action_to_json(self, action: Take) -> dict[str, Any]:
        return {"take": action.count}

    def action_from_json(self, data: Any) -> Take:
        return Take(int(data["take"]))

    def fallback_action(self, obs: State) -> Take:
        return Take(1)

    def zero_sum(self, rules: Rules) -> bool:
        return True


class TakeMost:
    """Takes as many as it may."""

    name = "most"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: State, time_limit: float | None = None) -> Take:
        return Take(min(obs.rules.max_take, obs.pile))


class TakeRandom:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: State, time_limit: float | None = None) -> Take:
        return Take(self.rng.randint(1, min(obs.rules.max_take, obs.pile)))


GAME = Sticks()

#: its bot levels, weakest first: its ``bots`` part in the table of game parts
BOTS = {"random": TakeRandom, "most": TakeMost}
