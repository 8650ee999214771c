"""``rummikub simulate``: play many seeded games between bots and write their records."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import (
    WorkersOption,
    error_words,
    fail,
    game_option,
    load_game_rules,
    merge_jobs,
    require_solver,
)

__all__ = ["register"]

#: the bots a game's simulation seats when --bots is not given
DEFAULT_BOTS = {"tiles": "beginner", "xpress": "greedy,expert"}


def simulate(
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Players per game (default: 4; xpress: 2)."),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 1,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Output file: one game record (JSON) per line.")
    ] = Path("games.jsonl"),
    rules: Annotated[
        str, typer.Option(help="Preset name, rules JSON file, or inline JSON.")
    ] = "standard",
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bot levels, cycled over the seats (one per seat: they rotate "
            "seats game by game). Default beginner; for xpress greedy,expert."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    game: Annotated[str, typer.Option(help="Which game: tiles or xpress.")] = "tiles",
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help="Games played at once in local processes (default 1)."),
    ] = None,
    workers: WorkersOption = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Play the games on a Ray cluster: its address, 'auto' or 'local'. Needs the "
            "ray extra.",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Keep the records already in --out (a run cut short) and play the rest.",
        ),
    ] = False,
) -> None:
    """Play complete games between built-in bots and write one record per line."""
    from rummikub.bots.simulate import resume_point, write_records
    from rummikub.bots.simulate import simulate as run_simulation
    from rummikub.core import RummikubError
    from rummikub.i18n import translator

    the_game = game_option(game)
    levels = [b.strip() for b in (bots or DEFAULT_BOTS.get(the_game.name, "random")).split(",")]
    levels = [b for b in levels if b]
    t = translator()
    if not levels:
        raise fail(t("cli.bots_needed"))
    if games < 1:
        raise fail(t("cli.at_least", option="--games", count=1))
    jobs = merge_jobs(jobs, workers, "--workers", 1)
    if jobs < 1:
        raise fail(t("cli.at_least", option="--jobs", count=1))
    try:
        rule_obj = load_game_rules(the_game, rules)
        seats = (
            players if players is not None else min(4, the_game.player_counts(rule_obj).stop - 1)
        )
        require_solver(levels, the_game)
        done = resume_point(out, seed=seed, games=games) if resume else 0
        records = run_simulation(
            the_game, rule_obj, levels, games=games, seed=seed, players=seats, start=done,
            workers=jobs, ray=ray,
        )  # fmt: skip
        started = time.perf_counter()
        rounds = [0]

        def progress() -> Iterator[dict[str, Any]]:
            for i, rec in enumerate(records, done + 1):
                rounds[0] += len(rec["rounds"])
                if not quiet and sys.stderr.isatty():
                    typer.echo(f"\r{i}/{t('count.games', count=games)}", err=True, nl=False)
                yield rec

        count = write_records(progress(), out, append=resume)
    except RummikubError as exc:
        raise fail(error_words(exc, translator())) from None
    elapsed = time.perf_counter() - started
    if not quiet:
        said = t(
            "cli.simulated_after" if done else "cli.simulated",
            game=the_game.name,
            games=t("count.games", count=count),
            rounds=t("count.rounds", count=rounds[0]),
            seconds=t.decimal(elapsed),
            rate=t.decimal(count / max(elapsed, 1e-9)),
            out=out,
            count=done,
        )
        typer.echo("\n" + said, err=True)


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)
