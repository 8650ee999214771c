"""``rummikub engine LEVEL``: a built-in bot served over ``rummikub-bot/1`` on standard input
and output, so that another program (a GUI, a tournament of another version of the project)
can run it as a process, as chess engines are run behind UCI."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from .common import error_words, fail, require_solver

__all__ = ["register"]

#: the levels that take the search options (--limit, --samples, --no-search)
SEARCHING = ("expert",)


def engine(
    level: Annotated[
        str,
        typer.Argument(help="The bot level to serve: random, beginner, greedy, strategic, expert."),
    ],
    seed: Annotated[
        int | None,
        typer.Option(help="The bot's seed (each game starts again from it; default: none)."),
    ] = None,
    limit: Annotated[
        float | None,
        typer.Option(
            help="expert: seconds of search per decision at most (default 1; the host's time "
            "limit lowers it to 0.8 x the limit)."
        ),
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(help="expert: sampled deals per decision at most (default 1000)."),
    ] = None,
    no_search: Annotated[
        bool,
        typer.Option("--no-search", help="expert: no ranking (the joker policy's biggest play)."),
    ] = False,
    name: Annotated[
        str | None,
        typer.Option(help="The name the engine gives in its ready line (default: the level)."),
    ] = None,
) -> None:
    """Serve a built-in bot over the rummikub-bot/1 protocol on standard input and output."""
    from rummikub.bots.engine import EngineSession, serve
    from rummikub.bots.registry import bot_levels, get_bot
    from rummikub.core import RummikubError
    from rummikub.i18n import translator

    try:
        if level not in bot_levels("tiles"):
            get_bot(level)  # the registry's error, naming the levels
        searching = limit is not None or samples is not None or no_search
        if searching and level not in SEARCHING:
            raise fail(
                f"--limit, --samples and --no-search are options of {', '.join(SEARCHING)}, "
                f"not of {level}"
            )
        if limit is not None and not limit > 0:
            raise fail(f"--limit must be a positive number of seconds, got {limit}")
        if samples is not None and samples < 1:
            raise fail(f"--samples must be at least 1, got {samples}")
        require_solver([level])
        make = _maker(level, limit, samples, no_search)
        session = EngineSession(make, seed=seed, name=name or level)
    except RummikubError as exc:
        raise fail(error_words(exc, translator())) from None
    status = serve(session, sys.stdin, sys.stdout, sys.stderr)
    if status:
        raise typer.Exit(status)


def _maker(level: str, limit: float | None, samples: int | None, no_search: bool) -> Any:
    """The bot factory ``seed -> bot`` of ``level`` with the options given."""
    from rummikub.bots.registry import get_bot

    if level != "expert" or (limit is None and samples is None and not no_search):
        return lambda seed: get_bot(level, seed)
    from rummikub.bots.expert import ExpertBot, ExpertParams

    base = ExpertParams()
    params = ExpertParams(
        limit=base.limit if limit is None else limit,
        max_samples=base.max_samples if samples is None else samples,
        strategy=base.strategy,
        rollout_search=not no_search,
    )
    return lambda seed: ExpertBot(seed, params)


def register(app: typer.Typer) -> None:
    app.command("engine")(engine)
