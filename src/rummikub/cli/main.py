"""Entry point of the ``rummikub`` command. Each subcommand lives in its own module and is
registered here with one line."""

from __future__ import annotations

import os
import re
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperOption

from . import (
    accounts,
    analyse,
    assist,
    bots,
    engine,
    i18n_cmd,
    play,
    puzzles,
    ratings,
    records,
    serve,
    simulate,
    solve,
    xpress,
)
from .common import extra_for_module, fail, needs_extra
from .helptext import finish_help

app = typer.Typer(
    name="rummikub",
    help="Rummikub: rules engine, solver, bots, and play in the terminal and the browser.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"rummikub {package_version()}")
        raise typer.Exit()


@app.callback(epilog="Examples:\n  rummikub play\n  rummikub solve --help")
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of every command (en, sv, he, de...: rummikub i18n languages); "
            "default: the system locale.",
        ),
    ] = None,
) -> None:
    """Rummikub: rules engine, solver, bots, and play in the terminal and the browser."""
    from rummikub.i18n import LANG_ENV, LANGUAGES

    if lang is not None:
        if lang not in LANGUAGES:
            raise fail(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
        os.environ[LANG_ENV] = lang


def package_version() -> str:
    """The installed package's version (``0.0.0+unknown`` when run from a source tree that
    was never installed)."""
    from importlib import metadata

    try:
        return metadata.version("rummikub")
    except metadata.PackageNotFoundError:
        return "0.0.0+unknown"


_show_type = TyperOption.display_type_rich


def _flag_type(self: TyperOption, ctx: Any) -> str | None:
    """No ``<bool>`` after a plain flag such as ``--json`` in the help (it takes no value;
    Typer 0.29 shows the type of every option)."""
    if self.is_flag and not self.secondary_opts:
        return None
    return _show_type(self, ctx)


TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign]

records.register(app)
accounts.register(app)
analyse.register(app)
assist.register(app)
bots.register(app)
engine.register(app)
i18n_cmd.register(app)
play.register(app)
puzzles.register(app)
ratings.register(app)
simulate.register(app)
serve.register(app)
solve.register(app)
xpress.register(app)
finish_help(app)


def main() -> None:
    try:
        app()
    except ModuleNotFoundError as exc:
        # a command reached a part of the package whose extra is not installed: say which
        # extra, in one line, instead of a traceback
        name = exc.name or _module_in(str(exc))
        extra = extra_for_module(name)
        if extra is None:
            raise
        try:
            raise needs_extra(extra)
        except typer.Exit as stop:
            sys.exit(stop.exit_code)


def _module_in(message: str) -> str | None:
    found = re.search(r"No module named '([\w.]+)'", message)
    return found.group(1) if found else None


if __name__ == "__main__":  # pragma: no cover
    main()
