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
    """(game name, result) of every game of these files, in file order, and the tournament of
    each results file. A file is a tournament's results (``rummikub tournament -o``, its first
    line the tournament) or a file of game records between bots (the tournament's
    ``.records.jsonl``, ``rummikub simulate --out``); anything else is refused naming the file
    and what it holds."""
    out: list[tuple[str, GameResult]] = []
    configs: list[TournamentConfig] = []
    for path in paths:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        if not any(line.strip() for line in lines):
            raise RecordError(f"{path}: empty results file")
        try:
            first = json.loads(lines[0])
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: line 1 is not JSON ({exc.msg})") from None
        if isinstance(first, dict) and "format" in first and first.get("type") != "tournament":
            out.extend(_read_records(Path(path), lines))
            continue
        if not isinstance(first, dict) or first.get("type") != "tournament":
            raise RecordError(
                f"{path}: not a tournament's results file (its first line is "
                '{"type": "tournament", ...}) nor a file of game records between bots'
            )
        try:
            config = TournamentConfig.from_dict(first)
        except RecordError as exc:
            raise RecordError(f"{path}: line 1: {exc}") from None
        configs.append(config)
        for number, line in enumerate(lines[1:], 2):
            try:
                out.append((config.game, GameResult.from_dict(json.loads(line))))
            except (json.JSONDecodeError, RecordError) as exc:
                raise RecordError(f"{path}: line {number}: {exc}") from None
    return out, configs


def _read_records(path: Path, lines: list[str]) -> list[tuple[str, GameResult]]:
    """The results of a file of game records (one per line), every seat a bot."""
    from rummikub.games import load_any

    out: list[tuple[str, GameResult]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            found = load_any(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: not JSON ({exc.msg})") from None
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
        record = found.record
        seats = []
        for seat, player in enumerate(record.players, 1):
            if player.kind != "bot" or not player.bot:
                raise RecordError(
                    f"{where}: seat {seat} ({player.name}) is not a bot: only games between "
                    "bots calibrate the bots' ratings"
                )
            seats.append(player.bot)
        match = found.game.resume(record)
        if not match.over or record.totals is None:
            raise RecordError(f"{where}: the game is not finished")
        totals = tuple(record.totals)
        n = len(seats)
        result = GameResult(
            game=number, deal=number, rotation=0, seed=record.seed or 0, seats=tuple(seats),
            totals=totals, winners=tuple(match.winners), rounds=len(record.rounds), turns=0,
            decisions=(0,) * n, seconds=(0.0,) * n, problems=(0,) * n,
        )  # fmt: skip
        out.append((found.game.name, result))
    return out


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
