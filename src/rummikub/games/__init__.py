"""The registry of the platform's games, and game records of any game.

Every game has one name, used everywhere (``rummikub --game NAME``, server rooms, the bot
registry): ``tiles`` for the tile game, ``xpress`` for the dice game. A record names its game
through its ``format``; :func:`load_any` reads a record of any registered game.

A new game implements :class:`rummikub.core.interface.Game` and calls :func:`register_game`;
everything written on the interface (bot matches, simulations, tournaments, replay and
verification, the conformance suite :mod:`rummikub.testing`) then works for it. Its parts in the
packages above this one (bots, hint, judge, server room, learning environment, web adapter) are
its row of the table of game parts, :class:`GameParts` (:mod:`.parts`).
"""

from __future__ import annotations

from .parts import GameParts, MissingPart
from .records import AnyRecord, iter_documents, load_any, read_any
from .registry import (
    ALIASES,
    GAMES,
    PARTS,
    AnyGame,
    game_for_format,
    game_for_rules,
    game_names,
    game_part,
    get_game,
    parts_of,
    register_game,
    unregister_game,
)

__all__ = [
    "ALIASES",
    "GAMES",
    "PARTS",
    "AnyGame",
    "AnyRecord",
    "GameParts",
    "MissingPart",
    "game_for_format",
    "game_for_rules",
    "game_names",
    "game_part",
    "get_game",
    "iter_documents",
    "load_any",
    "parts_of",
    "read_any",
    "register_game",
    "unregister_game",
]
