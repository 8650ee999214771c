"""Bots: players that see only their own observation. The core never imports this package.

Levels (``get_bot(name, seed)``): ``random``, ``beginner``, ``greedy``, ``strategic``,
``expert``. ``OutsideBot`` plays a program that speaks the ``rummikub-bot/1`` protocol;
``make_bot`` accepts either a level or ``cmd:COMMAND``. See ``docs/bots.md``.
"""

from __future__ import annotations

from .base import Bot, fallback_action
from .beginner import BeginnerBot
from .expert import ExpertBot, ExpertParams
from .greedy import GreedyBot
from .hints import hint
from .play import play_match
from .protocol import OutsideBot
from .random import RandomBot
from .registry import BOTS, bot_levels, get_bot, register_bot
from .specs import make_bot
from .strategic import StrategicBot, StrategyParams

__all__ = [
    "BOTS",
    "BeginnerBot",
    "Bot",
    "ExpertBot",
    "ExpertParams",
    "GreedyBot",
    "OutsideBot",
    "RandomBot",
    "StrategicBot",
    "StrategyParams",
    "bot_levels",
    "fallback_action",
    "get_bot",
    "hint",
    "make_bot",
    "play_match",
    "register_bot",
]  # fmt: skip
