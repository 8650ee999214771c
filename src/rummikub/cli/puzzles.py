"""``rummikub puzzles make|verify`` (making and checking puzzle files) and ``rummikub puzzle``
(solving them: the terminal screen, or ``--show``/``--check``/``--hint``/``--solution`` for
scripts)."""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, load_rules, terminal_lang
from .helptext import EXAMPLES


def say(t: Callable[..., str], key: str, params: Mapping[str, object]) -> str:
    """``key`` of the catalogue with ``params`` (any names, as a message needs them)."""
    return t(key, **params)


if TYPE_CHECKING:
    from rummikub.core import RummikubError
    from rummikub.i18n import Translator
    from rummikub.puzzles import Puzzle, Verdict
    from rummikub.solver.assistant import MarkedTile

__all__ = ["register"]

puzzles_app = typer.Typer(
    name="puzzles",
    help="Make and verify puzzle files (positions where the table hides the answer).",
    no_args_is_help=True,
)


def _t(lang: str | None) -> Translator:
    from rummikub.i18n import LANGUAGES, translator

    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    return translator(lang)


def _words(exc: RummikubError, t: Translator) -> str:
    if t.has(f"error.{exc.code}") and exc.code not in ("error", "bad-notation", "bad-rules"):
        return t.coded(str(exc.code), exc.params)
    return str(exc)


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language of the output (en, sv, de...: rummikub i18n languages); "
        "default: the system's.",
    ),
]


