"""A ready match, record format, replay and verification for a new game whose chance events all
happen when a round is dealt: such a game writes only its rules, its deal and its pure layer.

Subclass :class:`SimpleGame` and give it a ``name``, a ``record_format``, ``PRESETS``, and
``rules_from_json``, ``player_counts``, ``deal``, ``start``, ``check``, ``apply``, ``result``,
``observe``, ``redeal_hidden``, the action JSON codec, ``is_action`` and ``fallback_action``.
Its rules need ``to_dict`` and a ``rounds`` count (or override ``match_over``), its states
``current``, ``turn`` and ``end``-free results through ``result``.

A :class:`SimpleMatch` deals every round from ``random.Random(f"{name}/{seed}/{round}")``,
writes the deal into the round's log and logs every action as JSON, so the record — format
``record_format``::

    {"format": ..., "rules": {...}, "players": [...], "seed": 7,
     "rounds": [{"deal": {...}, "actions": [{"player": 0, "action": {...}, "ms": 12}, ...],
                 "end": {"reason": ..., "winner": 0, "scores": [...]}}],
     "totals": [...]}

replays without the generator and resumes exactly. The record's frame (format, rules, players,
seed, rounds, totals) is :class:`~rummikub.core.framing.RecordFrame`'s, as for every game: this
module writes and reads only a round's deal, actions and end. A game with chance events inside
a round (Xpress throws dice during turns) keeps its own match instead.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from .errors import Code, IllegalPlayError, NotationError, RecordError, RummikubError, UsageError
from .framing import RecordFrame
from .game_base import check_next_round, verify_steps
from .interface import PlayerInfo, RoundResult
from .jsonio import field as required
from .jsonio import json_list, whole_number

__all__ = ["SimpleGame", "SimpleMatch", "SimpleRecord", "SimpleRound", "SimpleStep"]

R = TypeVar("R")
S = TypeVar("S")
A = TypeVar("A")
Ob = TypeVar("Ob")


@dataclass(slots=True)
class SimpleRound:
    """A round's deal (its chance events, as JSON), its actions and how it ended."""

    deal: dict[str, Any]
    actions: list[tuple[int, dict[str, Any], int | None]] = field(default_factory=list)
    end: RoundResult | None = None


@dataclass(frozen=True, slots=True)
class SimpleRecord:
    rules: Any
    players: tuple[PlayerInfo, ...]
    seed: int | None
    rounds: tuple[SimpleRound, ...]
    totals: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class SimpleStep(Generic[S]):
    round: int
    turn: int
    before: S
    after: S


def _round_json(rd: SimpleRound) -> dict[str, Any]:
    actions = []
    for player, action, ms in rd.actions:
        step: dict[str, Any] = {"player": player, "action": action}
        if ms is not None:
            step["ms"] = ms
        actions.append(step)
    return {"deal": rd.deal, "actions": actions}


def _end_json(end: RoundResult) -> dict[str, Any]:
    return {"reason": end.reason, "winner": end.winner, "scores": list(end.scores)}


def _read_round(rd: dict[str, Any], where: str, rules: Any, end: RoundResult | None) -> SimpleRound:
    if not isinstance(rd.get("deal"), dict):
        raise NotationError(f"{where} needs a deal")
    actions: list[tuple[int, dict[str, Any], int | None]] = []
    for k, step in enumerate(json_list(rd.get("actions", []), f"{where} actions")):
        at = f"{where} action {k + 1}"
        if not isinstance(step, dict):
            raise NotationError(f"{at} must be an object")
        player = whole_number(required(step, "player", at), f"{at} player")
        action = step.get("action")
        if not isinstance(action, dict):
            raise NotationError(f"{at} needs 'action'")
        ms = step.get("ms")
        actions.append((player, action, whole_number(ms, f"{at} ms") if ms is not None else None))
    return SimpleRound(rd["deal"], actions, end)


def _read_end(d: Any, where: str) -> RoundResult:
    if not isinstance(d, dict):
        raise NotationError(f"{where} must be an object")
    reason = required(d, "reason", where)
    if not isinstance(reason, str):
        raise NotationError(f"{where} reason must be a string")
    winner = d.get("winner")
    return RoundResult(
        reason,
        whole_number(winner, f"{where} winner") if winner is not None else None,
        tuple(
            whole_number(s, f"{where} score")
            for s in json_list(required(d, "scores", where), f"{where} scores")
        ),
    )


