"""What a room needs to know of its game beyond :class:`~rummikub.core.interface.Game`: the
:class:`RoomGame` protocol the per-game parts of the server implement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from rummikub.core.interface import GameMatch

__all__ = ["AnyMatch", "RoomGame", "RoomView", "Turn"]

AnyMatch = GameMatch[Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class Turn:
    """An action carried out in a room: as stored in the event log, as shown in the room's
    public log, and whether the rules refused it and penalised the player."""

    stored: dict[str, Any]
    entry: dict[str, Any]
    penalised: bool = False


class RoomView(Protocol):
    """What the part of a room sees of its room (:class:`~..room.Room` is one): its rules, its
    match, the turn it is in and the turns a hint was given in. The parts take this view, not
    the room, so that the room module imports its parts and never the other way round."""

    @property
    def rules(self) -> Any: ...

    @property
    def match(self) -> AnyMatch | None: ...

    @property
    def hinted(self) -> set[tuple[int, int]]:
        """The turns (:meth:`turn_key`) in which a hint was given."""
        ...

    @property
    def steps(self) -> int:
        """Actions taken in the current round."""
        ...

    @property
    def in_turn(self) -> bool:
        """Whether a turn is being played (a match started and its round not over)."""
        ...

    def turn_key(self) -> tuple[int, int]:
        """The round and the number of actions taken in it."""
        ...


@runtime_checkable
class RoomGame(Protocol):
    """The part of a room that differs from game to game: the JSON the clients get, the
    protocol messages that are moves, the stored action format, hints and table checks.

    One instance per room (it may keep what only its views need, like Xpress's last throw);
    :func:`rummikub.server.rooms.games.room_game` makes it from the game's name (the game's
    ``room`` part in the table of game parts, :mod:`rummikub.games.parts`)."""

    #: the protocol message types that are moves of this game
    moves: tuple[type[Any], ...]
    #: the game as refusals name it (``the tile game``)
    title: str
    #: the names of its moves (``play, draw or pass``)
    move_names: str
    #: the most seconds a bot thinks about one action
    bot_seconds: float
    #: what a meld is called in table checks (``meld``, ``set``)
    meld_word: str
    #: the keys of the public game view, in order (separated by spaces)
    view_order: str
    #: whether its rooms may be rated (a preset with a turn clock, bots with a rating): the
    #: games of quick match and ``rated`` rooms
    rated: bool

    # -- rules and seats -----------------------------------------------------------------
    def rules_from_message(self, spec: str | dict[str, Any]) -> Any:
        """The rules of a new room from a ``create`` message's ``rules``."""
        ...

    def check_players(self, rules: Any, count: int) -> None:
        """Refuse (raise) a room of ``count`` seats the rules do not allow."""
        ...

    def preset(self, rules: Any) -> str | None:
        """The rules' preset name, for the lobby."""
        ...

    # -- the match -------------------------------------------------------------------------
    def new_round(self, room: RoomView) -> None:
        """A round was just dealt (or the match started)."""
        ...

    def restored(self, room: RoomView) -> None:
        """The room's event log has just been replayed."""
        ...

    def act(self, room: RoomView, action: Any, *, ms: int | None, hint: bool) -> Turn:
        """Carry out ``action`` of the player to move on the room's match (raises
        :class:`~rummikub.core.IllegalPlayError`, changing nothing, when it is refused)."""
        ...

    def hint_counts(self, action: Any) -> bool:
        """Whether a hint asked for this turn is marked on ``action``."""
        ...

    def stored_action(self, data: dict[str, Any]) -> Any:
        """The action of an event stored by :meth:`act` (``Turn.stored``)."""
        ...

    def action_for(self, room: RoomView, msg: Any) -> Any:
        """The action of a move message (one of :attr:`moves`); raises
        :class:`~rummikub.core.RummikubError` when it does not make one."""
        ...

    # -- what clients see ------------------------------------------------------------------
    def room_fields(self) -> dict[str, Any]:
        """What the ``room`` part of the public view adds to code, status, rules..."""
        ...

    def game_view(self, room: RoomView) -> dict[str, Any]:
        """The game's own fields of the public game view (the room adds what every game has:
        round, turn, current, totals, clocks, results, log...)."""
        ...

    def seat_view(self, room: RoomView, seat: int) -> dict[str, Any]:
        """What the game view of the player at ``seat`` adds (his own rack)."""
        ...

    def result_fields(self, room: RoomView, end: Any) -> dict[str, Any]:
        """What the results of a finished round add to reason, winner and scores."""
        ...

    def meld_rules(self, room: RoomView) -> Any:
        """The rules melds are judged by."""
        ...

    def check_placement(
        self, room: RoomView, table_json: Sequence[Sequence[str]]
    ) -> dict[str, Any]:
        """Whether the player to move may put down this table (``{"ok": True}`` or a
        refusal)."""
        ...

    def hint(self, obs: Any) -> dict[str, Any]:
        """A hint for the player who sees ``obs`` (run off the event loop)."""
        ...
