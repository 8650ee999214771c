"""The registry of the platform's games, by name and by record format, with the table of
their parts (:mod:`.parts`)."""

from __future__ import annotations

from typing import Any

from rummikub.core.errors import RulesError
from rummikub.core.interface import Game
from rummikub.core.tiles_game import TILES
from rummikub.xpress.dice_game import XPRESS

from .parts import WHAT, GameParts, MissingPart, PartName, resolve

__all__ = [
    "ALIASES",
    "GAMES",
    "PARTS",
    "AnyGame",
    "game_for_format",
    "game_for_rules",
    "game_names",
    "game_part",
    "get_game",
    "parts_of",
    "register_game",
    "unregister_game",
]

AnyGame = Game[Any, Any, Any, Any]

#: the tile game's parts (:mod:`.parts`)
TILES_PARTS = GameParts(
    bots="rummikub.bots.registry:BOTS",
    hint="rummikub.bots.hints:tiles_hint",
    judge="rummikub.analysis.tiles:tile_turns",
    room="rummikub.server.rooms.games.tiles:TilesRoomGame",
    env="rummikub.envs.tiles:TilesSpec",
    web="tiles",
    describe="rummikub.cli.describe:describe_tiles",
    outside="rummikub.bots.protocol:OutsideBot",
    needs_solver=frozenset({"hint", "judge", "bots.greedy", "bots.strategic", "bots.expert"}),
)

#: the dice game's parts
XPRESS_PARTS = GameParts(
    bots="rummikub.bots.registry:XPRESS_BOTS",
    hint="rummikub.bots.hints:xpress_hint",
    judge="rummikub.analysis.xpress:xpress_turns",
    room="rummikub.server.rooms.games.xpress:XpressRoomGame",
    env="rummikub.envs.xpress:XpressSpec",
    web="xpress",
    describe="rummikub.cli.describe:describe_xpress",
)

#: the registered games by name, in the order they are offered
GAMES: dict[str, AnyGame] = {TILES.name: TILES, XPRESS.name: XPRESS}

#: the table of game parts: the parts of every registered game, by the game's name
PARTS: dict[str, GameParts] = {TILES.name: TILES_PARTS, XPRESS.name: XPRESS_PARTS}

#: older names still accepted (``rummikub --game rummikub`` before the platform had one name
#: per game)
ALIASES: dict[str, str] = {"rummikub": TILES.name}


def register_game(game: AnyGame, parts: GameParts | None = None) -> None:
    """Make ``game`` known by its name and its record formats, with its ``parts`` (none when
    not given; replaces a game of that name)."""
    GAMES[game.name] = game
    PARTS[game.name] = parts if parts is not None else GameParts()


def unregister_game(name: str) -> None:
    """Forget the game called ``name`` and its parts."""
    name = get_game(name).name
    del GAMES[name]
    PARTS.pop(name, None)


def parts_of(game: str | AnyGame) -> GameParts:
    """The table's row of ``game`` (a name as :func:`get_game` reads it, or a game)."""
    name = get_game(game).name if isinstance(game, str) else game.name
    return PARTS.get(name, GameParts())


def game_names(part: PartName | None = None) -> tuple[str, ...]:
    """The registered games' names in the order they are offered; with ``part``, only those of
    the games that have that part (the games with server rooms: ``game_names("room")``)."""
    if part is None:
        return tuple(GAMES)
    return tuple(name for name in GAMES if getattr(parts_of(name), part) is not None)


def game_part(game: str | AnyGame, part: PartName) -> object:
    """The ``part`` of ``game`` (a name as :func:`get_game` reads it, or a game), resolved
    (imported on first use); :class:`~.parts.MissingPart` when the game has none."""
    row = parts_of(game)
    reference = getattr(row, part)
    if reference is None:
        name = get_game(game).name if isinstance(game, str) else game.name
        raise MissingPart(f"{name} has no {WHAT[part]}", field="game")
    return resolve(reference)


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
