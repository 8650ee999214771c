"""One room: its seats, its match (on top of :class:`rummikub.core.Match`) and the views sent
to each client. Synchronous and free of I/O; :mod:`.manager` adds clocks, bots, storage and
connections.

Security: :meth:`Room.view` is the only place a game is turned into JSON for a client, and the
only rack it ever includes is the viewer's own (from ``match.observation(seat)``).
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from rummikub.bots import Bot, fallback_action, get_bot
from rummikub.core import (
    Action,
    Code,
    Draw,
    IllegalPlayError,
    Match,
    Meld,
    NotationError,
    Pass,
    Play,
    PlayerInfo,
    Rules,
    Table,
    Timeout,
    TurnLog,
    check_play,
    match_record,
    parse_tile,
    rack_value,
    read_meld,
)
from rummikub.core.tiles import format_tiles

from .codes import refusal
from .hints import compute_hint

__all__ = [
    "BotTask",
    "Room",
    "Seat",
    "SeatedRoom",
    "Settings",
    "action_from_json",
    "action_to_json",
    "hash_token",
    "new_code",
    "new_token",
    "play_from_table",
    "shown_meld",
    "shown_table",
]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
Status = Literal["waiting", "playing", "finished", "abandoned"]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class Settings:
    hints: bool = True
    grace_seconds: float = 30.0
    public: bool = True
    bot_delay: float = 1.0
    round_pause: float = 20.0
    standin: str = "beginner"
    #: the seat that may start the game early (the creator's, until he leaves a waiting room)
    host: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "hints": self.hints,
            "grace_seconds": self.grace_seconds,
            "public": self.public,
            "bot_delay": self.bot_delay,
            "round_pause": self.round_pause,
            "standin": self.standin,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass(slots=True)
class Seat:
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    # runtime only
    connections: int = 0
    standin: bool = False
    disconnected_at: float | None = None
    #: who holds the seat (a browser's id or an address), for the one-seat-per-person rule
    person: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def bot_controlled(self) -> bool:
        return self.kind == "bot" or self.standin

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "name": self.name,
            "taken": self.taken,
            "connected": self.connections > 0,
            "standin": self.standin,
        }


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {
            "action": "play",
            "tiles": [str(t) for t in action.tiles],
            "table": action.table.to_json(),
        }
    if isinstance(action, Draw):
        return {"action": "draw"}
    if isinstance(action, Pass):
        return {"action": "pass"}
    return {"action": "timeout"}


def action_from_json(d: dict[str, Any]) -> Action:
    kind = d.get("action")
    if kind == "play":
        return Play(tuple(parse_tile(t) for t in d["tiles"]), Table.from_json(d["table"]))
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "timeout":
        return Timeout()
    raise NotationError(f"unknown stored action {kind!r}")


def shown_meld(meld: Meld, rules: Rules) -> list[str]:
    """A meld as the client shows it: canonical order, every joker with the tile it stands for
    (``J=R6`` in a run, ``J=7`` in a group)."""
    try:
        return read_meld(meld, rules).labels()
    except IllegalPlayError:
        return meld.to_json()


def shown_table(table: Table, rules: Rules) -> list[list[str]]:
    return [shown_meld(m, rules) for m in table.melds]


def play_from_table(
    old: Table, table_json: Sequence[Sequence[str]], tiles: Sequence[str] | None
) -> Play:
    """A :class:`Play` from the complete new table sent by a client; the placed rack tiles are
    the new table minus the old one unless the client lists them."""
    new = Table.from_json([list(m) for m in table_json])
    if tiles is not None:
        placed = tuple(parse_tile(t, position=i) for i, t in enumerate(tiles))
    else:
        placed = tuple((new.counts() - old.counts()).elements())
    return Play(placed, new)


@dataclass(frozen=True, slots=True)
class BotTask:
    """A bot's next move, prepared under the room lock: ``run`` computes the action (in a
    worker thread), ``fallback`` is an action that is always legal in that position."""

    name: str
    run: Callable[[], object]
    fallback: Callable[[], object]


class SeatedRoom:
    """What every kind of room shares: a code and seats held by tokens or bots. The game
    itself (:class:`Room` for the tile game, ``XpressRoom`` for the dice game) adds the match
    and the hooks the room manager calls."""

    game: ClassVar[str] = "tiles"
    code: str
    seats: list[Seat]

    def seat_by_token(self, token: str) -> Seat | None:
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s
        return None

    def free_seat(self, wanted: int | None = None) -> Seat | None:
        for s in self.seats:
            if s.kind == "human" and not s.taken and (wanted is None or s.seat == wanted):
                return s
        return None

    @property
    def all_taken(self) -> bool:
        return all(s.taken for s in self.seats)

    def seat_label(self, s: Seat) -> str:
        if s.name:
            return s.name
        return f"{s.bot or 'bot'} {s.seat + 1}"


@dataclass
class Room(SeatedRoom):
    """A room of the tile game: rules, settings, seats and (once started) the match."""

    code: str
    rules: Rules
    settings: Settings
    seed: int
    seats: list[Seat]
    created_at: float
    status: Status = "waiting"
    match: Match | None = None
    seq: int = 0
    turn_started: float | None = None
    finished_at: float | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    hinted: set[tuple[int, int]] = field(default_factory=set)
    ready: set[int] = field(default_factory=set)
    pause_until: float | None = None
    bots: dict[tuple[int, str], Bot] = field(default_factory=dict, repr=False)

    # -- the match -------------------------------------------------------------------
    def start(self) -> None:
        players = [PlayerInfo(self.seat_label(s), s.kind, s.bot) for s in self.seats]
        self.match = Match(self.rules, players, self.seed)
        self.status = "playing"

    @property
    def started(self) -> bool:
        return self.match is not None

    def turn_key(self) -> tuple[int, int]:
        assert self.match is not None
        return (len(self.match.rounds) - 1, self.match.state.turn)

    @property
    def in_turn(self) -> bool:
        return self.match is not None and not self.match.round_over

    def current_seat(self) -> Seat | None:
        if not self.in_turn:
            return None
        assert self.match is not None
        return self.seats[self.match.state.current]

    def deadline(self) -> float | None:
        if not self.in_turn or self.rules.turn_seconds is None or self.turn_started is None:
            return None
        return self.turn_started + self.rules.turn_seconds

    def apply(self, action: Action, *, ms: int | None = None, hint: bool = False) -> TurnLog:
        """Carry out an action for the player to move (raises :class:`IllegalPlayError` and
        changes nothing if it is refused)."""
        if self.match is None or self.match.round_over:
            raise IllegalPlayError("no turn is being played", code=Code.NOT_IN_TURN)
        log = self.match.act(action, ms=ms, hint=hint)
        self.log.append(self._public_turn(log))
        if len(self.log) > 200:
            del self.log[:-200]
        if self.match.over:
            self.status = "finished"
        return log

    def next_round(self) -> None:
        assert self.match is not None
        self.match.next_round()
        self.ready.clear()
        self.pause_until = None

    # -- hooks the room manager calls (the same on every kind of room) ---------------------
    @property
    def round_over(self) -> bool:
        return self.match is not None and self.match.round_over

    @property
    def match_over(self) -> bool:
        return self.match is not None and self.match.over

    def rules_json(self) -> dict[str, Any]:
        return self.rules.to_dict()

    def act(self, action: object, *, ms: int | None, hint: bool) -> tuple[dict[str, Any], bool]:
        """Apply an action (raises :class:`IllegalPlayError`, changing nothing, if refused);
        returns the action as stored in the event log and whether the turn clock restarts."""
        if not isinstance(action, Play | Draw | Pass | Timeout):
            raise IllegalPlayError("not a move of the tile game", code=Code.WRONG_GAME)
        log = self.apply(action, ms=ms, hint=hint)
        return action_to_json(action), log.action == "invalid"

    def stored_action(self, data: dict[str, Any]) -> Action:
        return action_from_json(data)

    def restored(self) -> None:
        """Called once the event log has been replayed after a restart."""

    def round_result(self) -> dict[str, Any] | None:
        """The end of the round just finished, as stored in ``results``."""
        if self.match is None or not self.match.rounds or self.match.rounds[-1].end is None:
            return None
        end = self.match.rounds[-1].end
        return {
            "round": len(self.match.rounds) - 1,
            "reason": end.reason,
            "winner": end.winner,
            "scores": list(end.scores),
        }

    def record(self) -> dict[str, Any]:
        assert self.match is not None
        return match_record(self.match)

    def lobby_info(self) -> dict[str, Any]:
        return {"game": self.game, "preset": self.rules.preset}

    def bot_task(self, seat: Seat, level: str, time_left: float | None) -> BotTask:
        """The move of the bot playing ``seat`` from the player's observation only."""
        assert self.match is not None
        key = (seat.seat, level)
        if key not in self.bots:
            self.bots[key] = get_bot(level, seed=self.seed * 10 + seat.seat)
        bot = self.bots[key]
        obs = self.match.observation(seat.seat, time_left)
        limit = 5.0 if time_left is None else min(5.0, time_left)
        return BotTask(bot.name, lambda: bot.act(obs, limit), lambda: fallback_action(obs))

    def hint_task(self, seat: int) -> Callable[[], dict[str, Any]]:
        assert self.match is not None
        obs = self.match.observation(seat)
        return lambda: compute_hint(obs)

    def _public_turn(self, log: TurnLog) -> dict[str, Any]:
        assert self.match is not None
        out: dict[str, Any] = {
            "round": len(self.match.rounds) - 1,
            "seat": log.player,
            "action": log.action,
        }
        if log.action == "play":
            out["tiles"] = [str(t) for t in log.play]
        if log.action in ("timeout", "invalid"):
            out["penalty"] = len(log.penalty)
        if log.hint:
            out["hint"] = True
        return out

    def results(self) -> list[dict[str, Any]]:
        if self.match is None:
            return []
        out = []
        for i, r in enumerate(self.match.rounds):
            if r.end is None:
                continue
            out.append(
                {
                    "round": i,
                    "reason": r.end.reason,
                    "winner": r.end.winner,
                    "scores": list(r.end.scores),
                    "left": [rack_value(rk, self.rules) for rk in r.end.racks],
                    "racks": [rk.to_json() for rk in r.end.racks],
                }
            )
        return out

    # -- views -------------------------------------------------------------------------
    def public_view(self, now: float) -> dict[str, Any]:
        """Everything every client of the room may see (no rack of anyone)."""
        room: dict[str, Any] = {
            "code": self.code,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "settings": self.settings.to_dict(),
            "seats": [s.public() for s in self.seats],
        }
        view: dict[str, Any] = {"type": "state", "seq": self.seq, "room": room, "game": None}
        if self.match is None:
            return view
        obs = self.match.observation(0)
        deadline = self.deadline()
        m = self.match
        game: dict[str, Any] = {
            "round": obs.round,
            "turn": obs.turn,
            "current": obs.current,
            "table": shown_table(obs.table, self.rules),
            "rack_sizes": list(obs.rack_sizes),
            "pool_size": obs.pool_size,
            "opened": list(obs.opened),
            "passes": obs.passes,
            "totals": list(m.totals),
            "round_over": m.round_over,
            "match_over": m.over,
            "time_left": None if deadline is None else max(0.0, round(deadline - now, 2)),
            "turn_seconds": self.rules.turn_seconds,
            "results": self.results(),
            "log": self.log[-40:],
            "winners": m.winners if m.over else [],
            "pause_left": (
                None if self.pause_until is None else max(0.0, round(self.pause_until - now, 2))
            ),
            "ready": sorted(self.ready),
        }
        view["game"] = game
        return view

    def view(self, public: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The state message for one client: the public view plus, for a seated player, his
        own rack (from his observation) and whether a hint was used this turn."""
        out = dict(public)
        out["you"] = seat
        if seat is not None and self.match is not None and public["game"] is not None:
            game = dict(public["game"])
            game["rack"] = self.match.observation(seat).rack.to_json()
            game["hinted"] = self.in_turn and self.turn_key() in self.hinted
            out["game"] = game
        return out

    def check_table(self, seat: int, table_json: Sequence[Sequence[str]]) -> dict[str, Any]:
        """Judge each meld of a table a player is building, and the play as a whole when it
        is his turn."""
        melds: list[dict[str, Any]] = []
        for i, m in enumerate(table_json):
            try:
                meld = Meld.from_json(list(m), where=f"meld {i + 1}")
                reading = read_meld(meld, self.rules)
                melds.append(
                    {
                        "ok": True,
                        "value": reading.value,
                        "kind": reading.kind,
                        "meld": shown_meld(meld, self.rules),
                    }
                )
            except (IllegalPlayError, NotationError) as exc:
                melds.append(refusal(exc, reason=str(exc)))
        out: dict[str, Any] = {"type": "checked", "melds": melds}
        if self.match is not None and self.in_turn and self.match.state.current == seat:
            state = self.match.state
            try:
                play = play_from_table(state.table, table_json, None)
                left = Counter(state.table.counts()) - play.table.counts()
                err = (
                    check_play(state, play)
                    if not left
                    else IllegalPlayError(
                        "table tiles never go back to a rack",
                        code=Code.TABLE_TILE_MISSING,
                        params={"tiles": format_tiles(sorted(left.elements()))},
                    )
                )
                out["play"] = (
                    {"ok": True} if err is None else refusal(err, reason=err.code, message=str(err))
                )
            except (IllegalPlayError, NotationError) as exc:
                out["play"] = refusal(exc, reason=Code.BAD_NOTATION, message=str(exc))
        return out
