"""The one game interface: what every game of the platform provides.

The tile game (:data:`rummikub.core.tiles_game.TILES`) and the dice game Xpress
(:data:`rummikub.xpress.dice_game.XPRESS`) both implement :class:`Game`; everything that runs a
game — the bot match runner and its logs, simulations, tournaments, records, replay and
verification, the conformance suite — is written once against it. A game has four parts, in
the spirit of OpenSpiel's games and pgx's ``Env``:

- **rules**: an immutable rules object with named presets and a JSON codec;
- **the pure layer**: a round state, whose turn it is, ``check`` and ``apply`` an action
  (no I/O, no clock, no randomness), the observation of one player, and the end of a round;
- **the match**: :meth:`Game.new_match` deals rounds from a seed and logs every chance event
  (a shuffled pool, a thrown die) in the match's rounds, so its record replays without a
  generator;
- **the record**: the game's JSON record format (``format`` names it), read, written, replayed
  and verified.

A player's hidden information goes out only through :meth:`Game.observe`; the conformance suite
(:mod:`rummikub.testing`) checks that it does, with :meth:`Game.redeal_hidden`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from .errors import IllegalPlayError

__all__ = [
    "Bot",
    "Game",
    "GameMatch",
    "GameRecordOf",
    "PlayerInfo",
    "ReplayStepOf",
    "RoundResult",
]

R = TypeVar("R")  # rules
S = TypeVar("S")  # round state
A = TypeVar("A")  # action
Ob = TypeVar("Ob")  # observation
A_contra = TypeVar("A_contra", contravariant=True)
O_contra = TypeVar("O_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)
O_co = TypeVar("O_co", covariant=True)
S_co = TypeVar("S_co", covariant=True)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A seat of a match: the player's name, and the bot level that plays it (if a bot)."""

    name: str
    kind: Literal["human", "bot"] = "human"
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended, in the terms every game shares: the reason (``out``, ``exhausted``,
    ``blocked``, ``abandoned``...), the winner (``None``: nobody) and the round's scores."""

    reason: str
    winner: int | None
    scores: tuple[int, ...]


@runtime_checkable
class Bot(Protocol[O_contra, A_co]):
    """A bot of any game: a name and ``act``. ``act`` sees one player's observation and answers
    one action within ``time_limit`` seconds (``None``: no limit); it must not mutate the
    observation. Bots may also have ``start_game(rules, seat, players)``,
    ``end_game(totals, winners)`` and ``close()``; the runners call them when present."""

    name: str

    def act(self, obs: O_contra, time_limit: float | None = None) -> A_co: ...


