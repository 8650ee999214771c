"""Player ratings: the OpenSkill model (:mod:`.model`), the bots' fixed ratings
(:mod:`.bots`), their calibration from tournaments (:mod:`.calibrate`) and the quick-match
queue (:mod:`.matchmaking`). Needs the ``ratings`` extra (OpenSkill); docs/ratings.md."""

from __future__ import annotations

from .bots import bot_rating, bot_ratings, calibration
from .calibrate import calibrate, read_results
from .matchmaking import Game, Queue, Settings, Ticket
from .model import INITIAL, Rating, display, estimate, ranks_of, rate, win_chances

__all__ = [
    "INITIAL",
    "Game",
    "Queue",
    "Rating",
    "Settings",
    "Ticket",
    "bot_rating",
    "bot_ratings",
    "calibrate",
    "calibration",
    "display",
    "estimate",
    "ranks_of",
    "rate",
    "read_results",
    "win_chances",
]
