"""The server's CPU work as plain functions of picklable arguments, so that it runs in worker
processes (:mod:`.pool`): a bot's move, a hint, a game's analysis, the table assistant's
answer. Nothing here touches a room, a connection or the database."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time
from typing import Any

from rummikub.analysis import analyse
from rummikub.games import AnyRecord, load_any

from ..rooms.games import room_game

__all__ = [
    "ProgressFile",
    "bot_move",
    "game_puzzle_id",
    "hint",
    "read_progress",
    "review_text",
    "warm",
]

#: the least a bot is given to think, however long it waited for a worker
MIN_THINK = 0.05
#: an analysis tells how far it is at most this often (seconds)
PROGRESS_EVERY = 0.2
#: the longest an analysis held for a test (``RUMMIKUB_TEST_ANALYSIS_HOLD``) waits
HOLD_LIMIT = 120.0


def bot_move(bot: Any, obs: Any, cap: float, deadline: float | None) -> tuple[Any, Any]:
    """The action of ``bot`` for ``obs``, and the bot after it (its state moves on: a seeded
    generator, what it has learned of the opponents). It thinks at most ``cap`` seconds, and
    never past ``deadline`` (a :func:`time.time`, the turn's end less a margin) but for
    :data:`MIN_THINK`. The time it waited for a worker counts against its budget."""
    limit = cap
    if deadline is not None:
        limit = max(MIN_THINK, min(cap, deadline - time.time()))
    return bot.act(obs, limit), bot


def hint(game: str, obs: Any) -> tuple[dict[str, Any], float]:
    """The hint of ``game``'s server part for the player who sees ``obs``, and the seconds of
    CPU it took (charged to the asker's hint budget)."""
    start = time.process_time()
    out = room_game(game).hint(obs)
    return out, time.process_time() - start


def _analysis(rec: AnyRecord, progress: str | None, samples: int | None) -> dict[str, Any]:
    told = ProgressFile(progress, hold=os.environ.get("RUMMIKUB_TEST_ANALYSIS_HOLD"))
    return analyse(rec, samples=samples, progress=told).to_json()


def game_puzzle_id(code: str, round_: int, turn: int) -> str:
    """The id of the puzzle made of the game ``code``'s turn ``turn`` of round ``round_``
    (0-based; written 1-based, as the replay numbers them): ``ABCD-1-14``."""
    return f"{code}-{round_ + 1}-{turn + 1}"


def review_text(
    code: str, record: str, progress: str | None = None, samples: int | None = None
) -> str:
    """The server's review of the finished game ``code`` (JSON text, from its record's JSON
    text): its analysis (rummikub-analysis/2, at the default depth, with ``samples`` deals a
    position: the depth's own number when ``None``; fewer: a faster, rougher review) and, as
    ``puzzles``, every position where a player could have placed his whole rack and did not,
    each a go-out puzzle for him (rummikub-puzzle/1, id :func:`game_puzzle_id`; none in a game
    without racks to go out with, as Xpress). ``progress``: a file told how far the analysis
    is as it goes (:class:`ProgressFile`).

    For tests only: ``RUMMIKUB_TEST_ANALYSIS_HOLD`` names a file the analysis waits for (at
    most :data:`HOLD_LIMIT` seconds) once it has reported its first turn, so that a test sees
    it running for as long as it needs to."""
    from rummikub.core.record import GameRecord
    from rummikub.puzzles.make import missed_go_outs

    rec = load_any(json.loads(record))
    out = _analysis(rec, progress, samples)
    puzzles: list[dict[str, Any]] = []
    if isinstance(rec.record, GameRecord):
        for seat in range(len(rec.record.players)):
            for p in missed_go_outs(rec.record, seat):
                assert p.source is not None
                ident = game_puzzle_id(code, p.source.round, p.source.turn)
                puzzles.append(dataclasses.replace(p, id=ident).to_json())
    puzzles.sort(key=lambda p: (p["source"]["round"], p["source"]["turn"]))
    out["puzzles"] = puzzles
    return json.dumps(out, separators=(",", ":"))


class ProgressFile:
    """A ``progress(done, total)`` for :func:`rummikub.analysis.analyse` that writes ``done
    total`` (turns judged, of all) to the file ``path`` (none: nowhere), at most every
    ``every`` seconds and at the last turn. Each is written whole: to a file beside it, then
    moved over it (:func:`os.replace`), so a reader in another process never sees half of
    one (:func:`read_progress`); a file that cannot be written is not a failure of the
    analysis. ``hold``: see :func:`review_text` (tests only)."""

    def __init__(
        self, path: str | None, every: float = PROGRESS_EVERY, hold: str | None = None
    ) -> None:
        self.path = path
        self.every = every
        self.hold = hold
        self._last = -math.inf

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.path is not None and (done >= total or now - self._last >= self.every):
            self._last = now
            part = f"{self.path}.part"
            try:
                with open(part, "w", encoding="ascii") as f:
                    f.write(f"{done} {total}")
                os.replace(part, self.path)
            except OSError:  # its directory gone (the server stopped): the analysis goes on
                pass
        if self.hold is not None:
            hold, self.hold = self.hold, None  # the first turn only
            until = time.monotonic() + HOLD_LIMIT
            while not os.path.exists(hold) and time.monotonic() < until:
                time.sleep(0.02)


def read_progress(path: str) -> tuple[int, int] | None:
    """``(done, total)`` as a :class:`ProgressFile` last wrote it; None before it wrote any."""
    try:
        with open(path, encoding="ascii") as f:
            done, total = f.read().split()
        return int(done), int(total)
    except (OSError, ValueError):
        return None


def warm() -> float:
    """Load the solver's compiled kernels in this process; the seconds it took (0 without
    them, and when loading failed: the first search loads them then)."""
    from rummikub.solver.warm import warm_up

    try:
        return warm_up()
    except Exception:
        return 0.0
