"""Session set-up shared by every test directory."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Load (or, on a fresh checkout, compile) the solver's kernels once, in the main process,
    before any test worker starts: every worker and every server a test starts then loads them
    from the disk cache, and no test's time limit depends on whether it happened to be the one
    that compiled them."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the main process did it
        return
    from rummikub.solver.warm import warm_up

    warm_up()
