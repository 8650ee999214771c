"""``rummikub simulate``: play many seeded games between bots and write their records."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from rummikub.bots import get_bot
from rummikub.bots.play import play_match
from rummikub.core import RummikubError, match_record

from .common import dumps, fail, load_rules, require_solver
from .xpress import simulate_xpress

__all__ = ["register"]


def simulate(
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game.")] = 4,
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
            help="Comma-separated bot levels, cycled over the seats "
            "(default beginner; for xpress greedy,expert)."
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    game: Annotated[str, typer.Option(help="Which game: rummikub or xpress.")] = "rummikub",
) -> None:
    """Play complete games between built-in bots and write one record per line."""
    if game == "xpress":
        return simulate_xpress(games, seed, out, bots, quiet)
    if game != "rummikub":
        raise fail(f"unknown game {game!r} (rummikub, xpress)")
    bots = bots or "beginner"
    try:
        rule_obj = load_rules(rules)
        rule_obj.check_players(players)
        levels = [b.strip() for b in bots.split(",") if b.strip()]
        if not levels:
            raise fail("--bots needs at least one bot level")
        require_solver(levels)
        for level in levels:
            get_bot(level)
    except RummikubError as exc:
        raise fail(str(exc)) from None
    if games < 1:
        raise fail("--games must be at least 1")
    started = time.perf_counter()
    rounds = 0
    with out.open("w", encoding="utf-8") as fh:
        for i in range(games):
            game_seed = seed + i
            seat_bots = [
                get_bot(levels[k % len(levels)], seed=game_seed * 10 + k) for k in range(players)
            ]
            match = play_match(rule_obj, seat_bots, game_seed)
            rounds += len(match.rounds)
            fh.write(dumps(match_record(match)) + "\n")
            if not quiet and sys.stderr.isatty():
                typer.echo(f"\r{i + 1}/{games} games", err=True, nl=False)
    elapsed = time.perf_counter() - started
    if not quiet:
        typer.echo(
            f"\n{games} games ({rounds} rounds) in {elapsed:.1f}s "
            f"({games / elapsed:.1f} games/s) -> {out}",
            err=True,
        )


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate)
