"""A third game, only for the tests: the proof that the game interface is not shaped to
exactly the tile game and Xpress. Sticks: a pile of 10-20 sticks (dealt from the seed); in turn
each player takes 1 to ``max_take``; who takes the last stick wins the round and scores one
point from every other player. A match is ``rounds`` rounds; the start moves one seat a round.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rummikub.core import IllegalPlayError, RecordError
from rummikub.core.errors import Code, UsageError
from rummikub.core.interface import PlayerInfo, RoundResult

FORMAT = "test-sticks/1"


@dataclass(frozen=True)
class Rules:
    rounds: int = 3
    max_take: int = 3


@dataclass(frozen=True)
class Take:
    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


@dataclass(frozen=True)
class State:
    rules: Rules
    players: int
    pile: int
    current: int
    turn: int = 0
    winner: int | None = None


@dataclass(frozen=True)
class Step:
    round: int
    turn: int
    before: State
    after: State


@dataclass
class Round:
    pile: int
    first: int
    takes: list[tuple[int, int]] = field(default_factory=list)  # (player, count)


@dataclass(frozen=True)
class Record:
    rules: Rules
    players: tuple[PlayerInfo, ...]
    seed: int | None
    rounds: tuple[Round, ...]
    totals: tuple[int, ...] | None


class Sticks:
    name = "sticks"
    record_format = FORMAT
    record_formats: tuple[str, ...] = (FORMAT,)

    def presets(self) -> Mapping[str, Rules]:
        return {"standard": Rules(), "long": Rules(rounds=5, max_take=4)}

    def rules_from_json(self, data: Any, *, stored: bool = False) -> Rules:
        return Rules(**data)

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return {"rounds": rules.rounds, "max_take": rules.max_take}

    def player_counts(self, rules: Rules) -> range:
        return range(2, 5)

    def turn_seconds(self, rules: Rules) -> float | None:
        return None

    def new_match(self, rules: Rules, players: Sequence[PlayerInfo | str], seed: int) -> Match:
        return Match(rules, players, seed)

    def current(self, state: State) -> int:
        return state.current

    def turn(self, state: State) -> int:
        return state.turn

    def check(self, state: State, action: Take) -> IllegalPlayError | None:
        if state.winner is not None:
            return IllegalPlayError("the round is over", code=Code.ROUND_OVER)
        if not 1 <= action.count <= min(state.rules.max_take, state.pile):
            # a game's own refusals use the general code, with what it needs to say why
            return IllegalPlayError(
                f"cannot take {action.count}", code=Code.ILLEGAL, params={"count": action.count}
            )
        return None

    def apply(self, state: State, action: Take) -> State:
        err = self.check(state, action)
        if err is not None:
            raise err
        pile = state.pile - action.count
        return replace(
            state,
            pile=pile,
            current=(state.current + 1) % state.players,
            turn=state.turn + 1,
            winner=state.current if pile == 0 else None,
        )

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

    def timeout_action(self, obs: State) -> Take:
        return Take(1)

    def is_timeout(self, action: Take) -> bool:
        return False

    def zero_sum(self, rules: Rules) -> bool:
        return True

    def match_record(self, match: Any) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules_to_json(match.rules),
            "players": [{"name": p.name, "kind": p.kind, "bot": p.bot} for p in match.players],
            "seed": match.seed,
            "rounds": [
                {"pile": r.pile, "first": r.first, "takes": [list(t) for t in r.takes]}
                for r in match.rounds
            ],
            "totals": list(match.totals),
        }

    def load_record(self, data: Any) -> Record:
        if data.get("format") != FORMAT:
            raise RecordError(f"not a {FORMAT} record")
        return Record(
            self.rules_from_json(data["rules"]),
            tuple(PlayerInfo(p["name"], p["kind"], p["bot"]) for p in data["players"]),
            data["seed"],
            tuple(
                Round(r["pile"], r["first"], [(p, c) for p, c in r["takes"]])
                for r in data["rounds"]
            ),
            tuple(data["totals"]),
        )

    def replay(self, record: Any) -> Iterator[Step]:
        for ri, rd in enumerate(record.rounds):
            state = State(record.rules, len(record.players), rd.pile, rd.first)
            for ti, (player, count) in enumerate(rd.takes):
                if player != state.current:
                    raise RecordError("out of turn", round=ri, turn=ti)
                try:
                    after = self.apply(state, Take(count))
                except IllegalPlayError as exc:
                    raise RecordError(str(exc), round=ri, turn=ti) from None
                yield Step(ri, ti, state, after)
                state = after

    def verify(self, record: Any) -> int:
        return sum(1 for _ in self.replay(record))

    def resume(self, record: Any) -> Match:
        self.verify(record)
        match = Match(record.rules, record.players, record.seed or 0, start=False)
        for rd in record.rounds:
            match.start_round(rd.pile)
            for _, count in rd.takes:
                match.act(Take(count))
        return match


class Match:
    def __init__(
        self, rules: Rules, players: Sequence[PlayerInfo | str], seed: int, start: bool = True
    ) -> None:
        self.rules, self.seed = rules, seed
        self.players = tuple(p if isinstance(p, PlayerInfo) else PlayerInfo(p) for p in players)
        self.totals = (0,) * len(self.players)
        self.rounds: list[Round] = []
        if start:
            self.start_round()

    def start_round(self, pile: int | None = None) -> State:
        index = len(self.rounds)
        if pile is None:
            pile = random.Random(f"sticks/{self.seed}/{index}").randint(10, 20)
        first = index % len(self.players)
        self.rounds.append(Round(pile, first))
        self.state = State(self.rules, len(self.players), pile, first)
        return self.state

    @property
    def round_over(self) -> bool:
        return self.state.winner is not None

    @property
    def over(self) -> bool:
        return self.round_over and len(self.rounds) >= self.rules.rounds

    @property
    def winners(self) -> list[int]:
        return [p for p, t in enumerate(self.totals) if t == max(self.totals)]

    def observation(self, player: int, time_left: float | None = None) -> State:
        return self.state

    def act(self, action: Take, *, ms: int | None = None) -> State:
        player = self.state.current
        self.state = GAME.apply(self.state, action)
        self.rounds[-1].takes.append((player, action.count))
        result = GAME.result(self.state)
        if result is not None:
            self.totals = tuple(a + b for a, b in zip(self.totals, result.scores, strict=True))
        return self.state

    def next_round(self) -> State:
        if not self.round_over or self.over:
            raise UsageError("no next round now", code=Code.ROUND_NOT_OVER)
        return self.start_round()

    def abandon(self) -> None:
        raise UsageError("a round of sticks always ends", code=Code.ERROR)


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
