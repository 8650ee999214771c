"""The assistant at a real table: a table and a rack as typed (``R1 R2 R3 | K5 B5 O5``,
``R4 J``) answered with the best plays laid out as new tables
(:mod:`rummikub.solver.assistant`), in the assistant's worker process (:mod:`..work.pool`);
``GET /api/assist`` (:mod:`..web.assistant`) asks it. No room, account or connection is
needed.

Each view is searched for at most :data:`SECONDS_PER_VIEW`: client addresses are served in
turn, and one address may have one question asked at a time, so one user asking in a loop
cannot keep the others waiting longer than one answer; past :data:`QUEUE` waiting questions
the server answers ``503 busy``."""

from __future__ import annotations

from typing import Any

from rummikub.core import PRESETS, RummikubError
from rummikub.solver.assistant import alternatives, read_position

from ..protocol.codes import ServerCode
from ..protocol.refusals import ClientError
from ..work.pool import WorkPool

__all__ = [
    "ASSIST_STOP",
    "MAX_TEXT",
    "QUEUE",
    "SECONDS_PER_VIEW",
    "assist",
    "assist_answer",
    "new_pool",
]

#: questions waiting for the assistant's worker, from every address, at most
QUEUE = 32
#: seconds of search for each view of the best play
SECONDS_PER_VIEW = 1.0
#: a question still being searched after this many seconds is stopped (four views at most)
ASSIST_STOP = 15.0
#: the longest table or rack text taken (a full table of 106 tiles is about 400 characters)
MAX_TEXT = 1000


def assist(table: str, rack: str, *, opened: bool, preset: str) -> dict[str, Any]:
    """The answer of ``/api/assist``: the position as read, and its alternatives. Raises
    :class:`~rummikub.core.RummikubError` (naming what was wrong) for a position that cannot be."""
    rules = PRESETS.get(preset)
    if rules is None:
        raise ClientError(
            ServerCode.BAD_MESSAGE,
            f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})",
            params={"field": "preset"},
        )
    board, tiles = read_position(table, rack)
    found = alternatives(board, tiles, opened=opened, rules=rules, time_limit=SECONDS_PER_VIEW)
    return {
        "table": board.to_json(),
        "rack": [str(t) for t in tiles],
        "opened": opened,
        "preset": preset,
        "alternatives": [a.to_json() for a in found],
    }


def assist_answer(table: str, rack: str, opened: bool, preset: str) -> tuple[int, dict[str, Any]]:
    """:func:`assist` as an HTTP status and body (run in a worker process: a refusal comes
    back as a value, since the engine's errors do not cross processes)."""
    try:
        return 200, assist(table, rack, opened=opened, preset=preset)
    except ClientError as exc:
        return 400, exc.http_body()
    except RummikubError as exc:
        return 400, {"error": str(exc), "code": exc.code, "params": exc.params}


def new_pool() -> WorkPool:
    """The assistant's worker: one process, one question per address at a time."""
    return WorkPool("assistant", 1, per_owner=1, queue=QUEUE)
