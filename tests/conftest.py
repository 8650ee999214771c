"""Session set-up shared by every test directory."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

#: Property tests draw their examples from a fixed seed, so a run never fails on an example that
#: the previous run did not try; ``HYPOTHESIS_PROFILE=explore`` searches new examples instead.
settings.register_profile("deterministic", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


def pytest_configure(config: pytest.Config) -> None:
    """Load (or, on a fresh checkout, compile) the solver's kernels once, in the main process,
    before any test worker starts: every worker and every server a test starts then loads them
    from the disk cache, and no test's time limit depends on whether it happened to be the one
    that compiled them."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the main process did it
        return
    from rummikub.solver.warm import warm_up

    warm_up()
