"""The ``rummikub`` command line (Typer)."""
