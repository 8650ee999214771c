"""``python -m rummikub``: the ``rummikub`` command (for a venv whose scripts are not on PATH,
e.g. ``cmd:/path/to/venv/bin/python -m rummikub engine expert``)."""

from rummikub.cli.main import main

main()
