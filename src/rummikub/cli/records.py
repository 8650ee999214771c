"""``rummikub replay``: print a game record turn by turn, or verify it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from rummikub.core import (
    GameRecord,
    RecordError,
    RummikubError,
    load_record,
    replay,
    verify,
)
from rummikub.core.record import FORMAT

from .common import fail
from .xpress import XPRESS_FORMAT, replay_document

__all__ = ["describe_record", "iter_documents", "register"]


def iter_documents(path: Path) -> Iterator[tuple[int, Any]]:
    """The JSON documents of a file: one record (``.json``) or one per line (``.jsonl``)."""
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


def describe_record(rec: GameRecord) -> Iterator[str]:
    """Human-readable lines: every turn with the table after it, and every round's end."""
    names = [p.name for p in rec.players]
    current_round = -1
    for step in replay(rec):
        if step.round != current_round:
            current_round = step.round
            rd = rec.rounds[step.round]
            yield f"Round {step.round + 1}: {names[rd.first]} starts"
            for i, rack in enumerate(rd.racks):
                yield f"  {names[i]} is dealt {rack}"
        log = step.log
        who = names[log.player]
        head = f"  {step.turn + 1:>3}. {who}"
        if log.action == "play":
            placed = " ".join(map(str, log.play))
            yield f"{head} plays {placed}{' (hint)' if log.hint else ''}"
            yield f"       table: {step.after.table}"
        elif log.action == "draw":
            yield f"{head} draws {log.tile}"
        elif log.action == "pass":
            yield f"{head} passes"
        elif log.action == "timeout":
            drawn = " ".join(map(str, log.penalty)) or "nothing"
            yield f"{head} runs out of time and draws {drawn}"
        else:
            yield (
                f"{head} makes an invalid play and draws "
                f"{' '.join(map(str, log.penalty)) or 'nothing'}"
            )
        end = step.after.end
        if end is not None:
            yield from _describe_end(names, end.reason, end.winner, end.scores)
    for ri, rd in enumerate(rec.rounds):
        if rd.end is not None and rd.end.reason == "abandoned":
            yield f"Round {ri + 1} abandoned"
    if rec.totals is not None:
        yield "Totals: " + ", ".join(f"{n} {t:+d}" for n, t in zip(names, rec.totals, strict=True))


def _describe_end(
    names: list[str], reason: str, winner: int | None, scores: tuple[int, ...]
) -> Iterator[str]:
    label = {
        "rummikub": "Rummikub!",
        "exhausted": "the pool is exhausted",
        "abandoned": "abandoned",
    }[reason]
    who = names[winner] if winner is not None else "nobody"
    yield f"  Round over ({label}); winner: {who}"
    yield "  Scores: " + ", ".join(f"{n} {s:+d}" for n, s in zip(names, scores, strict=True))


def replay_command(
    file: Annotated[
        Path, typer.Argument(help="A game record (.json) or one record per line (.jsonl).")
    ],
    verify_only: Annotated[
        bool,
        typer.Option("--verify", help="Re-check every turn; exit non-zero at the first bad one."),
    ] = False,
    text: Annotated[
        bool, typer.Option("--text", help="Print the game even on a terminal (no viewer).")
    ] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="Viewer language (en, sv).")] = None,
) -> None:
    """Print a game turn by turn (re-checking it against the rules), or only verify it.
    On an interactive terminal a single record opens in the terminal replay viewer."""
    if not verify_only and not text and sys.stdout.isatty() and sys.stdin.isatty():
        from .replay_tui import open_viewer

        if open_viewer(file, lang):
            return
    checked = 0
    try:
        for lineno, doc in iter_documents(file):
            where = f"{file}:{lineno}" if lineno > 1 or file.suffix == ".jsonl" else str(file)
            try:
                if isinstance(doc, dict) and doc.get("format") == XPRESS_FORMAT:
                    replay_document(doc, verify_only)
                    checked += 1
                    continue
                if isinstance(doc, dict) and doc.get("format") not in (FORMAT, None):
                    raise RecordError(f"unknown record format {doc.get('format')!r}")
                rec = load_record(doc)
                if verify_only:
                    verify(rec)
                    checked += 1
                    continue
                for line in describe_record(rec):
                    typer.echo(line)
                verify(rec)
                checked += 1
            except RummikubError as exc:
                raise fail(f"{where}: {exc}") from None
    except RecordError as exc:
        raise fail(str(exc)) from None
    if verify_only:
        typer.echo(f"ok: {checked} {'record' if checked == 1 else 'records'} verified")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
