"""``rummikub serve``: start the game server and print the address to open."""

from __future__ import annotations

import typer

from .common import needs_extra, require_solver

__all__ = ["register"]


def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", help="Address to listen on (0.0.0.0 to let other machines connect)."
    ),
    port: int = typer.Option(8000, "--port", "-p", help="TCP port."),
    db: str | None = typer.Option(
        None,
        "--db",
        help="Database URL (default: a SQLite file "
        "in your data directory; e.g. postgresql://user@host/db).",
        envvar="RUMMIKUB_DB",
    ),
) -> None:
    """Start the game server; open the printed address in a browser to play."""
    try:
        from rummikub.server import serve as run
        from rummikub.server.storage import default_db_url
    except ImportError:  # the extra is not installed (tests/test_install.py)
        raise needs_extra("server") from None
    require_solver()  # the rooms seat solver bots
    url = db or default_db_url()

    def ready(address: str) -> None:
        typer.echo(f"Rummikub is running. Open {address} in your browser to play.")
        typer.echo(f"Games are stored in {url.split('@')[-1]}. Press Ctrl+C to stop.")

    run(host, port, db_url=url, on_ready=ready)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
