"""``rummikub ratings``: the bots' ratings, and their calibration from tournaments."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, game_option

if TYPE_CHECKING:
    from rummikub.i18n import Translator
    from rummikub.ratings import Rating

__all__ = ["register"]

app = typer.Typer(help="Player ratings: the bots' fixed ratings and their calibration.")


def ratings_table(field: dict[str, Rating], t: Translator) -> list[str]:
    """The bots of one game, strongest first by their estimate ``mu``, each with that estimate
    on the players' scale (the order and the figures agree), ``mu`` and ``sigma``."""
    from rummikub.ratings import estimate

    lines = [f"{t('ratings.bot'):<10} {t('ratings.rating'):>6}   {'mu':>6}   {'sigma':>5}"]
    for level, r in sorted(field.items(), key=lambda kv: -kv[1].mu):
        lines.append(f"{level:<10} {estimate(r):>6}   {r.mu:6.2f}   {r.sigma:5.2f}")
    return lines


@app.command("bots")
def bots_command(
    game: Annotated[str, typer.Option(help="Which game: tiles or xpress.")] = "tiles",
) -> None:
    """The bots' fixed ratings (the shipped calibration), strongest first.

    Example: rummikub ratings bots --game xpress"""
    from rummikub.i18n import translator
    from rummikub.ratings import bot_ratings, calibration

    t = translator()
    name = game_option(game).name
    field = bot_ratings(name)
    if not field:
        raise fail(t("ratings.none", game=repr(name)))
    typer.echo(t("ratings.strongest_first", game=name))
    for line in ratings_table(field, t):
        typer.echo(f"  {line}")
    typer.echo(f"({t('ratings.note')})")
    games = t("count.games", count=calibration()["rated_games"])
    typer.echo(f"({t('ratings.from', games=games, made_by=calibration()['made_by'])})")


@app.command("calibrate")
def calibrate_command(
    results: Annotated[
        list[Path], typer.Argument(help="Tournament results files (rummikub tournament -o).")
    ],
    anchor: Annotated[str, typer.Option(help="The bot put at a new player's estimate.")] = "greedy",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the calibration here (JSON).")
    ] = None,
) -> None:
    """Rate the bots from their tournament games (every game in file order, the model the
    players are rated with) and print or write the calibration."""
    from rummikub.core import RummikubError
    from rummikub.i18n import translator
    from rummikub.ratings import calibrate, read_results
    from rummikub.ratings.calibrate import to_json

    try:
        games, tournaments = read_results(results)
        found = calibrate(games, anchor=anchor)
    except (RummikubError, OSError) as exc:
        raise fail(str(exc)) from None
    files = " ".join(shlex.quote(p.name) for p in results)
    doc = to_json(found, f"rummikub ratings calibrate {files} --anchor {anchor}", len(games),
                  tournaments)  # fmt: skip
    if out is not None:
        out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    t = translator()
    for game, field in found.items():
        typer.echo(t("ratings.strongest_first", game=game))
        for line in ratings_table(field, t):
            typer.echo(f"  {line}")
    typer.echo(f"({t('ratings.note')})")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="ratings")
