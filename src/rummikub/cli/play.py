"""``rummikub play``: the full-screen terminal game (Textual)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummikub.core import RummikubError
from rummikub.i18n import LANGUAGES

from .common import fail, needs_extra, require_solver

if TYPE_CHECKING:
    from rummikub.tui import RummikubApp, Session

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
        from rummikub.tui import RummikubApp, autosave_path
    except ImportError:  # depends on the installation
        raise needs_extra("tui") from None
    require_solver()  # the bots and the hint key play with the solver
    from rummikub.solver.warm import warm_up

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    autosave = None if no_autosave else autosave_path()
    session = None
    if resume is not None:
        session = _resume(resume, hints=not no_hints, save_path=save or resume)
    app = RummikubApp(lang=lang, session=session, seed=seed, save_path=save, autosave=autosave)
    # load the solver's compiled kernels while the player sets up the game, so the first bot
    # move or hint is not held up (the first run after an install compiles them)
    threading.Thread(target=warm_up, name="rummikub-warm-up", daemon=True).start()
    app.run()
    typer.echo(quit_note(app))


def quit_note(app: RummikubApp) -> str:
    """What to tell the player when the app is closed: where the game is saved and how to go
    on with it (nothing when no game was started or the match is over)."""
    session = app.session
    if session is None or session.match.over:
        return ""
    path = session.autosave or session.save_path
    if path is None or not path.exists():
        return ""
    return app.t("game.quit_saved", path=str(path))


def _resume(path: Path, **kwargs: object) -> Session:
    """The saved game in ``path``, or a one-line error naming what is wrong with the file."""
    from rummikub.tui import Session

    try:
        return Session.resume(path, **kwargs)
    except FileNotFoundError:
        raise fail(f"cannot resume {path}: there is no such file") from None
    except IsADirectoryError:
        raise fail(f"cannot resume {path}: it is a directory, not a saved game") from None
    except PermissionError:
        raise fail(f"cannot resume {path}: permission denied") from None
    except UnicodeDecodeError:
        raise fail(f"cannot resume {path}: not a text file (a saved game is JSON)") from None
    except OSError as exc:
        raise fail(f"cannot resume {path}: {exc.strerror or exc}") from None
    except RummikubError as exc:
        message = str(exc)
        if "format is None" in message:
            message = 'not a saved game (a rummikub-game/1 record has a "format" field)'
        raise fail(f"cannot resume {path}: {message}") from None


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