class ReplayStepOf(Protocol[S_co]):
    """One replayed step of a record: its round, its turn (index in the round), and the round
    states before and after it."""

    @property
    def round(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def before(self) -> S_co: ...
    @property
    def after(self) -> S_co: ...


class GameRecordOf(Protocol):
    """A parsed game record of any game: its players, seed, rounds and recorded totals."""

    @property
    def players(self) -> Sequence[PlayerInfo]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def rounds(self) -> Sequence[Any]: ...
    @property
    def totals(self) -> tuple[int, ...] | None: ...


class GameMatch(Protocol[R, S, A_contra, O_co]):
    """A match in progress: rounds dealt from ``seed``, driven by the caller's actions.

    ``act`` carries out an action of the player to move (``current``) and logs it; an illegal
    action raises :class:`IllegalPlayError` and changes nothing (unless the rules turn it into
    a penalty, which is then logged). ``rounds`` is the log: every round's chance events, its
    actions and its end."""

    rules: R
    players: tuple[PlayerInfo, ...]
    seed: int
    state: S
    totals: tuple[int, ...]

    @property
    def rounds(self) -> Sequence[Any]: ...
    @property
    def round_over(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def winners(self) -> list[int]: ...
    def observation(self, player: int, time_left: float | None = None) -> O_co: ...
    def act(self, action: A_contra, *, ms: int | None = None) -> object: ...
    def next_round(self) -> S: ...
    def abandon(self) -> None: ...


class Game(Protocol[R, S, A, Ob]):
    """A game of the platform. One instance per game, registered by :attr:`name`."""

    @property
    def name(self) -> str:
        """The game's one name everywhere: CLI (``--game``), server rooms, the registry."""
        ...

    @property
    def record_format(self) -> str:
        """The ``format`` of its records (``rummikub-game/1``, ``rummikub-xpress/1``)."""
        ...

    @property
    def record_formats(self) -> tuple[str, ...]:
        """Every ``format`` this game's record reader accepts (the current one first)."""
        ...

    # -- rules --------------------------------------------------------------------------
    def presets(self) -> Mapping[str, R]:
        """The named rule sets; the first is the default."""
        ...

    def rules_from_json(self, data: Any, *, stored: bool = False) -> R:
        """Rules from a (possibly partial) JSON object; ``stored``: read from a record, where
        a missing newer option takes the behaviour of the time the record was written."""
        ...

    def rules_to_json(self, rules: R) -> dict[str, Any]: ...

    def player_counts(self, rules: R) -> range:
        """How many players a match under ``rules`` may have."""
        ...

    def turn_seconds(self, rules: R) -> float | None:
        """The time a player has for a turn under ``rules`` (``None``: no limit)."""
        ...

    # -- the match ----------------------------------------------------------------------
    def new_match(
        self, rules: R, players: Sequence[PlayerInfo | str], seed: int
    ) -> GameMatch[R, S, A, Ob]:
        """A match with its first round dealt from ``seed``."""
        ...

    # -- the pure layer -------------------------------------------------------------------
    def current(self, state: S) -> int:
        """The seat to move."""
        ...

    def turn(self, state: S) -> int:
        """How many turns of the round have been played (a runner stops a runaway round)."""
        ...

    def check(self, state: S, action: A) -> IllegalPlayError | None:
        """Why ``action`` is illegal for the player to move, or ``None``. Pure. An action whose
        chance outcome is not known yet (an Xpress throw before the dice land) is checked as
        the choice it is."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The state after a legal ``action`` (raises :class:`IllegalPlayError` otherwise).
        Pure: ``state`` is immutable and nothing else is read or written."""
        ...

    def result(self, state: S) -> RoundResult | None:
        """How the round ended, or ``None`` while it runs."""
        ...

    def observe(self, state: S, player: int) -> Ob:
        """What ``player`` may know of ``state``: never another player's hidden pieces."""
        ...

    def observation_to_json(self, obs: Ob) -> dict[str, Any]: ...

    def redeal_hidden(self, state: S, player: int, rng: random.Random) -> S:
        """``state`` with everything ``player`` cannot see shuffled anew (other players'
        pieces, the pool), consistent with what he sees. The observation of ``player`` must not
        change; search bots use it to sample the unknown."""
        ...

    # -- actions --------------------------------------------------------------------------
    def is_action(self, value: object) -> bool:
        """Whether ``value`` is an action of this game (a bot's answer is checked with it)."""
        ...

    def action_to_json(self, action: A) -> dict[str, Any]: ...

    def action_from_json(self, data: Any) -> A: ...

    def fallback_action(self, obs: Ob) -> A:
        """An action that is always legal for the player to move (a runner plays it for a bot
        whose answer was refused)."""
        ...

    def timeout_action(self, obs: Ob) -> A:
        """What the rules do when a player's time runs out."""
        ...

    def is_timeout(self, action: A) -> bool:
        """Whether ``action`` is a player giving up his turn as timed out (a bot that answers
        it is reported as having run out of time)."""
        ...

    # -- scoring ------------------------------------------------------------------------
    def zero_sum(self, rules: R) -> bool:
        """Whether every round's scores add up to zero under ``rules``."""
        ...

    # -- records --------------------------------------------------------------------------
    def match_record(self, match: GameMatch[R, S, A, Ob]) -> dict[str, Any]:
        """The JSON record of a match, finished or running."""
        ...

    def load_record(self, data: Any) -> GameRecordOf:
        """Parse a decoded record; problems raise :class:`RecordError` naming them."""
        ...

    def replay(self, record: GameRecordOf) -> Iterator[ReplayStepOf[S]]:
        """Every step of the record with the states around it; raises :class:`RecordError`
        at the first step that breaks the rules."""
        ...

    def verify(self, record: GameRecordOf) -> int:
        """Re-check every step, every round's end and the totals; the number of steps."""
        ...

    def resume(self, record: GameRecordOf) -> GameMatch[R, S, A, Ob]:
        """The match of a record, ready to go on (its chance events continue as they
        would have)."""
        ...
