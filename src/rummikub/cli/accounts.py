"""``rummikub accounts``: what an operator does to the server's accounts (there is no mail
server, so a forgotten password is reset here)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from rummikub.core import RummikubError

from .common import fail, needs_extra

__all__ = ["register"]

app = typer.Typer(help="The server's player accounts (for its operator).")


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
    try:
        from rummikub.server.accounts import AccountError
        from rummikub.server.accounts.store import AccountStore
        from rummikub.server.startup import default_url, open_store
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


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="accounts")
