"""The game flow behind the terminal UI, without any Textual: who plays each seat, the bots,
the turn clock, hints, saving and resuming. The UI only draws what this gives it and forwards
the player's actions.

Everything a seat sees comes from :meth:`rummikub.core.Match.observation`; the session never
hands the UI another player's rack (round ends reveal the racks through the round's end).
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from rummikub.bots import BOTS, Bot, fallback_action, get_bot
from rummikub.core import (
    Action,
    Code,
    IllegalPlayError,
    Match,
    Observation,
    Play,
    PlayerInfo,
    Rules,
    RulesError,
    RummikubError,
    Table,
    Tile,
    Timeout,
    TurnLog,
    UsageError,
    load_match,
    match_record,
    parse_tile,
    read_record,
)
from rummikub.core.framing import read_json
from rummikub.core.jsonio import write_json_atomic
from rummikub.core.rules import MatchRules
from rummikub.core.tiles_game import TILES

__all__ = [
    "GameSetup",
    "HintUnavailable",
    "Seat",
    "Session",
    "autosave_path",
    "bot_levels",
    "build_rules",
    "data_dir",
]

Clock = Callable[[], float]


def bot_levels() -> list[str]:
    """The bot levels available, weakest first (the registry's order, which the bots'
    calibrated ratings measure; levels registered later follow)."""
    return list(BOTS)


def _rack_orders(record: object, players: int) -> dict[int, list[Tile]]:
    """The rack orders a record written by :meth:`Session.write` keeps (none when it has no
    ``"terminal"`` field; an order that does not read as tiles is dropped, as it only
    arranges the rack)."""
    kept = record.get("terminal") if isinstance(record, dict) else None
    orders = kept.get("rack_orders") if isinstance(kept, dict) else None
    out: dict[int, list[Tile]] = {}
    if not isinstance(orders, dict):
        return out
    for seat, tiles in orders.items():
        if not (str(seat).isdigit() and int(seat) < players and isinstance(tiles, list)):
            continue
        try:
            out[int(seat)] = [parse_tile(str(x)) for x in tiles]
        except RummikubError:
            continue
    return out


def data_dir() -> Path:
    """Where autosaves go: ``$XDG_DATA_HOME/rummikub`` (default ``~/.local/share/rummikub``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rummikub"


def autosave_path() -> Path:
    return data_dir() / "autosave.json"


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: a person (hot-seat) or a bot of a level."""

    name: str
    kind: Literal["human", "bot"] = "human"
    level: str | None = None

    def info(self) -> PlayerInfo:
        return PlayerInfo(self.name, self.kind, self.level if self.kind == "bot" else None)


def build_rules(
    preset_rules: Rules,
    *,
    turn_seconds: int | Literal["preset"] | None = "preset",
    joker_rule: str | None = None,
    opening_value: int | None = None,
    rounds: int | None = 1,
    target: int | None = None,
) -> Rules:
    """A preset changed field by field as the new-game screen offers (raises
    :class:`RulesError` naming the bad field)."""
    changes: dict[str, object] = {"match": MatchRules(rounds=rounds, target=target)}
    if turn_seconds != "preset":
        changes["turn_seconds"] = turn_seconds
    if joker_rule is not None:
        if joker_rule not in ("free", "strict"):
            raise RulesError(
                f"joker rule must be free or strict, not {joker_rule!r}", field="joker_rule"
            )
        changes["joker_rule"] = joker_rule
    if opening_value is not None:
        changes["opening_value"] = opening_value
    return preset_rules.replace(**changes)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything the new-game screen decides."""

    seats: tuple[Seat, ...]
    rules: Rules
    seed: int | None = None
    hints: bool = True

    def check(self) -> None:
        self.rules.check_players(len(self.seats))
        for s in self.seats:
            if not s.name.strip():
                raise RulesError("every player needs a name", field="players")
            if s.kind == "bot" and (s.level is None or s.level not in BOTS):
                raise RulesError(f"unknown bot level {s.level!r}", field="bot")


class HintUnavailable(RuntimeError):
    """The solver is not installed/available."""


@dataclass
class Session:
    """A match in progress with its seats, bots, clock and save files."""

    match: Match
    hints: bool = True
    save_path: Path | None = None
    autosave: Path | None = None
    clock: Clock = time.monotonic
    bot_seconds: float = 5.0
    bots: dict[int, Bot] = field(default_factory=dict)
    rack_orders: dict[int, list[Tile]] = field(default_factory=dict)
    hint_used: bool = False
    turn_started: float | None = None

    def __post_init__(self) -> None:
        for i, p in enumerate(self.match.players):
            if p.kind == "bot" and i not in self.bots:
                self.bots[i] = get_bot(p.bot or "beginner", seed=self.match.seed * 10 + i)

    # -- making sessions -----------------------------------------------------------------
    @classmethod
    def new(cls, setup: GameSetup, **kwargs: object) -> Session:
        setup.check()
        seed = setup.seed if setup.seed is not None else secrets.randbelow(10**9)
        match = Match(setup.rules, [s.info() for s in setup.seats], seed)
        return cls(match, hints=setup.hints, **kwargs)  # type: ignore[arg-type]

    @classmethod
    def resume(cls, path: Path, **kwargs: object) -> Session:
        """Load a saved game record (raises :class:`~rummikub.core.RecordError`), with the
        order each person gave his rack (the record's ``"terminal"`` field)."""
        match = load_match(read_record(path))
        session = cls(match, **kwargs)  # type: ignore[arg-type]
        session.rack_orders = _rack_orders(read_json(path), len(match.players))
        return session

    # -- state ---------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def players(self) -> tuple[PlayerInfo, ...]:
        return self.match.players

    @property
    def current(self) -> int:
        return self.match.state.current

    def is_human(self, seat: int) -> bool:
        return self.match.players[seat].kind == "human"

    @property
    def humans(self) -> list[int]:
        return [i for i in range(len(self.players)) if self.is_human(i)]

    def is_you(self, seat: int) -> bool:
        """Messages about ``seat`` speak to the player at the keyboard ("You drew a tile"):
        true for the only person in a game against bots."""
        humans = self.humans
        return len(humans) == 1 and humans[0] == seat

    @property
    def hot_seat(self) -> bool:
        """More than one person shares the screen: racks are hidden between turns."""
        return len(self.humans) > 1

    def viewer(self, *, turn_active: bool) -> int | None:
        """Whose rack the screen may show now: the only person; or, in hot-seat, the person
        whose turn is active (after the handover); ``None`` when no rack may be shown."""
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        if turn_active and self.is_human(self.current) and not self.match.round_over:
            return self.current
        return None

    def observation(self, seat: int) -> Observation:
        return self.match.observation(seat, self.time_left())

    # -- the clock -----------------------------------------------------------------------
    def start_turn(self) -> None:
        self.turn_started = self.clock()
        self.hint_used = False

    def elapsed(self) -> float:
        return 0.0 if self.turn_started is None else self.clock() - self.turn_started

    def time_left(self) -> float | None:
        limit = self.rules.turn_seconds
        if limit is None:
            return None
        return max(0.0, limit - self.elapsed())

    def timed_out(self) -> bool:
        left = self.time_left()
        return left is not None and self.turn_started is not None and left <= 0

    # -- acting --------------------------------------------------------------------------
    def submit(self, action: Action) -> TurnLog:
        """A person's action for the player to move; an illegal play raises
        :class:`IllegalPlayError` (under ``reject``) and changes nothing. Once the turn's time
        has run out the timeout wins: whatever was submitted, the turn is a ``timeout``."""
        ms = int(self.elapsed() * 1000)
        if self.timed_out() and not self.match.round_over:
            action = Timeout()
        hint = self.hint_used and isinstance(action, Play)
        log = self.match.act(action, ms=ms, hint=hint)
        self._after_turn()
        return log

    def bot_action(self, seat: int) -> tuple[Action, int]:
        """Ask the bot in ``seat`` for its action (call it off the UI thread)."""
        obs = self.match.observation(seat, self.rules.turn_seconds)
        limit = (
            self.bot_seconds
            if self.rules.turn_seconds is None
            else min(self.bot_seconds, float(self.rules.turn_seconds))
        )
        started = time.perf_counter()
        try:
            action = self.bots[seat].act(obs, limit)
        except Exception:  # a crashing bot loses its turn, as a timeout would
            action = Timeout()
        return action, int((time.perf_counter() - started) * 1000)

    def play_bot(self, seat: int, action: Action, ms: int) -> TurnLog:
        """Carry out a bot's action; an illegal play falls back to a draw (or pass)."""
        if self.current != seat or self.match.round_over:
            raise UsageError("it is not this bot's turn", code=Code.NOT_YOUR_TURN)
        try:
            log = self.match.act(action, ms=ms)
        except IllegalPlayError:
            log = self.match.act(fallback_action(self.match.observation(seat)), ms=ms)
        self._after_turn()
        return log

    def _after_turn(self) -> None:
        self.turn_started = None
        self.hint_used = False
        if self.autosave is not None:
            self.write(self.autosave)

    def next_round(self) -> None:
        self.match.next_round()
        self.rack_orders.clear()
        if self.autosave is not None:
            self.write(self.autosave)

    # -- hints ---------------------------------------------------------------------------
    def hint(self, seat: int) -> Table | None:
        """The hint for ``seat`` (:func:`rummikub.bots.hints.hint`: the best move by the
        evaluation, the one the analysis judges best) as the complete new table, or ``None``
        when the best move is to draw. Marks the turn as hinted. Raises
        :class:`HintUnavailable` if the solver cannot be used."""
        try:
            from rummikub.bots.hints import hint
        except ImportError as exc:  # pragma: no cover - the solver ships with the package
            raise HintUnavailable(str(exc)) from exc
        action = hint(TILES, self.match.observation(seat), self.bot_seconds)
        self.hint_used = True
        return action.table if isinstance(action, Play) else None

    def most_placeable(self, seat: int) -> int:
        """The most rack tiles ``seat`` could place now (:func:`rummikub.bots.hints.
        most_placeable`): a hint to draw while this is above 0 means keeping them is better.
        Raises :class:`HintUnavailable` if the solver cannot be used."""
        try:
            from rummikub.bots.hints import most_placeable
        except ImportError as exc:  # pragma: no cover - the solver ships with the package
            raise HintUnavailable(str(exc)) from exc
        return most_placeable(self.match.observation(seat), self.bot_seconds)

    def best_opening(self, seat: int) -> int:
        """What the most valuable new melds of ``seat``'s rack are worth (rack tiles only, as
        an opening is): how far the player is from the opening value when he cannot open.
        Raises :class:`HintUnavailable` if the solver cannot be used."""
        try:
            from rummikub.solver import solve
        except ImportError as exc:  # pragma: no cover - the solver ships with the package
            raise HintUnavailable(str(exc)) from exc
        rack = self.match.observation(seat).rack.tiles
        if not rack:
            return 0
        sol = solve(Table(), rack, opened=True, rules=self.rules, objective="value")
        return sol.value

    # -- files ---------------------------------------------------------------------------
    def write(self, path: Path) -> Path:
        """The game record, with the order each person gave his rack (``"terminal":
        {"rack_orders": {"0": ["K1", ...]}}``, which other readers ignore), so a resumed game
        shows the racks as they were."""
        path.parent.mkdir(parents=True, exist_ok=True)
        record = match_record(self.match)
        if self.rack_orders:
            orders = self.rack_orders.items()
            record["terminal"] = {"rack_orders": {str(s): [str(x) for x in o] for s, o in orders}}
        write_json_atomic(record, path)
        return path

    def save(self) -> Path:
        """Save to ``save_path`` (or the autosave file)."""
        return self.write(self.save_path or self.autosave or autosave_path())

    def remember_rack_order(self, seat: int, order: Sequence[Tile]) -> None:
        self.rack_orders[seat] = list(order)
