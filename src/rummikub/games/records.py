"""Game records of any game: read one, dispatching on its ``format``, and read files of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummikub.core.errors import RecordError
from rummikub.core.interface import GameRecordOf

from .registry import GAMES, AnyGame, game_for_format

__all__ = ["AnyRecord", "iter_documents", "load_any", "read_any"]


@dataclass(frozen=True, slots=True)
class AnyRecord:
    """A parsed record and the game it belongs to."""

    game: AnyGame
    record: GameRecordOf

    def verify(self) -> int:
        """Re-check the whole record (see :meth:`Game.verify`); the steps checked."""
        return self.game.verify(self.record)


def load_any(data: Any) -> AnyRecord:
    """Parse a decoded record of any registered game (by its ``format``)."""
    if not isinstance(data, dict):
        raise RecordError("a game record must be a JSON object")
    fmt = data.get("format")
    game = game_for_format(fmt)
    if game is None:
        known = ", ".join(f for g in GAMES.values() for f in g.record_formats)
        raise RecordError(f"unknown record format {fmt!r} (formats: {known})")
    return AnyRecord(game, game.load_record(data))


def iter_documents(path: str | Path) -> Iterator[tuple[int, Any]]:
    """The JSON documents of a file: one record (``.json``) or one per line (``.jsonl``),
    each with its line number."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from exc
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"{path} is empty")
    try:
        yield 1, json.loads(stripped)
        return
    except json.JSONDecodeError:
        pass
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield lineno, json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from exc


def read_any(path: str | Path) -> AnyRecord:
    """The one record in a JSON file, of any registered game."""
    docs = list(iter_documents(path))
    if len(docs) != 1:
        raise RecordError(f"{path} holds {len(docs)} records; expected one")
    return load_any(docs[0][1])
