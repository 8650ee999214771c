"""The per-game parts of server rooms: ``room_game(name)`` makes the :class:`RoomGame` of a new
room of that game. A game's part is its ``room`` part in the table of game parts
(:mod:`rummikub.games.parts`): a game of :mod:`rummikub.games` gets server rooms by naming its
:class:`RoomGame` class there."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import cast

from rummikub.games import game_names, game_part, get_game

from .base import AnyMatch, RoomGame, RoomView, Turn

__all__ = [
    "ROOM_GAMES",
    "AnyMatch",
    "RoomGame",
    "RoomView",
    "Turn",
    "room_game",
    "room_game_names",
]


def room_game_names() -> tuple[str, ...]:
    """The registered games that have server rooms (a ``room`` part)."""
    return game_names("room")


def _factory(name: str) -> Callable[[], RoomGame]:
    factory = game_part(name, "room")
    if not callable(factory):
        raise TypeError(f"the room part of {name} is not callable: {factory!r}")
    return cast(Callable[[], RoomGame], factory)  # the part it makes is checked


def room_game(name: str) -> RoomGame:
    """A new part of the game called ``name`` (an unknown game raises
    :class:`~rummikub.core.RulesError`; a known one without rooms raises
    :class:`~rummikub.games.MissingPart`)."""
    part = _factory(get_game(name).name)()
    if not isinstance(part, RoomGame):
        raise TypeError(f"the room part of {name} made {part!r}, not a RoomGame")
    return part


class _RoomGames(Mapping[str, Callable[[], RoomGame]]):
    """The games that have rooms and their parts' factories: a read-only view of the table."""

    def __getitem__(self, name: str) -> Callable[[], RoomGame]:
        if name not in room_game_names():
            raise KeyError(name)
        return _factory(name)

    def __iter__(self) -> Iterator[str]:
        return iter(room_game_names())

    def __len__(self) -> int:
        return len(room_game_names())


#: the server part of every game that has rooms, by the game's name (read from the table)
ROOM_GAMES: Mapping[str, Callable[[], RoomGame]] = _RoomGames()
