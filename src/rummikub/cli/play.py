"""``rummikub play``: the full-screen terminal game (Textual)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated

import typer

from rummikub.core import RummikubError
from rummikub.i18n import LANGUAGES
from rummikub.solver.warm import warm_up

from .common import fail

__all__ = ["register"]


LANG_HELP = (
    f"Interface language ({', '.join(LANGUAGES)}); default: the system locale "
    "(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."
)


def play_command(
    lang: Annotated[str | None, typer.Option("--lang", help=LANG_HELP)] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Resume a saved game record.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the new game's deal.")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="File Ctrl+S saves to (default: the autosave file)."),
    ] = None,
    no_autosave: Annotated[
        bool,
        typer.Option("--no-autosave", help="Do not save after every turn to the data directory."),
    ] = False,
    no_hints: Annotated[
        bool, typer.Option("--no-hints", help="Disable the hint key (for --resume).")
    ] = False,
) -> None:
    """Play Rummikub in the terminal against bots and/or people (hot-seat)."""
    try:
        from rummikub.tui import RummikubApp, Session, autosave_path
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise fail(
            f"the terminal UI needs the 'tui' extra (pip install 'rummikub[tui]'): {exc}"
        ) from None
    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    autosave = None if no_autosave else autosave_path()
    session = None
    if resume is not None:
        try:
            session = Session.resume(resume, hints=not no_hints, save_path=save or resume)
        except (RummikubError, OSError) as exc:
            raise fail(f"cannot resume {resume}: {exc}") from None
    app = RummikubApp(lang=lang, session=session, seed=seed, save_path=save, autosave=autosave)
    # load the solver's compiled kernels while the player sets up the game, so the first bot
    # move or hint is not held up (the first run after an install compiles them)
    threading.Thread(target=warm_up, name="rummikub-warm-up", daemon=True).start()
    app.run()


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
