"""Named bot levels, per game: each game's levels are its ``bots`` part in the table of game
parts (:mod:`rummikub.games.parts`); the two games' levels are defined here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummikub.core import RulesError
from rummikub.core.interface import Bot as AnyGameBot
from rummikub.games import AnyGame, game_part
from rummikub.xpress import BOTS as XPRESS_LEVELS

from .beginner import BeginnerBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .random import RandomBot
from .strategic import StrategicBot

__all__ = [
    "BOTS",
    "XPRESS_BOTS",
    "BotFactory",
    "bot_levels",
    "get_bot",
    "levels_of",
    "register_bot",
]

BotFactory = Callable[[int | None], AnyGameBot[Any, Any]]

#: the tile game's levels, weakest first as paired tournaments measure them (docs/bots.md,
#: "The ladder"): ``beginner`` (new melds from its rack, single tiles at the ends of table
#: melds) beats ``random`` (a uniform pick among drawing and single simple plays) about 7 games
#: in 10, and ``greedy`` beats ``beginner`` nearly always
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "greedy": GreedyBot,
    "strategic": StrategicBot,
    "expert": ExpertBot,
}


def _seeded(factory: Callable[[int], AnyGameBot[Any, Any]]) -> BotFactory:
    return lambda seed: factory(seed or 0)


#: the dice game's levels, weakest first
XPRESS_BOTS: dict[str, BotFactory] = {name: _seeded(f) for name, f in XPRESS_LEVELS.items()}


def levels_of(game: str | AnyGame) -> dict[str, BotFactory]:
    """The levels of ``game`` (its ``bots`` part), weakest first: ``{level: factory(seed)}``;
    :class:`~rummikub.games.MissingPart` when the game has no bots."""
    levels = game_part(game, "bots")
    if not isinstance(levels, dict):
        raise TypeError(f"the bots part of {game} is not a dict of levels: {levels!r}")
    return levels


def register_bot(name: str, factory: BotFactory, *, game: str = "tiles") -> None:
    """Add the level ``name`` to the levels of ``game`` (its ``bots`` part): a new bot, or one
    replaced, for ``get_bot(name, game=game)``."""
    levels_of(game)[name] = factory


def bot_levels(game: str = "tiles") -> tuple[str, ...]:
    """The bot levels of ``game``, weakest first."""
    return tuple(levels_of(game))


def get_bot(name: str, seed: int | None = None, *, game: str = "tiles") -> Any:
    """A new bot of the named level of ``game`` (tiles: ``random``, ``beginner``, ``greedy``,
    ``strategic``, ``expert``; xpress: ``random``, ``greedy``, ``expert``)."""
    levels = levels_of(game)
    try:
        factory = levels[name]
    except KeyError:
        raise RulesError(
            f"unknown bot {name!r} (bots: {', '.join(sorted(levels))})", field="bot"
        ) from None
    return factory(seed)
