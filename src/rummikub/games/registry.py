"""The registry of the platform's games, by name and by record format."""

from __future__ import annotations

from typing import Any

from rummikub.core.errors import RulesError
from rummikub.core.interface import Game
from rummikub.core.tiles_game import TILES
from rummikub.xpress.dice_game import XPRESS

__all__ = [
    "ALIASES",
    "GAMES",
    "AnyGame",
    "game_for_format",
    "game_for_rules",
    "game_names",
    "get_game",
    "register_game",
]

AnyGame = Game[Any, Any, Any, Any]

#: the registered games by name, in the order they are offered
GAMES: dict[str, AnyGame] = {TILES.name: TILES, XPRESS.name: XPRESS}

#: older names still accepted (``rummikub --game rummikub`` before the platform had one name
#: per game)
ALIASES: dict[str, str] = {"rummikub": TILES.name}


def register_game(game: AnyGame) -> None:
    """Make ``game`` known by its name and its record formats (replaces a game of that name)."""
    GAMES[game.name] = game


def game_names() -> tuple[str, ...]:
    return tuple(GAMES)


def get_game(name: str) -> AnyGame:
    """The game called ``name`` (``tiles``, ``xpress``...); an unknown name raises
    :class:`RulesError` listing the games."""
    game = GAMES.get(ALIASES.get(name, name))
    if game is None:
        raise RulesError(f"unknown game {name!r} (games: {', '.join(GAMES)})", field="game")
    return game


def game_for_rules(rules: object) -> AnyGame:
    """The game whose rules type ``rules`` has (a :class:`~rummikub.core.Rules` belongs to the
    tile game, an :class:`~rummikub.xpress.XpressRules` to Xpress)."""
    for game in GAMES.values():
        if any(type(rules) is type(r) for r in game.presets().values()):
            return game
    raise RulesError(f"no registered game has rules of type {type(rules).__name__}")


def game_for_format(fmt: object) -> AnyGame | None:
    """The game whose records have ``format`` ``fmt``, or ``None``."""
    for game in GAMES.values():
        if fmt in game.record_formats:
            return game
    return None
