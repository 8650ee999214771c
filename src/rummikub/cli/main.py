"""Entry point of the ``rummikub`` command. Each subcommand lives in its own module and is
registered here with one line."""

from __future__ import annotations

import typer

from . import play, records, serve, simulate, solve, xpress

app = typer.Typer(
    name="rummikub",
    help="Rummikub: rules engine, solver, bots, and play in the terminal and the browser.",
    no_args_is_help=True,
    add_completion=False,
)

records.register(app)
play.register(app)
simulate.register(app)
serve.register(app)
solve.register(app)
xpress.register(app)


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
