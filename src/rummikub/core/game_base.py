"""What the games of the platform share: :class:`RoundGame`, the parts of
:class:`~rummikub.core.interface.Game` that read the common shape of their values."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .errors import Code, RecordError, UsageError
from .interface import GameRecordOf, ReplayStepOf, RoundResult

__all__ = ["RecordCodec", "RoundGame", "check_next_round", "verify_steps"]


class _End(Protocol):
    @property
    def reason(self) -> str: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def scores(self) -> tuple[int, ...]: ...


class _State(Protocol):
    @property
    def current(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def end(self) -> _End | None: ...


class _Rules(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class _Observation(Protocol):
    def to_json(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=_Rules)
S = TypeVar("S", bound=_State)
Ob = TypeVar("Ob", bound=_Observation)


@dataclass(frozen=True, slots=True)
class RecordCodec:
    """A game's record functions: write a match's record, parse one, replay, verify, resume."""

    write: Callable[[Any], dict[str, Any]]
    load: Callable[[Any], Any]
    replay: Callable[[Any], Iterator[Any]]
    verify: Callable[[Any], int]
    resume: Callable[[Any], Any]


class RoundGame(Generic[R, S, Ob]):
    """A base for games whose rules have ``to_dict``, whose round states have ``current``,
    ``turn`` and ``end`` (with ``reason``, ``winner``, ``scores``) and whose observations have
    ``to_json``: the tile game and Xpress."""

    name: str
    record_format: str
    #: the named rule sets, the default first
    PRESETS: Mapping[str, R]
    #: the game's record format, as functions
    RECORDS: RecordCodec

    @property
    def record_formats(self) -> tuple[str, ...]:
        return (self.record_format,)

    def presets(self) -> Mapping[str, R]:
        return self.PRESETS

    def rules_to_json(self, rules: R) -> dict[str, Any]:
        return rules.to_dict()

    def current(self, state: S) -> int:
        return state.current

    def turn(self, state: S) -> int:
        return state.turn

    def result(self, state: S) -> RoundResult | None:
        end = state.end
        return None if end is None else RoundResult(end.reason, end.winner, end.scores)

    def observation_to_json(self, obs: Ob) -> dict[str, Any]:
        return obs.to_json()

    def match_record(self, match: Any) -> dict[str, Any]:
        return self.RECORDS.write(match)

    def load_record(self, data: Any) -> Any:
        return self.RECORDS.load(data)

    def replay(self, record: GameRecordOf) -> Iterator[ReplayStepOf[S]]:
        return self.RECORDS.replay(record)

    def verify(self, record: GameRecordOf) -> int:
        return self.RECORDS.verify(record)

    def resume(self, record: GameRecordOf) -> Any:
        return self.RECORDS.resume(record)


def check_next_round(round_over: bool, match_over: bool) -> None:
    """Raise :class:`UsageError` unless a match may deal its next round now."""
    if not round_over:
        raise UsageError("the current round is not over", code=Code.ROUND_NOT_OVER)
    if match_over:
        raise UsageError("the match is over", code=Code.MATCH_OVER)


def verify_steps(steps: Iterable[object], record: GameRecordOf) -> int:
    """Run a record's replay to its end (which checks every step) and check that its totals
    are the sum of its rounds' scores; the number of steps."""
    count = sum(1 for _ in steps)
    if record.totals is not None:
        totals = [0] * len(record.players)
        for rd in record.rounds:
            if rd.end is not None:
                totals = [a + b for a, b in zip(totals, rd.end.scores, strict=True)]
        if list(record.totals) != totals:
            raise RecordError(
                f"totals {list(record.totals)} differ from the sum of the rounds {totals}"
            )
    return count
