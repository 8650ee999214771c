"""Many seeded bot matches of any game, yielding their records (``rummikub simulate``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rummikub.core import RulesError
from rummikub.games import AnyGame

from .play import play_match
from .registry import get_bot

__all__ = ["seat_levels", "simulate", "write_records"]


def seat_levels(levels: Sequence[str], players: int, game_index: int) -> list[str]:
    """The bot level of every seat of game ``game_index``: the levels are cycled over the
    seats; when there is one level per seat, they rotate one seat per game so every level
    plays every seat."""
    if not levels:
        raise RulesError("no bot levels given", field="bot")
    shift = game_index if len(levels) == players else 0
    return [levels[(k + shift) % len(levels)] for k in range(players)]


def simulate(
    game: AnyGame,
    rules: Any,
    levels: Sequence[str],
    *,
    games: int,
    seed: int,
    players: int,
    time_limit: float | None = None,
) -> Iterator[dict[str, Any]]:
    """Play ``games`` matches (game ``i`` uses seed ``seed + i``) between the built-in bots
    ``levels`` of ``game`` and yield each match's record. Bad arguments raise at once, before
    any game is played."""
    counts = game.player_counts(rules)
    if players not in counts:
        raise RulesError(
            f"{players} players, but these rules allow {counts.start}..{counts.stop - 1}",
            field="max_players",
        )
    if len(levels) > players:
        raise RulesError(f"{len(levels)} bot levels for {players} players", field="bot")
    for level in levels:
        get_bot(level, game=game.name)

    def play() -> Iterator[dict[str, Any]]:
        for i in range(games):
            game_seed = seed + i
            bots = [
                get_bot(level, seed=game_seed * 10 + k, game=game.name)
                for k, level in enumerate(seat_levels(levels, players, i))
            ]
            match = play_match(rules, bots, game_seed, game=game, time_limit=time_limit)
            yield game.match_record(match)

    return play()


def write_records(records: Iterable[dict[str, Any]], out: str | Path) -> int:
    """Write records to ``out``, one compact JSON document per line (JSON Lines), each flushed
    as it comes. Returns the count."""
    count = 0
    with Path(out).open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
            fh.flush()
            count += 1
    return count
