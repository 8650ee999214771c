"""``rummikub analyse``: every turn of a game judged by the winning chances it gave away against
the best move of its position; a file of many games (a tournament's records) gives a summary
per bot."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rummikub.bots.evaluation import Depth
    from rummikub.i18n import Translator

from .common import fail, progress_bar, require_solver

__all__ = ["register"]


def _analyse_document(doc: Any, depth: Depth, samples: int | None) -> dict[str, Any]:
    """One decoded record's analysis as JSON, in a worker process of ``--jobs`` (which gets
    the record as JSON and reads it there)."""
    from rummikub.analysis import analyse
    from rummikub.games import load_any

    return analyse(load_any(doc), depth=depth, samples=samples).to_json()


#: the widest line of the text report (a terminal of 100 columns shows it unbroken)
WIDTH = 100
#: the indent of a turn's lines after its first
INDENT = " " * 6
#: a space the lines are not broken at (textwrap breaks only at ASCII whitespace)
NBSP = "\u00a0"


def _wrap(text: str) -> list[str]:
    """``text`` in lines of at most :data:`WIDTH` columns, the lines after the first
    indented."""
    lines = textwrap.wrap(
        text, WIDTH, subsequent_indent=INDENT, break_long_words=True, break_on_hyphens=False
    )
    return [line.replace(NBSP, " ") for line in lines]


def _pieces(pieces: Sequence[str], t: Translator) -> str:
    return " ".join(pieces) or t("text.nothing")


def _move_words(turn: dict[str, Any], t: Translator) -> str:
    """What the mover did, in words."""
    action = turn["action"]
    if action in ("play", "place") and turn["placed"]:
        return t(f"analyse.did.{action}", tiles=" ".join(turn["placed"]))
    key = f"analyse.did.{action}"
    return t(key) if t.has(key) else str(action)


def _best_words(turn: dict[str, Any], t: Translator) -> str:
    """The better move, in words."""
    kind = turn.get("best_action", "")
    if turn["best_placed"]:
        verb = "place" if kind == "place" else "play"
        tiles = " ".join(turn["best_placed"])
        return t(f"analyse.better.{verb}", tiles=tiles, count=turn["best_points"])
    key = f"analyse.better.{kind or 'nothing'}"
    return t(key) if t.has(key) else t("analyse.better.other", action=kind)


def _turn_lines(turn: dict[str, Any], names: Sequence[str], t: Translator) -> list[str]:
    """The lines of one turn worth a look (not the best move, or with a finding), or none."""
    found = turn.get("findings", [])
    throw = turn.get("throw")
    # an Xpress turn's loss is its throw's and its placement's together
    thrown = 0.0 if throw is None else float(throw.get("loss", 0.0))
    shaky = throw is not None and thrown > 2.0 and throw["kept"] != throw["best_kept"]
    if turn["verdict"] in ("best", "forced") and not found and not shaky:
        return []
    loss = turn.get("loss")
    cost = (
        t("analyse.lost_chance", loss=t.decimal(loss))
        if loss is not None
        else t("analyse.lost_points", count=turn["lost"])
    )
    verdict = t(f"verdict.{turn['verdict']}")
    nothing_lost = turn["lost"] == 0 if loss is None else round(loss, 1) == 0
    if turn["verdict"] in ("best", "forced") and nothing_lost:
        head = t("analyse.turn_even", round=turn["round"] + 1, turn=turn["turn"] + 1,
                 name=names[turn["player"]], verdict=verdict)  # fmt: skip
    else:
        head = t(
            "analyse.turn",
            round=turn["round"] + 1,
            turn=turn["turn"] + 1,
            name=names[turn["player"]],
            verdict=verdict,
            cost=cost,
        )
    parts = [head, _move_words(turn, t)]
    chance = turn.get("win_chance")
    if chance is not None:
        before, after = t.percent(chance["before"]), t.percent(chance["after"])
        # kept on one line: "win chance 54% → 52%"
        parts.append(t("analyse.chance", before=before, after=after).replace(" ", NBSP))
    placing = (loss or 0.0) - thrown
    if turn["verdict"] not in ("best", "forced") and (throw is None or placing > 0.05):
        parts.append(_best_words(turn, t))
    parts.extend(t(f"finding.{f}") if t.has(f"finding.{f}") else f for f in found)
    lines = _wrap("; ".join(parts))
    if shaky:
        assert throw is not None
        said = t(
            "analyse.throw",
            kept=_pieces(throw["kept"], t),
            after=t.percent(throw["win_chance"]["after"]),
            expected=t.decimal(throw["expected"]),
            best=_pieces(throw["best_kept"], t),
            before=t.percent(throw["win_chance"]["before"]),
            best_expected=t.decimal(throw["best_expected"]),
            loss=t.decimal(thrown),
        )
        lines.extend(_wrap(INDENT + said))
    return lines


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A table of plain text in at most :data:`WIDTH` columns: each column as wide as its
    widest cell, the first (the names) aligned left and the others right, two spaces between
    columns (one, and the names cut short with …, when that is too wide)."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    gap = 2 if sum(widths) + 2 * (len(widths) - 1) <= WIDTH else 1
    widths[0] = max(4, min(widths[0], WIDTH - sum(widths[1:]) - gap * (len(widths) - 1)))

    def line(cells: Sequence[str]) -> str:
        first = _short(cells[0], widths[0]).ljust(widths[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return (" " * gap).join([first, *rest]).rstrip()

    return [line(head), *(line(r) for r in rows)]


def _short(name: str, most: int = 24) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def _report(analysis: dict[str, Any], t: Translator) -> list[str]:
    """One game's analysis as text: the turns worth a look, then every player's accuracy,
    mean loss and verdicts."""
    players = analysis["players"]
    names = [p["name"] for p in players]
    lines = [line for turn in analysis["turns"] for line in _turn_lines(turn, names, t)]
    lines.append("")
    head = [t("analyse.player"), t("analyse.accuracy"), t("analyse.mean_loss")]
    head += [t(f"verdict.{v}") for v in VERDICT_ORDER]
    rows = []
    for p in players:
        acc = "-" if p["accuracy"] is None else t.decimal(p["accuracy"])
        mean = "-" if p.get("loss") is None else t.decimal(p["loss"])
        rows.append([_short(p["name"]), acc, mean, *(str(p["verdicts"][v]) for v in VERDICT_ORDER)])
    lines.extend(_table(head, rows))
    return lines


VERDICT_ORDER = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")


def _by_bot(analyses: Sequence[dict[str, Any]], t: Translator) -> list[str]:
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
    head = [t("analyse.bot"), t("analyse.games"), t("analyse.accuracy"), t("analyse.blunders")]
    rows = []
    for who in sorted(games, key=lambda w: -means.get(w, -1.0)):
        shown = f"{means[who]:.1f}" if who in means else "-"
        per_game = blunders[who] / games[who]
        rows.append([_short(who, 40), str(games[who]), shown, f"{per_game:.2f}"])
    return _table(head, rows)


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
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the report (en, sv, de...: rummikub i18n languages); "
            "default: the system locale.",
        ),
    ] = None,
) -> None:
    """Judge every turn by the winning chances it gave away against the best move of its
    position (from the mover's own view): best, good, inaccuracy, mistake or blunder, each
    player's accuracy, and the better move."""
    from rummikub.core import RecordError, RummikubError
    from rummikub.games import iter_documents, load_any
    from rummikub.i18n import LANGUAGES, translator

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    t = translator(lang)
    depth: Depth = "deep" if deep else "default"
    if jobs < 1:
        raise fail(t("cli.at_least", option="--jobs", count=1))
    if samples is not None and samples < 1:
        raise fail(t("cli.at_least", option="--samples", count=1))
    try:
        read = list(iter_documents(file))
    except RecordError as exc:  # it names the file (cannot read FILE: ...)
        raise fail(str(exc)) from None
    docs = [doc for _, doc in read]
    records = []
    for lineno, doc in read:
        where = f"{file}:{lineno}" if len(read) > 1 or file.suffix == ".jsonl" else str(file)
        try:
            records.append(load_any(doc))
        except RummikubError as exc:
            raise fail(f"{where}: {exc}") from None
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
    lines = _report(analyses[0], t) if len(analyses) == 1 else _by_bot(analyses, t)
    for line in lines:
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("analyse")(analyse_command)
