"""``rummikub xpress``: play the dice game in the terminal or watch a record; and the Xpress
side of ``rummikub simulate --game xpress`` and ``rummikub replay``."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from rummikub.core import RecordError, RummikubError

from .common import fail

__all__ = ["XPRESS_FORMAT", "register", "replay_document", "simulate_xpress"]

XPRESS_FORMAT = "rummikub-xpress/1"

xpress_app = typer.Typer(
    name="xpress",
    help="Rummikub Xpress, the two-player dice game: play it or replay a record.",
    no_args_is_help=True,
)


def simulate_xpress(games: int, seed: int, out: Path, bots: str | None, quiet: bool) -> None:
    """Play ``games`` bot matches and write one ``rummikub-xpress/1`` record per line."""
    from rummikub.xpress import get_bot, simulate, write_records

    names = [b.strip() for b in (bots or "greedy,expert").split(",") if b.strip()]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        raise fail("Xpress is for two players: give --bots A,B (or one bot for both)")
    if games < 1:
        raise fail("--games must be at least 1")
    try:
        for name in names:
            get_bot(name)
    except RummikubError as exc:
        raise fail(str(exc)) from None
    started = time.perf_counter()

    def progress() -> Iterator[dict[str, Any]]:
        for i, rec in enumerate(simulate(games, seed, names)):
            if not quiet and sys.stderr.isatty():
                typer.echo(f"\r{i + 1}/{games} games", err=True, nl=False)
            yield rec

    count = write_records(progress(), out)
    elapsed = time.perf_counter() - started
    if not quiet:
        typer.echo(f"\n{count} Xpress games in {elapsed:.1f}s -> {out}", err=True)


def replay_document(doc: Any, verify_only: bool) -> None:
    """Print (or only verify) one decoded Xpress record; a breach raises RecordError."""
    from rummikub.xpress import load_xpress, verify_xpress
    from rummikub.xpress.describe import describe_xpress

    rec = load_xpress(doc)
    if not verify_only:
        for line in describe_xpress(rec):
            typer.echo(line)
    verify_xpress(rec)


@xpress_app.command("play")
def play(
    bot: Annotated[str, typer.Option(help="The opponent: greedy or expert.")] = "expert",
    seed: Annotated[int | None, typer.Option(help="Seed of the match (default: random).")] = None,
    lang: Annotated[str, typer.Option(help="Interface language: en or sv.")] = "en",
    name: Annotated[str, typer.Option(help="Your name in the record.")] = "You",
    save: Annotated[
        Path | None, typer.Option(help="Write the game record here when the app closes.")
    ] = None,
) -> None:
    """Play Xpress against a bot in the terminal."""
    from rummikub.xpress import get_bot
    from rummikub.xpress.messages import LANGUAGES

    if lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    try:
        get_bot(bot)
    except RummikubError as exc:
        raise fail(str(exc)) from None
    from rummikub.xpress.tui import XpressApp

    actual_seed = seed if seed is not None else int(time.time() * 1000) % 1_000_000_007
    app = XpressApp.for_play(bot=bot, seed=actual_seed, lang=lang, name=name, save=save)
    app.run()


@xpress_app.command("replay")
def replay(
    file: Annotated[Path, typer.Argument(help="An Xpress record (rummikub-xpress/1 JSON).")],
    game: Annotated[int, typer.Option(help="Which record of a .jsonl file (1 = first).")] = 1,
    lang: Annotated[str, typer.Option(help="Interface language: en or sv.")] = "en",
    text: Annotated[
        bool, typer.Option("--text", help="Print the game as text (also when piped).")
    ] = False,
) -> None:
    """Watch a recorded Xpress game step by step in the terminal (prints it as text with
    --text or when the output is not a terminal)."""
    from rummikub.xpress import load_xpress
    from rummikub.xpress.describe import describe_xpress
    from rummikub.xpress.messages import LANGUAGES

    from .records import iter_documents

    if lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    try:
        docs = [doc for _, doc in iter_documents(file)]
        if not 1 <= game <= len(docs):
            held = f"{len(docs)} record" + ("" if len(docs) == 1 else "s")
            raise fail(f"--game {game}: the file holds {held}")
        rec = load_xpress(docs[game - 1])
    except RecordError as exc:
        raise fail(str(exc)) from None
    if text or not sys.stdout.isatty():
        for line in describe_xpress(rec):
            typer.echo(line)
        return
    from rummikub.xpress.tui import XpressApp

    XpressApp.for_replay(rec, lang=lang).run()


def register(app: typer.Typer) -> None:
    app.add_typer(xpress_app, name="xpress")
