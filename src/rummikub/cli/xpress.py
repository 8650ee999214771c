"""``rummikub xpress``: play the dice game in the terminal or watch a record (``rummikub
simulate --game xpress``, ``replay`` and ``tournament --game xpress`` are the platform's
commands for every game)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from rummikub.core import RecordError, RummikubError

from .common import fail

__all__ = ["register"]

xpress_app = typer.Typer(
    name="xpress",
    help="Rummikub Xpress, the two-player dice game: play it or replay a record.",
    no_args_is_help=True,
)


@xpress_app.command("play")
def play(
    bot: Annotated[str, typer.Option(help="The opponent: greedy or expert.")] = "expert",
    seed: Annotated[int | None, typer.Option(help="Seed of the match (default: random).")] = None,
    lang: Annotated[
        str | None,
        typer.Option(help="Interface language: en or sv (default: the system locale, as play)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="Your name in the record (default: You, in the language).")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the game record here when the app closes.")
    ] = None,
) -> None:
    """Play Xpress against a bot in the terminal."""
    from rummikub.i18n import LANGUAGES, detect_language, translator
    from rummikub.xpress import get_bot

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    lang = lang or detect_language()
    name = name or translator(lang)("setup.you")
    try:
        get_bot(bot)
    except RummikubError as exc:
        raise fail(str(exc)) from None
    from rummikub.tui.xpress_app import XpressApp

    actual_seed = seed if seed is not None else int(time.time() * 1000) % 1_000_000_007
    app = XpressApp.for_play(bot=bot, seed=actual_seed, lang=lang, name=name, save=save)
    app.run()


@xpress_app.command("replay")
def replay(
    file: Annotated[Path, typer.Argument(help="An Xpress record (rummikub-xpress/1 JSON).")],
    game: Annotated[int, typer.Option(help="Which record of a .jsonl file (1 = first).")] = 1,
    lang: Annotated[
        str | None, typer.Option(help="Interface language: en or sv (default: the system locale).")
    ] = None,
    text: Annotated[
        bool, typer.Option("--text", help="Print the game as text (also when piped).")
    ] = False,
) -> None:
    """Watch a recorded Xpress game step by step in the terminal (prints it as text with
    --text or when the output is not a terminal)."""
    from rummikub.games import iter_documents
    from rummikub.i18n import LANGUAGES, detect_language, translator
    from rummikub.xpress import load_xpress

    from .describe import describe_xpress

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    lang = lang or detect_language()
    try:
        docs = [doc for _, doc in iter_documents(file)]
        if not 1 <= game <= len(docs):
            held = f"{len(docs)} record" + ("" if len(docs) == 1 else "s")
            raise fail(f"--game {game}: the file holds {held}")
        rec = load_xpress(docs[game - 1])
    except RecordError as exc:
        raise fail(str(exc)) from None
    if text or not sys.stdout.isatty():
        for line in describe_xpress(rec, translator(lang)):
            typer.echo(line)
        return
    from rummikub.tui.xpress_app import XpressApp

    XpressApp.for_replay(rec, lang=lang).run()


def register(app: typer.Typer) -> None:
    app.add_typer(xpress_app, name="xpress")
