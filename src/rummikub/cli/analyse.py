"""``rummikub analyse``: every turn of a game judged by the winning chances it gave away against
the best move of its position; a file of many games (a tournament's records) gives a summary
per bot."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rummikub.core import RummikubError

if TYPE_CHECKING:
    from rummikub.bots.evaluation import Depth

from .common import fail, progress_bar, require_solver

__all__ = ["register"]


def _analyse_document(doc: Any, depth: Depth, samples: int | None) -> dict[str, Any]:
    """One decoded record's analysis as JSON, in a worker process of ``--jobs`` (which gets
    the record as JSON and reads it there)."""
    from rummikub.analysis import analyse
    from rummikub.games import load_any

    return analyse(load_any(doc), depth=depth, samples=samples).to_json()


def _move_words(t: dict[str, Any]) -> str:
    """What the mover did, in words."""
    if t["action"] in ("play", "place") and t["placed"]:
        return ("play " if t["action"] == "play" else "place ") + " ".join(t["placed"])
    return str({"end": "end the turn"}.get(t["action"], t["action"]))


def _best_words(t: dict[str, Any]) -> str:
    """The better move, in words."""
    kind = t.get("best_action", "")
    if t["best_placed"]:
        verb = "place" if kind == "place" else "play"
        return f"{verb} {' '.join(t['best_placed'])} ({t['best_points']} points)"
    return str({"end": "end the turn", "": "nothing placed"}.get(kind, kind))


def _chance(t: dict[str, Any]) -> str:
    chance = t.get("win_chance")
    if chance is None:
        return ""
    return f"  win {chance['before']:.0%} -> {chance['after']:.0%}"


def _report(analysis: dict[str, Any]) -> list[str]:
    players = analysis["players"]
    names = [p["name"] for p in players]
    lines = []
    for t in analysis["turns"]:
        found = t.get("findings", [])
        throw = t.get("throw")
        # an Xpress turn's loss is its throw's and its placement's together
        thrown = 0.0 if throw is None else float(throw.get("loss", 0.0))
        shaky = throw is not None and thrown > 2.0 and throw["kept"] != throw["best_kept"]
        if t["verdict"] in ("best", "forced") and not found and not shaky:
            continue
        loss = t.get("loss")
        cost = f"-{loss:.1f}%" if loss is not None else f"-{t['lost']}pt"
        line = (
            f"round {t['round'] + 1} turn {t['turn'] + 1:>3}  {names[t['player']]:<14} "
            f"{t['verdict']:<10} {cost:>7}  {_move_words(t)}{_chance(t)}"
        )
        placing = (loss or 0.0) - thrown
        if t["verdict"] not in ("best", "forced") and (throw is None or placing > 0.05):
            line += f"; better: {_best_words(t)}"
        if found:
            line += f"  [{', '.join(found)}]"
        lines.append(line)
        if shaky:
            assert throw is not None
            kept = " ".join(throw["kept"]) or "nothing"
            best = " ".join(throw["best_kept"]) or "nothing"
            chance = throw["win_chance"]
            lines.append(
                f"{'':>22}kept {kept} and threw the rest (win {chance['after']:.0%}, "
                f"{throw['expected']:.1f} points placed after the throw on average); keeping "
                f"{best} was better (win {chance['before']:.0%}, {throw['best_expected']:.1f} "
                f"points; -{thrown:.1f}%)"
            )
    lines.append("")
    head = f"{'player':<16} {'accuracy':>8} {'mean loss':>9}  "
    lines.append(head + " ".join(f"{v:>10}" for v in VERDICT_ORDER))
    for p in players:
        acc = "-" if p["accuracy"] is None else f"{p['accuracy']:.1f}"
        mean = "-" if p.get("loss") is None else f"{p['loss']:.1f}"
        counts = " ".join(f"{p['verdicts'][v]:>10}" for v in VERDICT_ORDER)
        lines.append(f"{p['name']:<16} {acc:>8} {mean:>9}  {counts}")
    return lines


VERDICT_ORDER = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")


def _by_bot(analyses: Sequence[dict[str, Any]]) -> list[str]:
    """Mean accuracy and blunders per game of every bot (or player) over many games."""
    acc: dict[str, list[float]] = {}
    blunders: dict[str, int] = {}
    games: dict[str, int] = {}
    for a in analyses:
        for p in a["players"]:
            who = p["bot"] or p["name"]
            games[who] = games.get(who, 0) + 1
            blunders[who] = blunders.get(who, 0) + p["verdicts"]["blunder"]
            if p["accuracy"] is not None:
                acc.setdefault(who, []).append(p["accuracy"])
    means = {who: sum(a) / len(a) for who, a in acc.items() if a}
    lines = [f"{'bot':<24} {'games':>6} {'accuracy':>9} {'blunders/game':>14}"]
    for who in sorted(games, key=lambda w: -means.get(w, -1.0)):
        shown = f"{means[who]:.1f}" if who in means else "-"
        per_game = blunders[who] / games[who]
        lines.append(f"{who:<24} {games[who]:>6} {shown:>9} {per_game:>14.2f}")
    return lines


def analyse_command(
    file: Annotated[
        Path, typer.Argument(help="A game record (.json) or many, one per line (.jsonl).")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One analysis object per record (JSON Lines).")
    ] = False,
    deep: Annotated[
        bool,
        typer.Option(
            "--deep",
            help="Play every sample to the end of the round, with three times the samples: "
            "steadier verdicts, about ten times slower.",
        ),
    ] = False,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            help="Deals sampled a position (default 32, or 96 with --deep): fewer is faster "
            "and the verdicts noisier.",
        ),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Worker processes for many records.")
    ] = 1,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")] = False,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Analyse many records on a Ray cluster: its address, 'auto' or 'local'. "
            "Needs the ray extra.",
        ),
    ] = None,
) -> None:
    """Judge every turn by the winning chances it gave away against the best move of its
    position (from the mover's own view): best, good, inaccuracy, mistake or blunder, each
    player's accuracy, and the better move."""
    from rummikub.games import iter_documents, load_any

    depth: Depth = "deep" if deep else "default"
    if jobs < 1:
        raise fail("--jobs must be at least 1")
    if samples is not None and samples < 1:
        raise fail("--samples must be at least 1")
    try:
        docs = [doc for _, doc in iter_documents(file)]
        records = [load_any(doc) for doc in docs]
    except RummikubError as exc:
        raise fail(f"{file}: {exc}") from None
    for game in {r.game.name for r in records}:
        require_solver((), game, parts=("judge",))
    from rummikub.analysis import analyse

    one = len(records) == 1
    progress, close = progress_bar(quiet or as_json, "turns" if one else "games")
    analyses: list[dict[str, Any]] = []
    try:
        if one:
            judged = analyse(records[0], depth=depth, progress=progress, samples=samples)
            analyses.append(judged.to_json())
        elif jobs == 1 and ray is None:
            for rec in records:
                analyses.append(analyse(rec, depth=depth, samples=samples).to_json())
                progress(len(analyses), len(records))
        else:
            from rummikub.bots.executors import open_executor

            pool, _ = open_executor(jobs, ray)
            with pool:
                futures = [pool.submit(_analyse_document, doc, depth, samples) for doc in docs]
                for fut in futures:  # in the file's order
                    analyses.append(fut.result())
                    progress(len(analyses), len(docs))
    except RummikubError as exc:
        close()
        raise fail(f"{file}: {exc}") from None
    close()
    if as_json:
        for a in analyses:
            typer.echo(json.dumps(a, separators=(",", ":")))
        return
    if len(analyses) == 1:
        for line in _report(analyses[0]):
            typer.echo(line)
        return
    for line in _by_bot(analyses):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("analyse")(analyse_command)
