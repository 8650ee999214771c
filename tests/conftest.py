"""Session set-up shared by every test directory."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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

#: Accounts' passwords hashed with Argon2id's least parameters, in this process and every server
#: process it starts (``rummikub.server.accounts.passwords``: the real ones cost a tenth of a CPU
#: second a hash, and the suite registers and logs in hundreds of times);
#: ``tests/server/test_account_rules.py`` checks the real parameters
os.environ.setdefault("RUMMIKUB_TEST_FAST_PASSWORDS", "1")

#: Servers start their bots' worker processes with the first job, not when they start
#: (``rummikub.server.work.pool``: most servers of the suite never run a job, and each start of
#: the processes costs most of a CPU second); ``tests/server/test_work.py`` checks the default
os.environ.setdefault("RUMMIKUB_TEST_LAZY_WORKERS", "1")

#: ``rummikub --lang`` sets this for the commands it runs (``rummikub.i18n.LANG_ENV``)
_LANG_ENV = "RUMMIKUB_LANG"


@pytest.fixture(autouse=True)
def _language_env_restored() -> Iterator[None]:
    """A test that runs ``rummikub --lang ...`` in its own process (Typer's runner) leaves the
    language set in ``os.environ``: the next test would speak it. Put it back after each."""
    before = os.environ.get(_LANG_ENV)
    yield
    if before is None:
        os.environ.pop(_LANG_ENV, None)
    else:
        os.environ[_LANG_ENV] = before


def pytest_configure(config: pytest.Config) -> None:
    """Load (or, on a fresh checkout, compile) the solver's kernels once, in the main process,
    before any test worker starts: every worker and every server a test starts then loads them
    from the disk cache, and no test's time limit depends on whether it happened to be the one
    that compiled them."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the main process did it
        return
    from rummikub.solver.warm import warm_up

    warm_up()


#: The measured seconds of the suite's long tests (``make durations`` rewrites it): the order
#: below puts them first, spread over the test processes.
DURATIONS = Path(__file__).with_name("durations.json")
#: A test at least this long (seconds, as measured) starts at the head of a process's queue.
LONG = 10.0


def spread_long_tests(items: list[Any], seconds: dict[str, float], workers: int) -> list[Any]:
    """``items`` reordered for ``pytest -n workers --dist worksteal``, which hands process
    ``k`` the ``k``-th of ``workers`` consecutive slices of the list (sized as its scheduler
    sizes them) and later moves the back half of the fullest queue to an idle process: the long
    tests go to the heads of the slices, the longest first to the slice with the least long
    work so far, so they all start at once instead of queueing behind each other in one
    process near the end; the other tests keep their order (a module's tests stay together,
    so its fixtures are made once a process)."""
    sizes: list[int] = []
    left = len(items)
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    long = sorted(
        (item for item in items if seconds.get(item.nodeid, 0.0) >= LONG),
        key=lambda item: -seconds[item.nodeid],
    )
    heads: list[list[Any]] = [[] for _ in range(workers)]
    work = [0.0] * workers
    for item in long:
        room = [k for k in range(workers) if len(heads[k]) < sizes[k]]
        k = min(room, key=lambda k: (work[k], k))
        heads[k].append(item)
        work[k] += seconds[item.nodeid]
    chosen = {id(item) for item in long}
    rest = [item for item in items if id(item) not in chosen]
    out: list[Any] = []
    for k in range(workers):
        take = sizes[k] - len(heads[k])
        out += heads[k] + rest[:take]
        rest = rest[take:]
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a test process of ``pytest -n N`` (N > 1), the long tests first (see
    :func:`spread_long_tests`); every process computes the same order, as xdist requires."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2 or not DURATIONS.exists():
        return
    seconds = json.loads(DURATIONS.read_text(encoding="utf-8"))
    items[:] = spread_long_tests(items, seconds, workers)
