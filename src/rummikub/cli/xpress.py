"""``rummikub xpress``: play the dice game in the terminal or watch a record (``rummikub
simulate --game xpress``, ``replay`` and ``tournament --game xpress`` are the platform's
commands for every game)."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import error_words, fail, terminal_lang

if TYPE_CHECKING:
    from rummikub.i18n import Translator
    from rummikub.xpress import XpressMatch

__all__ = ["register"]

xpress_app = typer.Typer(
    name="xpress",
    help="Rummikub Xpress, the two-player dice game: play it or replay a record.",
    no_args_is_help=True,
)


@xpress_app.command("play")
def play(
    bot: Annotated[
        str | None, typer.Option(help="The opponent: greedy or expert (default: expert).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the match (default: random).")] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help="Interface language (en, sv, de...: rummikub i18n languages); default: the "
            "system locale, as play."
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="Your name in the record (default: You, in the language).")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Write the game record here after every action (default with --resume: the "
            "resumed file)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume", help="Go on with a game saved with --save (an Xpress record, JSON)."
        ),
    ] = None,
) -> None:
    """Play Xpress against a bot in the terminal, or go on with a saved game (--resume)."""
    from rummikub.core import RummikubError
    from rummikub.i18n import LANGUAGES, detect_language, translator
    from rummikub.xpress import get_bot

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    lang = lang or detect_language()
    if resume is not None:
        given = [f"--{n}" for n, v in (("bot", bot), ("seed", seed), ("name", name)) if v]
        t = translator(lang)
        if given:
            raise fail(t("cli.resume.no_options", options=f" {t('cli.or')} ".join(given)))
        match = _saved_match(resume, t)
        from rummikub.tui.xpress_app import XpressApp

        try:
            app = XpressApp.for_resume(match, lang=terminal_lang(lang), save=save or resume)
        except RummikubError as exc:
            raise fail(t("cli.cannot_resume", path=str(resume), why=error_words(exc, t))) from None
        _warm_in_background()
        app.run()
        return
    bot = bot or "expert"
    name = name or translator(lang)("setup.you")
    try:
        get_bot(bot)
    except RummikubError as exc:
        raise fail(str(exc)) from None
    from rummikub.tui.xpress_app import XpressApp

    actual_seed = seed if seed is not None else int(time.time() * 1000) % 1_000_000_007
    lang = terminal_lang(lang)
    app = XpressApp.for_play(bot=bot, seed=actual_seed, lang=lang, name=name, save=save)
    _warm_in_background()
    app.run()


def _warm_in_background() -> None:
    """Load the compiled playouts of the expert and the hint (the ``solver`` extra) while the
    player looks at the first position, so the first bot move or hint is not held up (the
    first run after an install compiles them); nothing without the extra."""
    try:
        from rummikub.solver import xpress as kernel
    except ImportError:  # without the solver extra the playouts run in Python
        return
    if kernel.available():
        threading.Thread(target=kernel.warm_up, name="rummikub-warm-up", daemon=True).start()


def _saved_match(path: Path, t: Translator) -> XpressMatch:
    """The match saved in ``path`` rebuilt to go on with, or a one-line error (in ``t``'s
    language) naming what is wrong with the file (missing, not a record, finished)."""
    from rummikub.core import RummikubError
    from rummikub.xpress import load_xpress_match, read_xpress

    def cannot(why: str) -> typer.Exit:
        return fail(t("cli.cannot_resume", path=str(path), why=why))

    if not path.exists():
        raise cannot(t("cli.resume.missing"))
    if path.is_dir():
        raise cannot(t("cli.resume.directory"))
    try:
        match = load_xpress_match(read_xpress(path))
    except UnicodeDecodeError:
        raise cannot(t("cli.resume.not_text")) from None
    except OSError as exc:
        raise cannot(str(exc.strerror or exc)) from None
    except RummikubError as exc:
        raise cannot(error_words(exc, t)) from None
    if match.over:
        raise cannot(t("cli.resume.over"))
    return match


@xpress_app.command("replay")
def replay(
    file: Annotated[Path, typer.Argument(help="An Xpress record (rummikub-xpress/1 JSON).")],
    game: Annotated[int, typer.Option(help="Which record of a .jsonl file (1 = first).")] = 1,
    lang: Annotated[
        str | None,
        typer.Option(
            help="Interface language (en, sv, de...: rummikub i18n languages); default: the "
            "system locale."
        ),
    ] = None,
    text: Annotated[
        bool, typer.Option("--text", help="Print the game as text (also when piped).")
    ] = False,
) -> None:
    """Watch a recorded Xpress game step by step in the terminal (prints it as text with
    --text or when the output is not a terminal)."""
    from rummikub.core import RecordError
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
            raise fail(translator(lang)("cli.records_held", game=game, count=len(docs)))
        rec = load_xpress(docs[game - 1])
    except RecordError as exc:
        raise fail(str(exc)) from None
    if text or not sys.stdout.isatty():
        for line in describe_xpress(rec, translator(lang)):
            typer.echo(line)
        return
    from rummikub.tui.xpress_app import XpressApp

    XpressApp.for_replay(rec, lang=terminal_lang(lang)).run()


def register(app: typer.Typer) -> None:
    app.add_typer(xpress_app, name="xpress")
