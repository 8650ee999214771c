"""``rummikub assist``: the assistant at a real table. On a terminal it opens the assistant's
screen (type the table and the rack, see the best play laid out); with ``--text`` (or when the
output is not a terminal) it prints every view of the best play for ``--table``/``--rack``, and
with ``--json`` the same as the web API ``/api/assist`` answers."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    NotOpenedOption,
    RackOption,
    RulesOption,
    TableOption,
    fail,
    load_rules,
    needs_extra,
    require_solver,
    terminal_lang,
)
from .solve import check_tiles, position_error

if TYPE_CHECKING:
    from rummikub.i18n import Translator
    from rummikub.solver.assistant import Alternative

__all__ = ["register"]

#: how each mark shows in plain text
MARKS = {"rack": "*", "moved": "~", "kept": ""}


def _text(t: Translator, found: Sequence[Alternative], opened: bool) -> list[str]:
    if not found:
        return [t("assist.nothing") if opened else t("assist.no_opening")]
    lines: list[str] = []
    for alt in found:
        views = " · ".join(t(f"assist.view.{v}") for v in alt.views)
        tiles = " ".join(str(x) for x in alt.play)
        lines.append(f"{views}:")
        lines.append(
            "  "
            + t(
                "assist.summary",
                count=len(alt.play),
                tiles=tiles,
                value=alt.value,
                changes=alt.changes,
            )
        )
        lines.extend("    " + " ".join(x.label + MARKS[x.mark] for x in meld) for meld in alt.table)
        lines.append("")
    lines.append(f"* {t('assist.mark.rack')}   ~ {t('assist.mark.moved')}")
    return lines


def assist_command(
    table: TableOption = "",
    rack: RackOption = "",
    not_opened: NotOpenedOption = False,
    rules: RulesOption = "standard",
    text: Annotated[
        bool, typer.Option("--text", help="Print the best plays instead of opening the screen.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the best plays as JSON (as /api/assist).")
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            help="Language (en, sv, de...: rummikub i18n languages); default: the system locale."
        ),
    ] = None,
) -> None:
    """The best play at a real table: most tiles, most value, fewest changes, keeping the
    joker — each laid out as the new table, tiles from your rack marked * and moved ones ~."""
    from rummikub.core import RummikubError
    from rummikub.i18n import LANGUAGES, translator

    require_solver()
    if lang is not None and lang not in LANGUAGES:
        raise fail(f"unknown language {lang!r} ({', '.join(LANGUAGES)})")
    t = translator(lang)
    try:
        rule_obj = load_rules(rules)
    except RummikubError as exc:
        raise fail(position_error(exc, t)) from None
    check_tiles(table, rule_obj, "--table", t)
    check_tiles(rack, rule_obj, "--rack", t)
    opened = not not_opened
    if not (text or as_json) and sys.stdout.isatty():
        try:
            from rummikub.tui.assistant import AssistantApp
        except ImportError:
            raise needs_extra("tui") from None
        AssistantApp(
            table=table, rack=rack, opened=opened, rules=rule_obj, lang=terminal_lang(lang)
        ).run()
        return
    if not rack.strip():
        raise fail(t("cli.need_rack_assist"))
    from rummikub.solver.assistant import alternatives, read_position

    try:
        board, tiles = read_position(table, rack, rule_obj)
        found = alternatives(board, tiles, opened=opened, rules=rule_obj)
    except RummikubError as exc:
        raise fail(position_error(exc, t)) from None
    if as_json:
        typer.echo(json.dumps({"alternatives": [a.to_json() for a in found]}))
        return
    for line in _text(t, found, opened):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("assist")(assist_command)