class SimpleGame(ABC, Generic[R, S, A, Ob]):
    """The base of a game played through :class:`SimpleMatch` (see the module's text)."""

    name: str
    record_format: str
    PRESETS: Mapping[str, R]

    # -- what a game provides ---------------------------------------------------------
    @abstractmethod
    def rules_from_json(self, data: Any, *, stored: bool = False) -> R:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def rules_to_json(self, rules: R) -> dict[str, Any]:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def deal(self, rules: R, players: int, index: int, rng: random.Random) -> dict[str, Any]:
        """The chance events of round ``index`` (JSON), drawn from ``rng``."""

    @abstractmethod
    def start(self, rules: R, players: int, index: int, deal: Mapping[str, Any]) -> S:
        """The first state of round ``index`` after ``deal`` (raise :class:`RummikubError` for
        a deal the rules cannot make)."""

    @abstractmethod
    def current(self, state: S) -> int:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def turn(self, state: S) -> int:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def check(self, state: S, action: A) -> IllegalPlayError | None:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def result(self, state: S) -> RoundResult | None:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def action_to_json(self, action: A) -> dict[str, Any]:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def action_from_json(self, data: Any) -> A:
        """See :class:`~rummikub.core.interface.Game`."""

    @abstractmethod
    def observe(self, state: S, player: int) -> Ob:
        """What ``player`` may know of ``state``."""

    @abstractmethod
    def observation_to_json(self, obs: Ob) -> dict[str, Any]:
        """The observation as JSON."""

    @abstractmethod
    def redeal_hidden(self, state: S, player: int, rng: random.Random) -> S:
        """``state`` with what ``player`` cannot see dealt anew."""

    @abstractmethod
    def is_action(self, value: object) -> bool:
        """Whether ``value`` is an action of this game."""

    @abstractmethod
    def player_counts(self, rules: R) -> range:
        """How many players a match may have."""

    @abstractmethod
    def zero_sum(self, rules: R) -> bool:
        """Whether every round's scores add up to zero."""

    # -- shared parts -----------------------------------------------------------------
    @property
    def record_formats(self) -> tuple[str, ...]:
        return (self.record_format,)

    def presets(self) -> Mapping[str, R]:
        return self.PRESETS

    def turn_seconds(self, rules: R) -> float | None:
        return None

    def timeout_action(self, obs: Ob) -> A:
        return self.fallback_action(obs)

    @abstractmethod
    def fallback_action(self, obs: Ob) -> A:
        """See :class:`~rummikub.core.interface.Game`."""

    def is_timeout(self, action: A) -> bool:
        return False

    def match_over(self, rules: R, rounds: int, totals: Sequence[int]) -> bool:
        """After ``rounds`` finished rounds: ``rules.rounds`` rounds make a match."""
        return rounds >= int(getattr(rules, "rounds", 1))

    def new_match(
        self, rules: R, players: Sequence[PlayerInfo | str], seed: int
    ) -> SimpleMatch[R, S, A, Ob]:
        return SimpleMatch(self, rules, players, seed)

    # -- records ----------------------------------------------------------------------
    @cached_property
    def frame(self) -> RecordFrame[R, SimpleRound, RoundResult]:
        """The game's record format: the shared frame with the rules, deals and actions."""
        return RecordFrame(
            self.record_format,
            f"a {self.record_format} record",
            write_header=lambda match: {"rules": self.rules_to_json(match.rules)},
            write_round=_round_json,
            write_end=_end_json,
            read_header=self._read_rules,
            read_round=_read_round,
            read_end=_read_end,
        )

    def _read_rules(self, data: dict[str, Any]) -> R:
        raw = required(data, "rules", "record")
        try:
            return self.rules_from_json(raw, stored=True)
        except RummikubError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise NotationError(f"malformed {self.record_format} rules: {exc}") from None

    def match_record(self, match: Any) -> dict[str, Any]:
        return self.frame.to_json(match)

    def load_record(self, data: Any) -> SimpleRecord:
        f = self.frame.load(data)
        return SimpleRecord(f.header, f.players, f.seed, f.rounds, f.totals)

    def replay(self, record: Any) -> Iterator[SimpleStep[S]]:
        n = len(record.players)
        for ri, rd in enumerate(record.rounds):
            try:
                state = self.start(record.rules, n, ri, rd.deal)
            except RummikubError as exc:
                raise RecordError(f"deal: {exc}", round=ri) from None
            for ti, (player, data, _) in enumerate(rd.actions):
                if self.result(state) is not None:
                    raise RecordError("action recorded after the round ended", round=ri, turn=ti)
                if player != self.current(state):
                    raise RecordError(
                        f"player {player + 1} moved, but it was player "
                        f"{self.current(state) + 1}'s turn",
                        round=ri,
                        turn=ti,
                    )
                try:
                    after = self.apply(state, self.action_from_json(data))
                except RummikubError as exc:
                    raise RecordError(str(exc), round=ri, turn=ti) from None
                yield SimpleStep(ri, ti, state, after)
                state = after
            result = self.result(state)
            if result is not None and rd.end != result:
                raise RecordError(f"recorded end {rd.end} differs from {result}", round=ri)
            if result is None and rd.end is not None and rd.end.reason != "abandoned":
                raise RecordError("round recorded as ended but the actions do not end it", round=ri)

    def verify(self, record: Any) -> int:
        return verify_steps(self.replay(record), record)

    def resume(self, record: Any) -> SimpleMatch[R, S, A, Ob]:
        self.verify(record)
        match = SimpleMatch(self, record.rules, record.players, record.seed or 0, start=False)
        for rd in record.rounds:
            match.start_round(rd.deal)
            for _, data, ms in rd.actions:
                match.act(self.action_from_json(data), ms=ms)
            if rd.end is not None and rd.end.reason == "abandoned":
                match.abandon()
        return match


