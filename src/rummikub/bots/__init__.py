"""Bots: players that see only their own observation. The core never imports this package."""

from __future__ import annotations

from .base import Bot, fallback_action
from .beginner import BeginnerBot
from .registry import BOTS, get_bot, register_bot

__all__ = ["BOTS", "BeginnerBot", "Bot", "fallback_action", "get_bot", "register_bot"]
