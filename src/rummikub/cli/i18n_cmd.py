"""``rummikub i18n``: the languages of the interfaces, and the check of a catalogue
(``docs/i18n.md``)."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import fail

__all__ = ["register"]

app = typer.Typer(
    help="The interface languages: list them, check a catalogue.",
    epilog="Examples:\n  rummikub i18n languages\n  rummikub i18n check de",
)


@app.command(
    "check",
    epilog="Examples:\n  rummikub i18n check            # every language\n"
    "  rummikub i18n check de he      # German and Hebrew",
)
def check_cmd(
    langs: Annotated[
        list[str] | None,
        typer.Argument(metavar="[LANG]...", help="Languages to check (default: every one)."),
    ] = None,
) -> None:
    """Check catalogues against the English one: missing and extra keys, placeholders, plural
    forms, texts left in English. Exits with 1 when there is a problem."""
    from rummikub.i18n import LANGUAGES, translator
    from rummikub.i18n.check import check

    t = translator()
    chosen = list(langs or LANGUAGES)
    for lang in chosen:
        if lang not in LANGUAGES:
            raise fail(t("i18n.unknown", lang=lang, languages=", ".join(LANGUAGES)))
    problems = 0
    for lang in chosen:
        findings = check(lang)
        for f in findings:
            typer.echo(t(f"i18n.finding.{f.kind}", lang=f.lang, key=f.key, detail=f.detail))
        if not findings:
            typer.echo(t("i18n.complete", lang=lang))
        problems += len(findings)
    if problems:
        typer.echo(t("i18n.problems", count=problems), err=True)
        raise typer.Exit(1)


@app.command("languages", epilog="Examples:\n  rummikub i18n languages")
def languages_cmd() -> None:
    """List the shipped languages: the code (for --lang) and the name of each."""
    from rummikub.i18n import language_names

    for code, name in language_names().items():
        typer.echo(f"{code}  {name}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="i18n")
