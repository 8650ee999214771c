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
    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = typer.prompt("New password", hide_input=True, confirmation_prompt=True)
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
    typer.echo(f"New password set for {account.name}; every session of the account has ended.")


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
                raise fail(f"rummikub accounts: there is no report {done}")
            typer.echo(f"Report {done} is marked handled.")
            return
        found = kept.reports(handled=every)
    finally:
        store.close()
    if not found:
        typer.echo("No reports." if every else "No reports to handle.")
        return
    for r in found:
        typer.echo(_report_text(r))


def _report_text(r: Report) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(r.at))
    state = " (handled)" if r.handled else ""
    return (
        f"#{r.id}{state}  room {r.room}  {when}\n"
        f"  by seat {r.seat} ({r.seat_name or 'seat now free'})"
        f" about seat {r.reported_seat} ({r.reported_name or 'seat now free'})\n"
        f"  reason: {r.reason}\n"
        f"  replay: /replay/{r.room}\n"
    )


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="accounts")
