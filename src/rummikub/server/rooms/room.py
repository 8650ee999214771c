"""One room, whatever its game: its seats, settings and (once started) the match made by its
game (:class:`~rummikub.core.interface.Game`), the turn it is in, and the views sent to each
client. Synchronous and free of I/O; :mod:`..manager` adds clocks, bots, storage and
connections. What differs from game to game (the JSON of the views, the moves, the stored
actions) is the room's :class:`~.games.RoomGame`, chosen by the game's name.

Security: :meth:`Room.view` is the only place a game is turned into JSON for a client; the
public view holds what every player may see, and a seat's view adds only what its game shows
that player alone (in the tile game, his own rack, from ``match.observation(seat)``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from rummikub.bots.registry import bot_levels, get_bot
from rummikub.core import Code, IllegalPlayError, PlayerInfo
from rummikub.core.interface import Bot
from rummikub.games import AnyGame, game_for_rules

from .games import AnyMatch, RoomGame, room_game
from .games.melds import judge_melds, shown_meld, shown_table
from .games.tiles import play_from_table
from .seats import BotTask, Seat, Settings, Status, hash_token, new_code, new_token

__all__ = [
    "BotTask",
    "Room",
    "Seat",
    "Settings",
    "Status",
    "default_level",
    "hash_token",
    "new_code",
    "new_token",
    "play_from_table",
    "shown_meld",
    "shown_table",
]

#: the most entries of the public log a room keeps
LOG_KEEP = 200


def default_level(levels: Sequence[str]) -> str:
    """The bot level a seat or stand-in gets when none is named."""
    return next((b for b in ("beginner", "greedy") if b in levels), levels[0])


class Room:
    """A room: a code, rules, settings, seats held by tokens or bots and, once started, the
    match its game (``game``, by default the one ``rules`` belong to) made."""

    def __init__(
        self,
        code: str,
        rules: Any,
        settings: Settings,
        seed: int,
        seats: list[Seat],
        created_at: float,
        *,
        game: AnyGame | None = None,
    ) -> None:
        self.game: AnyGame = game or game_for_rules(rules)
        self.part: RoomGame = room_game(self.game.name)
        self.code = code
        self.rules = rules
        self.settings = settings
        self.seed = seed
        self.seats = seats
        self.created_at = created_at
        self.status: Status = "waiting"
        self.match: AnyMatch | None = None
        self.seq = 0
        self.turn_started: float | None = None
        self.finished_at: float | None = None
        #: the public log of actions (the last :data:`LOG_KEEP`)
        self.log: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        #: the turns (:meth:`turn_key`) in which a hint was given
        self.hinted: set[tuple[int, int]] = set()
        self.ready: set[int] = set()
        self.pause_until: float | None = None
        #: actions taken in the current round (the turn key; a bot moves once per action)
        self.steps = 0
        self.bots: dict[tuple[int, str], Bot[Any, Any]] = {}
        #: once the match is over: the seats whose players accepted a rematch, and the room
        #: of the rematch once it is made (:mod:`..handlers.rematch`; not stored)
        self.rematch: set[int] = set()
        self.rematch_room: str | None = None

    # -- seats ---------------------------------------------------------------------------
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

    def awaits(self, s: Seat) -> bool:
        """Whether the person of seat ``s`` has a grace period while he is away: a player of a
        game that started, or the host of a waiting room (then the host role passes on)."""
        return self.started or (self.status == "waiting" and s.seat == self.settings.host)

    def note(self, seat: int, action: str) -> None:
        """Put a line about a person of a game being played in the public log: ``left`` (he
        left the game: a bot plays for him), ``standin`` (he has been away longer than his
        grace period: a bot plays for him) or ``back``. Not stored: the lines of the turns
        are what a restart restores."""
        if self.match is None or self.status != "playing":
            return
        self.log.append({"round": len(self.match.rounds) - 1, "seat": seat, "action": action})
        del self.log[:-LOG_KEEP]

    def seat_label(self, s: Seat) -> str:
        if s.name:
            return s.name
        return f"{s.bot or 'bot'} {s.seat + 1}"

    # -- the match -----------------------------------------------------------------------
    def start(self) -> None:
        players = [PlayerInfo(self.seat_label(s), s.kind, s.bot) for s in self.seats]
        self.match = self.game.new_match(self.rules, players, self.seed)
        self.status = "playing"
        self._new_round()

    def _new_round(self) -> None:
        self.steps = 0
        self.part.new_round(self)

    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def in_turn(self) -> bool:
        return self.match is not None and not self.match.round_over

    @property
    def round_over(self) -> bool:
        return self.match is not None and self.match.round_over

    @property
    def match_over(self) -> bool:
        return self.match is not None and self.match.over

    def turn_key(self) -> tuple[int, int]:
        """The round and the number of actions taken in it: it changes with every action."""
        assert self.match is not None
        return (len(self.match.rounds) - 1, self.steps)

    def current_seat(self) -> Seat | None:
        if not self.in_turn:
            return None
        assert self.match is not None
        return self.seats[self.game.current(self.match.state)]

    def deadline(self) -> float | None:
        seconds = self.game.turn_seconds(self.rules)
        if not self.in_turn or seconds is None or self.turn_started is None:
            return None
        return self.turn_started + seconds

    def act(self, action: object, *, ms: int | None, hint: bool) -> tuple[dict[str, Any], bool]:
        """Carry out an action of the player to move (raises :class:`IllegalPlayError` and
        changes nothing if it is refused); returns the action as stored in the event log and
        whether the rules refused it and penalised the player."""
        if not self.game.is_action(action):
            raise IllegalPlayError(f"not a move of {self.part.title}", code=Code.WRONG_GAME)
        if self.match is None or self.match.round_over:
            raise IllegalPlayError("no turn is being played", code=Code.NOT_IN_TURN)
        turn = self.part.act(self, action, ms=ms, hint=hint)
        self.steps += 1
        self.log.append(turn.entry)
        del self.log[:-LOG_KEEP]
        if self.match.over:
            self.status = "finished"
        return turn.stored, turn.penalised

    def hint_used(self, action: object) -> bool:
        """Whether ``action`` is marked as played after a hint of this turn."""
        return self.part.hint_counts(action) and self.turn_key() in self.hinted

    def stored_action(self, data: dict[str, Any]) -> object:
        return self.part.stored_action(data)

    def action_for(self, msg: object) -> object:
        """The action of a move message of this room's game (:meth:`accepts`)."""
        return self.part.action_for(self, msg)

    def accepts(self, msg: object) -> bool:
        """Whether ``msg`` is a move of this room's game."""
        return isinstance(msg, self.part.moves)

    def wrong_game(self) -> str:
        """Why a move of another game is refused."""
        return f"this room plays {self.part.title}: {self.part.move_names}"

    def timeout_action(self) -> object:
        """What the rules do when the player to move runs out of time."""
        assert self.match is not None
        obs = self.match.observation(self.game.current(self.match.state))
        return self.game.timeout_action(obs)

    def restored(self) -> None:
        """Called once the event log has been replayed after a restart."""
        if self.match is not None:
            self.part.restored(self)

    def next_round(self) -> None:
        assert self.match is not None
        self.match.next_round()
        self.ready.clear()
        self.pause_until = None
        self._new_round()

    # -- results and records -------------------------------------------------------------
    def rules_json(self) -> dict[str, Any]:
        return self.game.rules_to_json(self.rules)

    def round_result(self) -> dict[str, Any] | None:
        """The end of the round just finished, as stored in ``results``."""
        if self.match is None or not self.match.rounds or self.match.rounds[-1].end is None:
            return None
        return self._result(len(self.match.rounds) - 1, self.match.rounds[-1].end)

    @staticmethod
    def _result(index: int, end: Any) -> dict[str, Any]:
        return {
            "round": index,
            "reason": end.reason,
            "winner": end.winner,
            "scores": list(end.scores),
        }

    def results(self) -> list[dict[str, Any]]:
        """Every finished round: how it ended, with what the game shows of it."""
        if self.match is None:
            return []
        return [
            {**self._result(i, r.end), **self.part.result_fields(self, r.end)}
            for i, r in enumerate(self.match.rounds)
            if r.end is not None
        ]

    def record(self) -> dict[str, Any]:
        assert self.match is not None
        return self.game.match_record(self.match)

    def lobby_info(self) -> dict[str, Any]:
        return {"game": self.game.name, "preset": self.part.preset(self.rules)}

    # -- bots and hints ------------------------------------------------------------------
    def bot_task(self, seat: Seat, level: str, deadline: float | None, now: float) -> BotTask:
        """The next action of the bot playing ``seat``, from that player's observation only
        (a level the game does not have plays as its default level), to be thought over for
        at most the game's bot budget and never past ``deadline`` (a :func:`time.time`; it
        is ``now``)."""
        assert self.match is not None
        levels = bot_levels(self.game.name)
        if level not in levels:
            level = default_level(levels)
        key = (seat.seat, level)
        if key not in self.bots:
            self.bots[key] = get_bot(level, seed=self.seed * 10 + seat.seat, game=self.game.name)
        bot = self.bots[key]
        time_left = None if deadline is None else max(0.0, deadline - now)
        obs = self.match.observation(seat.seat, time_left)
        game = self.game

        def keep(moved: Any) -> None:
            self.bots[key] = moved

        return BotTask(
            bot.name,
            bot,
            obs,
            self.part.bot_seconds,
            deadline,
            keep,
            lambda: game.fallback_action(obs),
        )

    def hint_obs(self, seat: int) -> Any:
        """What the hint for ``seat`` is computed from: that player's observation only."""
        assert self.match is not None
        return self.match.observation(seat)

    # -- views ---------------------------------------------------------------------------
    def public_view(self, now: float) -> dict[str, Any]:
        """Everything every client of the room may see (no player's hidden pieces)."""
        room: dict[str, Any] = {
            "code": self.code,
            **self.part.room_fields(),
            "status": self.status,
            "rules": self.rules_json(),
            "settings": self.settings.shown(),
            "seats": [s.public() for s in self.seats],
        }
        if self.match_over:
            room["rematch"] = {"accepted": sorted(self.rematch), "room": self.rematch_room}
        view: dict[str, Any] = {"type": "state", "seq": self.seq, "room": room, "game": None}
        m = self.match
        if m is None:
            return view
        deadline = self.deadline()
        shared: dict[str, Any] = {
            "round": len(m.rounds) - 1,
            "turn": self.game.turn(m.state),
            "current": self.game.current(m.state),
            "totals": list(m.totals),
            "round_over": m.round_over,
            "match_over": m.over,
            "winners": m.winners if m.over else [],
            "time_left": None if deadline is None else max(0.0, round(deadline - now, 2)),
            "results": self.results(),
            "log": self.log[-40:],
            "pause_left": (
                None if self.pause_until is None else max(0.0, round(self.pause_until - now, 2))
            ),
            "ready": sorted(self.ready),
            **self.part.game_view(self),
        }
        order = self.part.view_order.split()
        view["game"] = {k: shared.pop(k) for k in order if k in shared} | shared
        return view

    def view(self, public: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The state message for one client: the public view plus, for a seated player,
        what his game shows him alone."""
        out = dict(public)
        out["you"] = seat
        if seat is not None and self.match is not None and public["game"] is not None:
            own = self.part.seat_view(self, seat)
            if own:
                out["game"] = {**public["game"], **own}
        return out

    def check_table(self, seat: int, table_json: Sequence[Sequence[str]]) -> dict[str, Any]:
        """Judge each meld of a table a player is building and, when it is his turn, the
        table as his move."""
        melds = judge_melds(table_json, self.part.meld_rules(self), self.part.meld_word)
        out: dict[str, Any] = {"type": "checked", "melds": melds}
        if self.match is not None and self.in_turn and self.game.current(self.match.state) == seat:
            out["play"] = self.part.check_placement(self, table_json)
        return out
