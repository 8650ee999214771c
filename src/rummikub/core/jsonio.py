"""Small helpers for reading and writing JSON documents (game records) with clear errors."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

from .errors import NotationError

__all__ = ["field", "json_list", "players_json", "whole_number", "write_json_atomic"]


def field(d: dict[str, Any], key: str, where: str) -> Any:
    """``d[key]``, or a :class:`NotationError` naming the missing field and where."""
    if key not in d:
        raise NotationError(f"{where}: missing field {key!r}")
    return d[key]


def whole_number(v: Any, where: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise NotationError(f"{where} must be a whole number, got {v!r}")
    return v


def json_list(v: Any, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise NotationError(f"{where} must be a list")
    return v


def write_json_atomic(obj: Any, path: str | Path) -> None:
    """Write ``obj`` as JSON (indented by one, a newline at the end) through a temporary file
    beside ``path`` that then replaces it: a crash or an error never leaves half a file, and an
    error leaves no temporary file either."""
    p = Path(path)
    text = json.dumps(obj, indent=1) + "\n"  # what JSON cannot write fails here, first
    tmp = p.with_name(p.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class _Player(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def bot(self) -> str | None: ...


def players_json(players: Iterable[_Player]) -> list[dict[str, Any]]:
    """The ``players`` list of a game record: name, kind, and the bot level of a bot."""
    out: list[dict[str, Any]] = []
    for p in players:
        d: dict[str, Any] = {"name": p.name, "kind": p.kind}
        if p.bot is not None:
            d["bot"] = p.bot
        out.append(d)
    return out
