"""Many seeded bot matches of any game, yielding their records (``rummikub simulate``).

The games run here, in local worker processes or as Ray tasks (see
:mod:`rummikub.bots.executors`); a game's record depends only on its seed (and the bots'
levels), so every way of running gives the same records in the same order, but for the
milliseconds each decision took. A run cut short resumes from the records already written
(:func:`resume_point`)."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from rummikub.core import Code, RulesError, UsageError, player_count_error
from rummikub.games import AnyGame, get_game

from .executors import open_executor
from .play import play_match
from .registry import get_bot

__all__ = ["play_one", "resume_point", "seat_levels", "simulate", "write_records"]


def seat_levels(levels: Sequence[str], players: int, game_index: int) -> list[str]:
    """The bot level of every seat of game ``game_index``: the levels are cycled over the
    seats; when there is one level per seat, they rotate one seat per game so every level
    plays every seat."""
    if not levels:
        raise RulesError("no bot levels given", field="bot")
    shift = game_index if len(levels) == players else 0
    return [levels[(k + shift) % len(levels)] for k in range(players)]


def play_one(
    game_name: str,
    rules: Any,
    levels: Sequence[str],
    players: int,
    index: int,
    seed: int,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """The record of game ``index`` of a simulation starting at ``seed`` (it is played with
    seed ``seed + index``). A plain function of picklable arguments, so it runs in a worker
    process or as a Ray task as well as here."""
    game = get_game(game_name)
    game_seed = seed + index
    bots = [
        get_bot(level, seed=game_seed * 10 + k, game=game.name)
        for k, level in enumerate(seat_levels(levels, players, index))
    ]
    match = play_match(rules, bots, game_seed, game=game, time_limit=time_limit)
    return game.match_record(match)


def simulate(
    game: AnyGame,
    rules: Any,
    levels: Sequence[str],
    *,
    games: int,
    seed: int,
    players: int,
    time_limit: float | None = None,
    start: int = 0,
    workers: int = 1,
    ray: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Play games ``start`` … ``games - 1`` (game ``i`` uses seed ``seed + i``) between the
    built-in bots ``levels`` of ``game`` and yield each match's record, in game order.
    ``workers`` > 1 plays them in that many local processes; ``ray`` (an address, ``auto`` or
    ``local``) as tasks on a Ray cluster. Bad arguments raise at once, before any game is
    played."""
    counts = game.player_counts(rules)
    if players not in counts:
        raise player_count_error(players, counts)
    if len(levels) > players:
        raise RulesError(f"{len(levels)} bot levels for {players} players", field="bot")
    for level in levels:
        get_bot(level, game=game.name)
    if workers < 1:
        raise UsageError(
            f"workers must be at least 1, not {workers}",
            code=Code.BAD_ARGUMENT,
            params={"name": "workers", "value": workers},
        )
    args = (game.name, rules, tuple(levels), players)

    def here() -> Iterator[dict[str, Any]]:
        for i in range(start, games):
            yield play_one(*args, i, seed, time_limit)

    def spread() -> Iterator[dict[str, Any]]:
        pool, at_once = open_executor(workers, ray)
        with pool:
            running: deque[Future[dict[str, Any]]] = deque()
            try:
                for i in range(start, games):
                    running.append(pool.submit(play_one, *args, i, seed, time_limit))
                    if len(running) >= 2 * at_once:
                        yield running.popleft().result()
                while running:
                    yield running.popleft().result()
            finally:
                for fut in running:
                    fut.cancel()

    return here() if workers == 1 and ray is None else spread()


def resume_point(out: str | Path, *, seed: int, games: int) -> int:
    """How many games of a simulation starting at ``seed`` the records file ``out`` already
    holds (0 if it does not exist). A last line cut off by a crash is dropped from the file;
    a record that is not game ``seed + i`` of this run raises :class:`UsageError` (name
    another file)."""
    path = Path(out)
    if not path.exists():
        return 0
    kept: list[str] = []
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):  # the line being written when the run stopped
                break
            raise UsageError(
                f"{path}: line {number} is not a game record",
                code=Code.BAD_ARGUMENT,
                params={"name": "out", "value": str(path)},
            ) from None
        expected = seed + len(kept)
        if not isinstance(record, dict) or record.get("seed") != expected:
            got = record.get("seed") if isinstance(record, dict) else None
            raise UsageError(
                f"{path}: line {number} is the game of seed {got}, but this run's game "
                f"{len(kept) + 1} has seed {expected}: resume with the same --seed, or write "
                "to another file",
                code=Code.BAD_ARGUMENT,
                params={"name": "out", "value": str(path)},
            )
        kept.append(line if line.endswith("\n") else line + "\n")
    if len(kept) > games:
        kept = kept[:games]
    path.write_text("".join(kept), encoding="utf-8")
    return len(kept)


def write_records(
    records: Iterable[dict[str, Any]], out: str | Path, *, append: bool = False
) -> int:
    """Write records to ``out`` (after what it holds, with ``append``), one compact JSON
    document per line (JSON Lines), each flushed as it comes. Returns the count written."""
    count = 0
    with Path(out).open("a" if append else "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
            fh.flush()
            count += 1
    return count
