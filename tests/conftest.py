"""Session set-up shared by every test directory."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

#: Property tests draw their examples from a fixed seed, so a run never fails on an example that
#: the previous run did not try; ``HYPOTHESIS_PROFILE=explore`` searches new examples instead.
#: No deadline and no "too slow" health check: an example's time is the machine's load, not a
#: property of the code (a busy machine made a 0.2 s deadline fail on 3 Dec 2026).
_CALM = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("deterministic", _CALM, derandomize=True)
settings.register_profile("explore", _CALM, derandomize=False)
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
