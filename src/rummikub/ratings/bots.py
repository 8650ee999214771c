"""The fixed ratings of the built-in bots, per game, calibrated from tournaments between them
(:mod:`.calibrate`; the file ``bots.json`` beside this module says how it was made)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from rummikub.core import Code, UsageError
from rummikub.games import get_game

from .model import Rating

__all__ = ["bot_rating", "bot_ratings", "calibration"]


@cache
def calibration() -> dict[str, Any]:
    """The shipped calibration: ``{"version", "made_by", "games": {game: {level: rating}}}``."""
    text = resources.files("rummikub.ratings").joinpath("bots.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def bot_ratings(game: str = "tiles") -> dict[str, Rating]:
    """Every calibrated bot level of ``game`` (a name as :func:`~rummikub.games.get_game`
    reads it) and its fixed rating."""
    levels = calibration()["games"].get(get_game(game).name, {})
    return {level: Rating.from_json(r) for level, r in levels.items()}


def bot_rating(level: str, game: str = "tiles") -> Rating:
    """The fixed rating of bot ``level`` of ``game``."""
    ratings = bot_ratings(game)
    if level not in ratings:
        raise UsageError(
            f"no rating for the {game} bot {level!r} (rated bots: {', '.join(sorted(ratings))})",
            code=Code.BAD_ARGUMENT,
            params={"name": "bot", "value": level},
        )
    return ratings[level]
