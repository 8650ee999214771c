"""Named bot levels, per game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rummikub.core import RulesError
from rummikub.core.interface import Bot as AnyGameBot
from rummikub.games import get_game
from rummikub.xpress import BOTS as XPRESS_BOTS

from .beginner import BeginnerBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .random import RandomBot
from .strategic import StrategicBot

__all__ = ["BOTS", "GAME_BOTS", "bot_levels", "get_bot", "register_bot"]

BotFactory = Callable[[int | None], AnyGameBot[Any, Any]]

#: the tile game's levels, weakest first
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "greedy": GreedyBot,
    "strategic": StrategicBot,
    "expert": ExpertBot,
}


def _seeded(factory: Callable[[int], AnyGameBot[Any, Any]]) -> BotFactory:
    return lambda seed: factory(seed or 0)


#: every game's levels, weakest first: ``GAME_BOTS[game][level]``
GAME_BOTS: dict[str, dict[str, BotFactory]] = {
    "tiles": BOTS,
    "xpress": {name: _seeded(f) for name, f in XPRESS_BOTS.items()},
}


def _levels(game: str) -> dict[str, BotFactory]:
    name = get_game(game).name
    return GAME_BOTS.setdefault(name, {})


def register_bot(name: str, factory: BotFactory, *, game: str = "tiles") -> None:
    """Make ``factory`` available as ``get_bot(name, game=game)``."""
    _levels(game)[name] = factory


def bot_levels(game: str = "tiles") -> tuple[str, ...]:
    """The bot levels of ``game``, weakest first."""
    return tuple(_levels(game))


def get_bot(name: str, seed: int | None = None, *, game: str = "tiles") -> Any:
    """A new bot of the named level of ``game`` (tiles: ``random``, ``beginner``, ``greedy``,
    ``strategic``, ``expert``; xpress: ``random``, ``greedy``, ``expert``)."""
    levels = _levels(game)
    try:
        factory = levels[name]
    except KeyError:
        raise RulesError(
            f"unknown bot {name!r} (bots: {', '.join(sorted(levels))})", field="bot"
        ) from None
    return factory(seed)
