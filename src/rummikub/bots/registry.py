"""Named bot levels."""

from __future__ import annotations

from collections.abc import Callable

from rummikub.core import RulesError

from .base import Bot
from .beginner import BeginnerBot

__all__ = ["BOTS", "get_bot", "register_bot"]

BotFactory = Callable[[int | None], Bot]
BOTS: dict[str, BotFactory] = {"beginner": BeginnerBot}


def register_bot(name: str, factory: BotFactory) -> None:
    BOTS[name] = factory


def get_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of the named level (``beginner``, ...)."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise RulesError(
            f"unknown bot {name!r} (bots: {', '.join(sorted(BOTS))})", field="bot"
        ) from None
    return factory(seed)
