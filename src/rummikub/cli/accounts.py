"""``rummikub accounts``: what an operator does to the server's accounts (there is no mail
server, so a forgotten password is reset here) and the players' reports of other players."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, needs_extra

__all__ = ["register"]

if TYPE_CHECKING:
    from rummikub.i18n import Translator
    from rummikub.server.storage.reports import Report

app = typer.Typer(help="The server's player accounts and reports (for its operator).")

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="The server's database URL (default: the SQLite file of `rummikub serve`).",
        envvar="RUMMIKUB_DB",
    ),
]


@app.command("reset-password")
def reset_password(
    name: Annotated[str, typer.Argument(help="The account's username (any case).")],
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="The server's database URL (default: the SQLite file of `rummikub serve`).",
            envvar="RUMMIKUB_DB",
        ),
    ] = None,
    password_stdin: Annotated[
        bool,
        typer.Option(
            "--password-stdin", help="Read the new password from standard input, not a prompt."
        ),
    ] = False,
) -> None:
    """Set a new password for an account and end all its sessions (tell the player the new
    password; he can change it after logging in)."""
    from rummikub.core import RummikubError

    try:
        from rummikub.server.accounts import AccountError
        from rummikub.server.accounts.store import AccountStore
        from rummikub.server.storage.startup import default_url, open_store
    except ImportError:
        raise needs_extra("server") from None
    from rummikub.i18n import translator

    t = translator()
    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = typer.prompt(
            t("cli.accounts.password_prompt"), hide_input=True, confirmation_prompt=True
        )
    try:
        store = open_store(db or default_url())
    except RummikubError as exc:
        raise fail(f"rummikub accounts: {exc}") from None
    try:
        account = AccountStore(store.engine).reset_password(name, password)
    except AccountError as exc:
        raise fail(f"rummikub accounts: {exc}") from None
    finally:
        store.close()
    typer.echo(t("cli.accounts.password_set", name=account.name))


@app.command("reports")
def reports(
    db: DbOption = None,
    every: Annotated[
        bool, typer.Option("--all", help="List the reports already handled too.")
    ] = False,
    done: Annotated[
        int | None, typer.Option("--done", help="Mark the report with this id handled.")
    ] = None,
) -> None:
    """List the players' reports not handled yet (who reported whom in which game, why, and
    where to replay it), or mark one handled (--done ID)."""
    from rummikub.core import RummikubError
    from rummikub.i18n import translator

    t = translator()
    try:
        from rummikub.server.storage.reports import ReportStore
        from rummikub.server.storage.startup import default_url, open_store
    except ImportError:
        raise needs_extra("server") from None
    try:
        store = open_store(db or default_url())
    except RummikubError as exc:
        raise fail(f"rummikub accounts: {exc}") from None
    try:
        kept = ReportStore(store.engine)
        if done is not None:
            if not kept.mark_handled(done):
                raise fail(f"rummikub accounts: {t('cli.accounts.no_report', id=done)}")
            typer.echo(t("cli.accounts.report_done", id=done))
            return
        found = kept.reports(handled=every)
    finally:
        store.close()
    if not found:
        typer.echo(t("cli.accounts.no_reports" if every else "cli.accounts.none_to_handle"))
        return
    for r in found:
        typer.echo(_report_text(r, t))


def _report_text(r: Report, t: Translator) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(r.at))
    free = t("cli.accounts.seat_free")
    head = t(
        "cli.accounts.report_head",
        id=r.id,
        handled=t("cli.accounts.handled") if r.handled else "",
        room=r.room,
        when=when,
    )
    by = t(
        "cli.accounts.report_by",
        seat=r.seat,
        name=r.seat_name or free,
        reported=r.reported_seat,
        reported_name=r.reported_name or free,
    )
    reason = t("cli.accounts.report_reason", reason=r.reason)
    replay = t("cli.accounts.report_replay", path=f"/replay/{r.room}")
    return f"{head}\n  {by}\n  {reason}\n  {replay}\n"


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="accounts")