@puzzles_app.command("make")
def make(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The puzzles file to write (.jsonl or .jsonl.gz).")
    ],
    source: Annotated[
        Path | None,
        typer.Option("--from", help="Game records (JSON or JSON Lines) to find puzzles in."),
    ] = None,
    self_play: Annotated[
        int | None,
        typer.Option("--self-play", help="Play this many bot games and find puzzles in them."),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="Seed of the first self-play game (game i: seed + i).")
    ] = 1,
    bots: Annotated[
        str, typer.Option(help="The two bot levels of the self-play games.")
    ] = "greedy,strategic",
    rules_spec: Annotated[
        str, typer.Option("--rules", help="Rules of the self-play games.")
    ] = "standard",
    per_game: Annotated[
        int, typer.Option(help="At most this many puzzles of each goal per game.")
    ] = 2,
    player: Annotated[
        str | None,
        typer.Option(help="With --missed: the player (name or seat) whose games these are."),
    ] = None,
    missed: Annotated[
        bool, typer.Option("--missed", help="Only the positions where --player missed going out.")
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress on standard error.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Find puzzles in game records or in self-play games and write them, each verified."""
    from rummikub.core import RummikubError
    from rummikub.puzzles.make import (
        MakeOptions,
        missed_go_outs,
        puzzles_from_records,
        self_play_puzzles,
    )
    from rummikub.puzzles.verify import verify, write_puzzles

    t = _t(lang)
    if (source is None) == (self_play is None):
        raise fail(t("puzzle.cli.from_or_self_play"))
    if missed and (source is None or player is None):
        raise fail(t("puzzle.cli.missed_needs"))
    if jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}")
    options = MakeOptions(per_game=per_game)
    started = time.perf_counter()
    found = []
    try:
        if source is not None:
            records = _records(source)
            if missed:
                from rummikub.core import load_record

                assert player is not None
                for data in records:
                    found.extend(missed_go_outs(load_record(data), player))
            else:
                found.extend(puzzles_from_records(records, options=options, jobs=jobs))
        else:
            assert self_play is not None
            rules = load_rules(rules_spec)
            levels = tuple(b.strip() for b in bots.split(",") if b.strip())
            for i, batch in self_play_puzzles(
                self_play, seed=seed, rules=rules, levels=levels, options=options, jobs=jobs
            ):
                found.extend(batch)
                if not quiet:
                    typer.echo(
                        t("puzzle.cli.progress", game=i + 1, games=self_play, count=len(found)),
                        err=True,
                    )
        for p in found:
            verify(p, full=True)
    except RummikubError as exc:
        raise fail(_words(exc, t)) from exc
    n = write_puzzles(found, out)
    goals = Counter(p.goal.value for p in found)
    typer.echo(
        t(
            "puzzle.cli.wrote",
            count=n,
            path=str(out),
            goals=", ".join(f"{g} {k}" for g, k in sorted(goals.items())),
            seconds=t.decimal(time.perf_counter() - started),
        )
    )


def _records(path: Path) -> list[dict[str, object]]:
    from rummikub.core import NotationError

    text = path.read_text(encoding="utf-8")
    stripped = text.strip()
    if not stripped:
        return []
    try:
        if stripped.startswith("{") and "\n{" not in stripped:
            return [json.loads(stripped)]
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise NotationError(f"{path}: not valid JSON: {exc.msg}") from exc


@puzzles_app.command("verify")
def verify_cmd(
    path: Annotated[Path, typer.Argument(help="A puzzles file (.jsonl or .jsonl.gz).")],
    full: Annotated[
        bool, typer.Option("--full", help="Also re-solve every puzzle (slower).")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Check every puzzle of a file: a bad one is refused with its id and the reason."""
    from rummikub.core import RummikubError
    from rummikub.puzzles.verify import load_puzzles

    t = _t(lang)
    try:
        puzzles = load_puzzles(path, full=full)
    except RummikubError as exc:
        raise fail(_words(exc, t)) from exc
    except OSError as exc:
        raise fail(str(exc)) from exc
    typer.echo(t("puzzle.cli.verified", count=len(puzzles)))


def puzzle(
    ident: Annotated[
        str | None, typer.Argument(help="A puzzle id to open (default: one near your rating).")
    ] = None,
    show: Annotated[
        str | None, typer.Option("--show", help="Print the puzzle ID and exit.")
    ] = None,
    check: Annotated[
        str | None, typer.Option("--check", help="Check --answer for the puzzle ID and exit.")
    ] = None,
    answer: Annotated[
        str | None,
        typer.Option(
            "--answer", help='A play: "TILES -> TABLE", e.g. "R4 -> R1 R2 R3 R4 | K5 B5 O5".'
        ),
    ] = None,
    hint_id: Annotated[
        str | None, typer.Option("--hint", help="Print a hint for the puzzle ID and exit.")
    ] = None,
    solution: Annotated[
        str | None, typer.Option("--solution", help="Print the solution of the puzzle ID.")
    ] = None,
    daily: Annotated[
        bool, typer.Option("--daily", help="Today's puzzle (the same for everyone).")
    ] = False,
    streak: Annotated[
        bool, typer.Option("--streak", help="Streak mode: harder until the first miss.")
    ] = False,
    theme: Annotated[
        str | None, typer.Option("--theme", help="Only puzzles of this theme or goal.")
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", help="A puzzles file instead of the shipped set.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --show/--check: JSON output.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Solve puzzles: rated, daily, streaks, by theme; or show and check one from a script."""
    from rummikub.core import Play, RummikubError
    from rummikub.puzzles.check import check_answer, hint, solution_layout
    from rummikub.puzzles.rating import daily as daily_puzzle
    from rummikub.puzzles.verify import load_puzzles, shipped

    t = _t(lang)
    try:
        puzzles = tuple(load_puzzles(file)) if file is not None else shipped()
    except RummikubError as exc:
        raise fail(_words(exc, t)) from exc
    by_id = {p.id: p for p in puzzles}

    def find(i: str) -> Puzzle:
        if i not in by_id:
            raise fail(t("error.puzzle-unknown", id=i))
        return by_id[i]

    if show is not None:
        p = find(show)
        typer.echo(
            json.dumps(p.to_json() | {"solutions": len(p.solutions)}) if as_json else describe(p, t)
        )
        return
    if check is not None:
        p = find(check)
        if answer is None:
            raise fail(t("puzzle.cli.answer_needed"))
        try:
            play = Play.parse(answer)
        except RummikubError as exc:
            raise fail(_words(exc, t)) from exc
        verdict = check_answer(p, play)
        if as_json:
            typer.echo(json.dumps(verdict.to_json()))
        else:
            typer.echo(verdict_words(verdict, t))
        raise typer.Exit(0 if verdict.solved else 1)
    if hint_id is not None:
        p = find(hint_id)
        for level in (1, 2):
            h = hint(p, level)
            typer.echo(say(t, h.key, h.params))
        return
    if solution is not None:
        p = find(solution)
        typer.echo(layout_words(solution_layout(p), t))
        return
    chosen = find(ident) if ident is not None else None
    if daily:
        chosen = daily_puzzle(puzzles, dt.date.today())
    if not sys.stdout.isatty():
        # no screen (a pipe, a script): print the puzzle the screen would open
        if chosen is None:
            try:
                chosen = _first_puzzle(puzzles, streak=streak, theme=theme)
            except RummikubError as exc:
                raise fail(_words(exc, t)) from exc
        typer.echo(describe(chosen, t))
        return
    from rummikub.tui.puzzle_app import PuzzleApp

    try:
        screen = PuzzleApp(
            puzzles, first=chosen, streak=streak, theme=theme, lang=terminal_lang(lang), daily=daily
        )
    except RummikubError as exc:  # an unknown theme, an unreadable puzzle file of the player
        raise fail(_words(exc, t)) from exc
    screen.run()


def _first_puzzle(puzzles: Sequence[Puzzle], *, streak: bool, theme: str | None) -> Puzzle:
    """The puzzle the screen opens with: a streak's first, or one near the player's rating."""
    from rummikub.puzzles.rating import next_puzzle, streak_puzzle
    from rummikub.puzzles.store import PlayerStore

    store = PlayerStore.open()
    salt = str(len(store.history))
    if streak:
        return streak_puzzle(puzzles, 0, theme=theme, salt=salt)
    return next_puzzle(puzzles, store.rating.rating, done=store.done(), theme=theme, salt=salt)


def describe(p: Puzzle, t: Translator) -> str:
    """A puzzle for a person: its goal, the table and the rack."""
    from rummikub.puzzles.model import Goal

    lines = [
        t("puzzle.title", id=p.id, rating=f"{p.rating:.0f}"),
        goal_words(p, t),
        t("puzzle.table"),
    ]
    lines += [f"  {i + 1}. {m}" for i, m in enumerate(p.table.melds)] or ["  -"]
    lines.append(t("puzzle.rack", rack=str(p.rack)))
    if p.themes and p.goal is not Goal.OPEN:
        lines.append(t("puzzle.themes", themes=", ".join(t(f"puzzle.theme.{x}") for x in p.themes)))
    return "\n".join(lines)


def goal_words(p: Puzzle, t: Translator) -> str:
    return t(f"puzzle.goal.{p.goal.value}", count=p.target, value=p.rules.opening_value)


def verdict_words(verdict: Verdict, t: Translator) -> str:
    if verdict.solved:
        return t("puzzle.solved", count=verdict.placed)
    params = dict(verdict.params)
    if verdict.code == "invalid-meld" and "number" not in params and verdict.meld is not None:
        params["number"] = verdict.meld + 1
    return t("puzzle.wrong", why=t.coded(verdict.code, params))


def layout_words(layout: Sequence[Sequence[MarkedTile]], t: Translator) -> str:
    """The solution's table, one set a line, rack tiles as ``+R4`` and moved ones as ``*R5``."""
    marks = {"rack": "+", "moved": "*", "kept": ""}
    lines = [t("puzzle.solution")]
    for meld in layout:
        lines.append("  " + " ".join(marks[m.mark] + m.label for m in meld))
    lines.append(t("puzzle.solution_key"))
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    app.add_typer(puzzles_app, name="puzzles")
    app.command("puzzle")(puzzle)
    EXAMPLES.setdefault(
        "puzzles make",
        (
            "rummikub puzzles make --self-play 300 --seed 1 -j 2 --out puzzles.jsonl.gz",
            "rummikub puzzles make --from games.jsonl --out puzzles.jsonl",
            "rummikub puzzles make --from my_game.json --player Ann --missed --out mine.jsonl",
        ),
    )
    EXAMPLES.setdefault("puzzles", ("rummikub puzzles make --self-play 50 --seed 7 --out p.jsonl",))
    EXAMPLES.setdefault("puzzles verify", ("rummikub puzzles verify --full puzzles.jsonl",))
    EXAMPLES.setdefault(
        "puzzle",
        (
            "rummikub puzzle                                # a rated puzzle near your rating",
            "rummikub puzzle --daily                        # today's puzzle",
            "rummikub puzzle --streak --theme split-run",
            "rummikub puzzle --show 1a2b3c4d",
            'rummikub puzzle --check 1a2b3c4d --answer "R4 -> R1 R2 R3 R4"',
        ),
    )
