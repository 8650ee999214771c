"""Small helpers for reading and writing JSON documents (game records) with clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import NotationError

__all__ = ["field", "json_list", "whole_number", "write_json_atomic"]


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
    """Write ``obj`` as JSON through a temporary file, so a crash never leaves half a file."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")
    tmp.replace(p)
