"""``rummikub solve``: the best play for a position, for people (``--table/--rack``) and for
programs (``--json``: one position on standard input; ``--jsonl``: one per line, streamed)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import (
    NotOpenedOption,
    RackOption,
    RulesOption,
    TableOption,
    dumps,
    fail,
    load_rules,
    require_solver,
)

if TYPE_CHECKING:
    from rummikub.core import Meld, Rules, RummikubError
    from rummikub.i18n import Translator
    from rummikub.solver import Position, Solution

__all__ = ["register"]


def _result(
    text: str, objective: str, time_limit: float | None, *, line: int | None = None
) -> tuple[dict[str, Any], bool]:
    """The result object for one JSON position, and whether it is an error. ``line``: the
    input line the position came from (``--jsonl``), named in an error."""
    from rummikub.core import RummikubError
    from rummikub.solver import Position, solve_position

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        # the line and column of the character the parser stopped at, as an editor counts
        # them (the column alone points into the wrong line of a multi-line document)
        row = exc.lineno if line is None else line + exc.lineno - 1
        where = f"line {row}, column {exc.colno}"
        return {"error": f"not valid JSON: {exc.msg} at {where}", **_at(line)}, True
    try:
        position = Position.from_json(data)
        sol = solve_position(position, objective=objective, time_limit=time_limit)
    except RummikubError as exc:
        error = {"error": str(exc), "code": exc.code, "params": exc.params}
        return {**error, **_at(line)}, True
    return sol.to_json(), False


def _at(line: int | None) -> dict[str, int]:
    return {} if line is None else {"line": line}


def meld_text(meld: Meld, rules: Rules) -> str:
    """A meld with each joker's role: ``R5 J=R6 J=R7`` in a run, ``K1 R1 J=1`` in a group."""
    from rummikub.core import IllegalPlayError, read_meld

    try:
        return " ".join(read_meld(meld, rules).labels())
    except IllegalPlayError:
        return str(meld)


def position_error(exc: RummikubError, t: Translator) -> str:
    """An error of a typed position (``--table``, ``--rack``, ``--rules``) in the language of
    ``t``: a refusal and a bad tile from the catalogue (one wording for a tile the rules do
    not have, naming their colours), a notation error with the token it stopped at."""
    from rummikub.core import Code, IllegalPlayError, NotationError, RulesError, UsageError

    if isinstance(exc, RulesError) and exc.params.get("field") == "preset":
        name, presets = exc.params.get("name"), exc.params.get("presets")
        return t("cli.unknown_preset", name=repr(name), presets=presets)
    if isinstance(exc, (IllegalPlayError, UsageError)) or exc.code == Code.NOT_A_TILE:
        return t.error(exc)
    if isinstance(exc, NotationError) and exc.token is not None:
        return f"{t.error(exc)} ({exc.token})"
    return str(exc)


def check_tiles(text: str, rules: Rules, what: str, t: Translator) -> None:
    """Refuse a word of ``--table``/``--rack`` that is not a tile of ``rules`` (``R14``,
    ``P5`` in a 4-colour game), with the one wording of a bad tile."""
    from rummikub.core import IllegalPlayError
    from rummikub.solver.assistant import check_tiles as check

    try:
        check(text, rules)
    except IllegalPlayError as exc:
        raise fail(f"{what}: {t.error(exc)}") from None


def _human(t: Translator, position: Position, sol: Solution) -> str:
    if not sol.play:
        if position.opened:
            return t("solve.no_play")
        return t("solve.no_opening", value=position.rules.opening_value)
    changed = t("solve.changed", count=sol.changes) if sol.changes else ""
    tiles = " ".join(str(tile) for tile in sol.play)
    lines = [t("solve.play", count=len(sol.play), tiles=tiles, value=sol.value, changed=changed)]
    lines.append(t("solve.new_table"))
    lines.extend(f"  {meld_text(m, position.rules)}" for m in sol.table.melds)
    if not sol.optimal:
        lines.append(t("solve.not_optimal"))
    return "\n".join(lines)


def solve_cmd(
    table: TableOption = "",
    rack: RackOption = "",
    not_opened: NotOpenedOption = False,
    rules: RulesOption = "standard",
    objective: Annotated[str, typer.Option(help="tiles (default), value or min-change.")] = "tiles",
    time_limit: Annotated[
        float | None,
        typer.Option("--time-limit", help="Stop after SECONDS (result may not be optimal)."),
    ] = None,
    json_mode: Annotated[
        bool, typer.Option("--json", help="Read one position (JSON) from stdin, write one result.")
    ] = False,
    jsonl_mode: Annotated[
        bool, typer.Option("--jsonl", help="Read one position per line, write one result per line.")
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            help="Language of the answer (en, sv, de...: rummikub i18n languages); default: the "
            "system locale."
        ),
    ] = None,
) -> None:
    """Find the best play: most rack tiles placed (ties: value, then fewest table changes)."""
    from rummikub.core import Rack, RummikubError, Table
    from rummikub.i18n import LANGUAGES, translator
    from rummikub.solver import OBJECTIVES, Position, solve_position
    from rummikub.solver.dp import small_in_python

    require_solver()
    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    t = translator(lang)
    if objective not in OBJECTIVES:
        choices = ", ".join(OBJECTIVES)
        raise fail(t("cli.unknown_objective", name=repr(objective), choices=choices))
    if time_limit is not None and time_limit <= 0:
        raise fail(t("cli.positive", option="--time-limit"))
    if json_mode and jsonl_mode:
        raise fail(t("cli.json_or_jsonl"))
    if json_mode:
        out, error = _result(sys.stdin.read(), objective, time_limit)
        typer.echo(dumps(out))
        if error:
            raise typer.Exit(1)
        return
    if jsonl_mode:
        failed: list[int] = []
        blank = read = 0
        for number, text in enumerate(sys.stdin, start=1):
            read = number
            if not text.strip():
                blank += 1  # no result for it: the results follow the positions
                continue
            out, error = _result(text, objective, time_limit, line=number)
            if error:
                failed.append(number)
            sys.stdout.write(dumps(out) + "\n")
            sys.stdout.flush()
        skipped = t("cli.blank_skipped", count=blank)
        if failed:
            lines = ", ".join(map(str, failed[:10])) + (", …" if len(failed) > 10 else "")
            said = t(
                "cli.positions_failed",
                count=len(failed),
                of=read - blank,
                lines=t("cli.input_lines", count=len(failed), lines=lines),
            )
            typer.echo("error: " + said + (f"; {skipped}" if blank else ""), err=True)
            raise typer.Exit(1)
        if blank:
            typer.echo(f"note: {skipped}", err=True)
        return
    if not rack.strip():
        raise fail(t("cli.need_rack"))
    try:
        rule_obj = load_rules(rules)
    except RummikubError as exc:
        raise fail(position_error(exc, t)) from None
    check_tiles(table, rule_obj, "--table", t)
    check_tiles(rack, rule_obj, "--rack", t)
    try:
        position = Position(Table.parse(table), Rack.parse(rack), not not_opened, rule_obj)
        from rummikub.solver import check_position

        check_position(position.table, position.rack.tiles, rule_obj)
        # one question: a small position is answered without loading the compiled kernels
        with small_in_python():
            sol = solve_position(position, objective=objective, time_limit=time_limit)
    except RummikubError as exc:
        raise fail(position_error(exc, t)) from None
    typer.echo(_human(t, position, sol))


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_cmd)
