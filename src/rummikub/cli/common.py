"""Helpers shared by the subcommands."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from rummikub.core import Rules, RulesError, preset

__all__ = ["fail", "load_rules"]


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``message`` to standard error and return the exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def load_rules(spec: str) -> Rules:
    """A preset name, a JSON file path, or inline JSON."""
    text = spec.strip()
    if text.startswith("{"):
        return Rules.from_json(text)
    path = Path(text)
    if path.suffix == ".json" or path.exists():
        try:
            return Rules.from_json(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RulesError(f"cannot read rules file {spec}: {exc.strerror}") from exc
    return preset(text)


def dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))
