"""``rummikub replay``: print a game record of any game step by step, or verify it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import fail

__all__ = ["register"]


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
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the viewer and the text (en, sv, de...: rummikub i18n languages).",
        ),
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=1,
            help="Deals a position in the viewer's game review (A): fewer is faster and less "
            "steady (default 32, as `rummikub analyse`).",
        ),
    ] = None,
) -> None:
    """Print a game turn by turn (re-checking it against the rules), or only verify it; the
    records of every game (tiles, xpress) are read. On an interactive terminal a single record
    opens in the game's terminal replay viewer."""
    from rummikub.core import RecordError, RummikubError
    from rummikub.games import iter_documents, load_any
    from rummikub.i18n import LANGUAGES, translator

    from .describe import describe

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    if not verify_only and not text and sys.stdout.isatty() and sys.stdin.isatty():
        from .replay_tui import open_viewer

        if open_viewer(file, lang, samples):
            return
    checked = 0
    try:
        for lineno, doc in iter_documents(file):
            where = f"{file}:{lineno}" if lineno > 1 or file.suffix == ".jsonl" else str(file)
            try:
                rec = load_any(doc)
                if not verify_only:
                    for line in describe(rec, lang):
                        typer.echo(line)
                rec.verify()
                checked += 1
            except RummikubError as exc:
                raise fail(f"{where}: {exc}") from None
    except RecordError as exc:
        raise fail(str(exc)) from None
    if verify_only:
        typer.echo(translator(lang)("cli.verified", count=checked))


def register(app: typer.Typer) -> None:
    app.command("replay")(replay_command)
