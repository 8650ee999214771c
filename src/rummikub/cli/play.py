"""``rummikub play``: the full-screen terminal game (Textual)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import error_words, fail, load_rules, needs_extra, require_solver, terminal_lang

if TYPE_CHECKING:
    from rummikub.i18n import Translator
    from rummikub.tui import GameSetup, RummikubApp, Session

__all__ = ["register"]


LANG_HELP = (
    "Interface language (en, sv, de...: rummikub i18n languages); default: the system locale "
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
        bool,
        typer.Option("--no-hints", help="Disable the hint key (with --bots or --resume)."),
    ] = False,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Skip the new-game form: you against one bot per level given, e.g. "
            "greedy,expert (levels: random, beginner, greedy, strategic, expert).",
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules", help="With --bots: a rules preset, a rules JSON file, or inline JSON."
        ),
    ] = None,
) -> None:
    """Play Rummikub in the terminal against bots and/or people (hot-seat).

    Without --bots or --resume the new-game form opens first."""
    try:
        from rummikub.tui import RummikubApp, autosave_path
    except ImportError:  # depends on the installation
        raise needs_extra("tui") from None
    require_solver()  # the bots and the hint key play with the solver
    from rummikub.i18n import LANGUAGES, translator
    from rummikub.solver.warm import warm_up

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    lang = terminal_lang(lang)  # a language the terminal cannot show: English, said so
    t = translator(lang)
    if resume is not None and (bots is not None or rules is not None):
        given = [o for o, v in (("--bots", bots), ("--rules", rules)) if v is not None]
        options = f" {t('cli.or')} ".join(given)
        raise fail(t("cli.resume.no_options", options=options))
    if rules is not None and bots is None:
        raise fail(t("cli.rules_need_bots"))
    autosave = None if no_autosave else autosave_path()
    session = None
    if resume is not None:
        session = _resume(resume, t, hints=not no_hints, save_path=save or resume)
    elif bots is not None:
        from rummikub.tui import Session

        setup = setup_from_options(bots, rules, seed=seed, hints=not no_hints, lang=lang)
        session = Session.new(setup, save_path=save, autosave=autosave)
    app = RummikubApp(lang=lang, session=session, seed=seed, save_path=save, autosave=autosave)
    # load the solver's compiled kernels while the player sets up the game, so the first bot
    # move or hint is not held up (the first run after an install compiles them)
    threading.Thread(target=warm_up, name="rummikub-warm-up", daemon=True).start()
    app.run()
    typer.echo(quit_note(app))


def setup_from_options(
    bots: str, rules: str | None, *, seed: int | None, hints: bool, lang: str | None
) -> GameSetup:
    """The game ``--bots`` (and ``--rules``, ``--seed``, ``--no-hints``) describe: the player
    at the keyboard in the first seat, then one bot per level; a one-line error naming what is
    wrong otherwise."""
    from rummikub.core import RummikubError
    from rummikub.i18n import translator
    from rummikub.tui.session import GameSetup, Seat, bot_levels

    levels = [b.strip() for b in bots.split(",")]
    known = bot_levels()
    t = translator(lang)
    if not any(levels) or "" in levels:
        raise fail(t("cli.bots_split", given=repr(bots)))
    for level in levels:
        if level not in known:
            raise fail(t("cli.unknown_level", level=repr(level), levels=", ".join(known)))
    require_solver(levels)
    seats = [Seat(t("setup.you"))] + [
        Seat(t("setup.bot_name", n=i), "bot", level) for i, level in enumerate(levels, start=2)
    ]
    try:
        setup = GameSetup(tuple(seats), load_rules(rules or "standard"), seed, hints)
        setup.check()
    except RummikubError as exc:
        raise fail(f"--bots {bots}: {exc}") from None
    return setup


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


def _resume(path: Path, t: Translator, **kwargs: object) -> Session:
    """The saved game in ``path``, or a one-line error (in ``t``'s language) naming what is
    wrong with the file."""
    from rummikub.core import RummikubError
    from rummikub.tui import Session

    def cannot(why: str) -> typer.Exit:
        return fail(t("cli.cannot_resume", path=str(path), why=why))

    try:
        return Session.resume(path, **kwargs)
    except FileNotFoundError:
        raise cannot(t("cli.resume.missing")) from None
    except IsADirectoryError:
        raise cannot(t("cli.resume.directory")) from None
    except PermissionError:
        raise cannot(t("cli.resume.permission")) from None
    except UnicodeDecodeError:
        raise cannot(t("cli.resume.not_text")) from None
    except OSError as exc:
        raise cannot(str(exc.strerror or exc)) from None
    except RummikubError as exc:
        message = error_words(exc, t)
        if "format is None" in str(exc):
            message = t("cli.resume.not_saved_game")
        raise cannot(message) from None


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)
