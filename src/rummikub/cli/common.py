"""Helpers shared by the subcommands."""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

# the command line imports what a command needs when it runs: `rummikub --help` starts fast
if TYPE_CHECKING:
    from rummikub.core import Rules, RummikubError
    from rummikub.games import AnyGame
    from rummikub.i18n import Translator

__all__ = [
    "EXTRAS",
    "NotOpenedOption",
    "RackOption",
    "RulesOption",
    "TableOption",
    "WorkersOption",
    "error_words",
    "extra_for_module",
    "fail",
    "game_option",
    "load_game_rules",
    "load_rules",
    "merge_jobs",
    "needs_extra",
    "progress_bar",
    "require_solver",
    "terminal_lang",
]

#: What each extra of the package adds, for the one-line message when it is missing.
EXTRAS = {
    "solver": "the solver and the bots (numpy, numba)",
    "tui": "the terminal game (Textual)",
    "server": "the web server (FastAPI, uvicorn, SQLAlchemy)",
    "ratings": "player ratings (OpenSkill)",
}


def needs_extra(extra: str) -> typer.Exit:
    """The one-line error for a command whose extra is not installed."""
    from rummikub.i18n import translator

    t = translator()
    what = t(f"extra.{extra}")
    return fail(t("cli.needs_extra", what=what, install=f"pip install 'rummikub[{extra}]'"), code=3)


#: The top-level modules each extra installs (a missing one names the extra to install).
EXTRA_MODULES = {
    "numpy": "solver",
    "numba": "solver",
    "llvmlite": "solver",
    "textual": "tui",
    "fastapi": "server",
    "uvicorn": "server",
    "sqlalchemy": "server",
    "psycopg": "server",
    "platformdirs": "server",
    "starlette": "server",
    "openskill": "ratings",
    "argon2": "server",
}


def extra_for_module(name: str | None) -> str | None:
    """The extra that installs the module ``name`` (``numpy.linalg`` -> ``solver``)."""
    if not name:
        return None
    return EXTRA_MODULES.get(name.split(".")[0])


def require_solver(
    levels: Iterable[str] = ("greedy",), game: str | AnyGame = "tiles", *, parts: Iterable[str] = ()
) -> None:
    """Raise the one-line error when one of the bot ``levels`` or ``parts`` (``judge``,
    ``hint``) of ``game`` plays with the solver (the game's ``needs_solver`` in the table of
    game parts) and the ``solver`` extra is not installed (checked before a long run starts,
    not in its middle)."""
    from rummikub.games import parts_of

    wanted = {f"bots.{level.strip()}" for level in levels} | set(parts)
    if wanted & parts_of(game).needs_solver and importlib.util.find_spec("numpy") is None:
        raise needs_extra("solver")


def merge_jobs(jobs: int | None, old: int | None, old_name: str, default: int) -> int:
    """The number of parallel jobs from ``--jobs/-j`` (the one name of parallelism in every
    command) and a command's former name for it (``--workers``, ``--bot-workers``: hidden,
    still read so old scripts keep working, with a note on standard error)."""
    if old is not None:
        from rummikub.i18n import translator

        typer.echo(translator()("cli.old_jobs", old=old_name), err=True)
        if jobs is None:
            return old
    return default if jobs is None else jobs


#: the hidden former name of ``--jobs`` in ``tournament`` and ``simulate``
WorkersOption = Annotated[
    int | None, typer.Option("--workers", "-w", hidden=True, help="Deprecated: use --jobs.")
]


def terminal_lang(lang: str | None) -> str:
    """The language of a terminal game asked for ``lang`` (``None``: the system locale's):
    one written right to left, which the terminal cannot show, gives English, and says so on
    standard error first (in that language and in English)."""
    from rummikub.i18n import terminal_language

    shown, notice = terminal_language(lang)
    if notice is not None:
        typer.echo(notice, err=True)
    return shown


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``message`` to standard error and return the exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


#: codes whose catalogue message is only a category ("These rules are not valid."): the error's
#: own text says more
GENERIC_CODES = frozenset(
    {
        "error",
        "generic",
        "illegal",
        "bad-rules",
        "bad-record",
        "bad-notation",
        "bad-answer",
        "bad-json",
        "bad-argument",
        "bad-message",
    }
)


def error_words(exc: RummikubError, t: Translator) -> str:
    """An error of the engine as the command line says it: in the catalogue's words in the
    language of ``t`` when its code has a message of its own (``player-count``,
    ``not-a-tile``...), else the error's own diagnosis."""
    if exc.code in GENERIC_CODES or not t.has(f"error.{exc.code}"):
        return str(exc)
    return t.error(exc)


def load_rules(spec: str) -> Rules:
    """The tile game's rules from a preset name, a JSON file path, or inline JSON."""
    from rummikub.core import Rules
    from rummikub.games import get_game

    rules = load_game_rules(get_game("tiles"), spec)
    if not isinstance(rules, Rules):  # pragma: no cover - the tile game's rules are Rules
        raise TypeError(f"not the tile game's rules: {rules!r}")
    return rules


def load_game_rules(game: AnyGame, spec: str) -> Any:
    """The rules of ``game`` from a preset name, a JSON file path, or inline JSON."""
    from rummikub.core import RulesError

    text = spec.strip()
    if text.startswith("{"):
        return game.rules_from_json(_json_object(text, "rules"))
    path = Path(text)
    if path.suffix == ".json" or path.exists():
        try:
            return game.rules_from_json(_json_object(path.read_text(encoding="utf-8"), spec))
        except OSError as exc:
            raise RulesError(f"cannot read rules file {spec}: {exc.strerror}") from exc
    presets = game.presets()
    if text not in presets:
        names = ", ".join(presets)
        raise RulesError(
            f"unknown preset {text!r} (presets: {names})",
            field="preset",
            params={"name": text, "presets": names},
        )
    return presets[text]


def _json_object(text: str, where: str) -> Any:
    from rummikub.core import RulesError

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError(f"{where}: not valid JSON ({exc.msg})") from None


def game_option(name: str) -> AnyGame:
    """The game named by ``--game`` (``tiles``, ``xpress``; ``rummikub`` is read as
    ``tiles``), or the one-line error."""
    from rummikub.core import RulesError
    from rummikub.games import get_game

    try:
        return get_game(name)
    except RulesError as exc:
        raise fail(str(exc)) from None


def dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def progress_bar(quiet: bool, unit: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A progress callback (done, total ``unit``) with ETA (Rich, on a terminal) and a function
    to close it."""
    if quiet or not sys.stderr.isatty():
        last = [0.0]

        def plain(done: int, total: int) -> None:
            now = time.monotonic()
            if not quiet and (done == total or now - last[0] > 10):
                last[0] = now
                typer.echo(f"{done}/{total} {unit}", err=True)

        return plain, lambda: None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), "ETA", TimeRemainingColumn(),
        console=Console(stderr=True), transient=False,
    )  # fmt: skip
    task = bar.add_task(unit, total=None)
    bar.start()

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return update, bar.stop


#: the options that give a position: a table, a rack, whether the player has opened, the rules
#: (``rummikub solve`` and ``rummikub assist``)
TableOption = Annotated[
    str, typer.Option("--table", "-t", help='The table, e.g. "R1 R2 R3 | K5 B5 O5".')
]
RackOption = Annotated[str, typer.Option("--rack", "-r", help='The rack, e.g. "R4 J K1".')]
NotOpenedOption = Annotated[
    bool, typer.Option("--not-opened", help="The player has not made his opening yet.")
]
RulesOption = Annotated[str, typer.Option(help="Preset name, rules JSON file, or inline JSON.")]
