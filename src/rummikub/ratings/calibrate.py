"""Calibrating the bots' ratings from tournaments between them: every game of the results files
is rated in order with the same model the players are rated with, every bot free to move and
skills not drifting (``tau = 0``); then the whole field is shifted so the anchor bot (default
``greedy``) sits at a new player's estimate: a new player is assumed as strong as ``greedy``
until his games say otherwise."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rummikub.bots.tournament.results import GameResult, TournamentConfig
from rummikub.core import Code, RecordError, UsageError

from .model import INITIAL, MU, Rating, ranks_of, rate

__all__ = ["Calibration", "calibrate", "read_results", "to_json"]

Calibration = dict[str, dict[str, Rating]]


def read_results(
    paths: Iterable[str | Path],
) -> tuple[list[tuple[str, GameResult]], list[TournamentConfig]]:
    """(game name, result) of every game of these tournament results files, in file order,
    and each file's tournament."""
    out: list[tuple[str, GameResult]] = []
    configs: list[TournamentConfig] = []
    for path in paths:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        if not lines:
            raise RecordError(f"{path}: empty results file")
        try:
            config = TournamentConfig.from_dict(json.loads(lines[0]))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: line 1: {exc}") from None
        configs.append(config)
        for number, line in enumerate(lines[1:], 2):
            try:
                out.append((config.game, GameResult.from_dict(json.loads(line))))
            except (json.JSONDecodeError, RecordError) as exc:
                raise RecordError(f"{path}: line {number}: {exc}") from None
    return out, configs


def calibrate(games: Sequence[tuple[str, GameResult]], *, anchor: str = "greedy") -> Calibration:
    """{game: {bot level: rating}} from the games' results (see the module)."""
    found: dict[str, dict[str, Rating]] = {}
    for game, result in games:
        field = found.setdefault(game, {})
        before = [field.get(bot, INITIAL) for bot in result.seats]
        if len(set(result.seats)) != len(result.seats):
            continue  # a bot against itself says nothing of its level
        after = rate(before, ranks_of(result.totals, result.winners), tau=0.0)
        field.update(zip(result.seats, after, strict=True))
    out: Calibration = {}
    for game, field in found.items():
        if anchor not in field:
            raise UsageError(
                f"the {game} games have no {anchor!r} to anchor the scale (bots: "
                f"{', '.join(sorted(field))})",
                code=Code.BAD_ARGUMENT,
                params={"name": "anchor", "value": anchor},
            )
        shift = MU - field[anchor].mu
        out[game] = {bot: Rating(r.mu + shift, r.sigma) for bot, r in sorted(field.items())}
    return out


def to_json(
    calibration: Calibration, made_by: str, games: int, tournaments: Sequence[TournamentConfig]
) -> dict[str, Any]:
    """The document ``bots.json`` holds: the ratings, the command that made them and the
    tournaments they come from (bots, seats, seed, rules, time limit: each can be replayed)."""
    return {
        "version": 1,
        "made_by": made_by,
        "rated_games": games,
        "tournaments": [c.to_dict() for c in tournaments],
        "games": {
            game: {bot: r.to_json() for bot, r in field.items()}
            for game, field in calibration.items()
        },
    }
