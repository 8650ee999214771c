"""The screens of the terminal UI."""

from __future__ import annotations

from .game import GameScreen
from .handover import HandoverScreen
from .new_game import NewGameScreen
from .replay import ReplayScreen
from .round_end import RoundEndScreen

__all__ = ["GameScreen", "HandoverScreen", "NewGameScreen", "ReplayScreen", "RoundEndScreen"]
