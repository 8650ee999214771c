"""The per-game parts of server rooms, by game name: ``room_game(name)`` makes the
:class:`RoomGame` of a new room of that game. A game of :mod:`rummikub.games` gets server
rooms by registering its part here (:func:`register_room_game`)."""

from __future__ import annotations

from collections.abc import Callable

from rummikub.games import get_game

from .base import AnyMatch, RoomGame, RoomView, Turn
from .tiles import TilesRoomGame
from .xpress import XpressRoomGame

__all__ = [
    "ROOM_GAMES",
    "AnyMatch",
    "RoomGame",
    "RoomView",
    "Turn",
    "register_room_game",
    "room_game",
]

#: the server part of every game that has rooms, by the game's name
ROOM_GAMES: dict[str, Callable[[], RoomGame]] = {
    "tiles": TilesRoomGame,
    "xpress": XpressRoomGame,
}


def register_room_game(name: str, factory: Callable[[], RoomGame]) -> None:
    ROOM_GAMES[get_game(name).name] = factory


def room_game(name: str) -> RoomGame:
    """A new part of the game called ``name`` (an unknown game raises
    :class:`~rummikub.core.RulesError`; a known one without rooms raises :class:`KeyError`)."""
    return ROOM_GAMES[get_game(name).name]()
