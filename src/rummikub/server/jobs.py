"""The server's CPU work as plain functions of picklable arguments, so that it runs in worker
processes (:mod:`.work`): a bot's move, a hint, a game's analysis, the table assistant's
answer. Nothing here touches a room, a connection or the database."""

from __future__ import annotations

import json
import time
from typing import Any

from rummikub.analysis import analyse
from rummikub.games import load_any

from .games import room_game

__all__ = ["analysis_text", "bot_move", "hint", "warm"]

#: the least a bot is given to think, however long it waited for a worker
MIN_THINK = 0.05


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
    CPU it took (charged to the asker's work budget)."""
    start = time.process_time()
    out = room_game(game).hint(obs)
    return out, time.process_time() - start


def analysis_text(record: str, seconds_per_position: float) -> str:
    """The analysis (JSON text) of a record (JSON text)."""
    result = analyse(load_any(json.loads(record)), time_limit=seconds_per_position)
    return json.dumps(result.to_json(), separators=(",", ":"))


def warm() -> float:
    """Load the solver's compiled kernels in this process; the seconds it took (0 without
    them, and when loading failed: the first search loads them then)."""
    from rummikub.solver.warm import warm_up

    try:
        return warm_up()
    except Exception:
        return 0.0