class SimpleMatch(Generic[R, S, A, Ob]):
    """A match of a :class:`SimpleGame`: rounds dealt from ``seed``, every action logged."""

    def __init__(
        self,
        game: SimpleGame[R, S, A, Ob],
        rules: R,
        players: Sequence[PlayerInfo | str],
        seed: int,
        *,
        start: bool = True,
    ) -> None:
        self.game = game
        self.rules = rules
        self.players = tuple(p if isinstance(p, PlayerInfo) else PlayerInfo(p) for p in players)
        self.seed = seed
        self.rounds: list[SimpleRound] = []
        self.totals: tuple[int, ...] = (0,) * len(self.players)
        self.state: S
        if start:
            self.start_round()

    def start_round(self, deal: dict[str, Any] | None = None) -> S:
        index = len(self.rounds)
        n = len(self.players)
        if deal is None:
            rng = random.Random(f"{self.game.name}/{self.seed}/{index}")
            deal = self.game.deal(self.rules, n, index, rng)
        self.state = self.game.start(self.rules, n, index, deal)
        self.rounds.append(SimpleRound(deal))
        return self.state

    @property
    def round_over(self) -> bool:
        return self.rounds[-1].end is not None

    @property
    def over(self) -> bool:
        finished = sum(1 for r in self.rounds if r.end is not None)
        return self.round_over and self.game.match_over(self.rules, finished, self.totals)

    @property
    def winners(self) -> list[int]:
        best = max(self.totals)
        return [p for p, t in enumerate(self.totals) if t == best]

    def observation(self, player: int, time_left: float | None = None) -> Ob:
        return self.game.observe(self.state, player)

    def act(self, action: A, *, ms: int | None = None) -> S:
        if self.round_over:
            raise UsageError("the round is over", code=Code.ROUND_OVER)
        player = self.game.current(self.state)
        self.state = self.game.apply(self.state, action)  # raises, changing nothing
        self.rounds[-1].actions.append((player, self.game.action_to_json(action), ms))
        result = self.game.result(self.state)
        if result is not None:
            self._end(result)
        return self.state

    def _end(self, result: RoundResult) -> None:
        self.rounds[-1].end = result
        self.totals = tuple(a + b for a, b in zip(self.totals, result.scores, strict=True))

    def next_round(self) -> S:
        check_next_round(self.round_over, self.over)
        return self.start_round()

    def abandon(self) -> None:
        """End the current round without a winner (it scores nothing)."""
        if not self.round_over:
            self._end(RoundResult("abandoned", None, (0,) * len(self.players)))
