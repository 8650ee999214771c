"""Named bot levels."""

from __future__ import annotations

from collections.abc import Callable

from rummikub.core import RulesError

from .base import Bot
from .beginner import BeginnerBot
from .expert import ExpertBot
from .greedy import GreedyBot
from .random import RandomBot
from .strategic import StrategicBot

__all__ = ["BOTS", "get_bot", "register_bot"]

BotFactory = Callable[[int | None], Bot]
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "greedy": GreedyBot,
    "strategic": StrategicBot,
    "expert": ExpertBot,
}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``factory`` available as ``get_bot(name)``."""
    BOTS[name] = factory


def get_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of the named level (``random``, ``beginner``, ``greedy``, ``strategic``,
    ``expert``)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise RulesError(
            f"unknown bot {name!r} (bots: {', '.join(sorted(BOTS))})", field="bot"
        ) from None
    return factory(seed)
