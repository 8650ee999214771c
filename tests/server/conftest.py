"""Fixtures: the application in process on a fake clock (``app_server``, ``sqlite_app``), real
server processes on SQLite and PostgreSQL, and a Chromium for the browser tests."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio

from .helpers import Client, ServerProcess
from .inproc import Server, running

if TYPE_CHECKING:
    from rummikub.server.accounts.store import AccountStore

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
#: the Chromium the browser tests drive: ``RUMMIKUB_CHROMIUM``, else Chromium's headless shell
#: (Debian's ``chromium-headless-shell``: the same engine without the windowed browser's parts,
#: which the browser tests ran in 23% less CPU, 544 s against 711 s, on 2026-12-04), else the
#: full browser
CHROMIUM = os.environ.get("RUMMIKUB_CHROMIUM") or (
    HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else "/usr/bin/chromium"
)


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} is required in CI (.ci/run installs it)")
    pytest.skip(f"{what} not available")


@pytest.fixture(scope="session")
def pg_admin_url() -> str | None:
    return os.environ.get("RUMMIKUB_TEST_PG_URL")


def _fresh_pg_database(admin_url: str) -> tuple[str, str]:
    import psycopg

    name = f"rummikub_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}", name


def _drop_pg_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(
    request: pytest.FixtureRequest, tmp_path: Path, pg_admin_url: str | None
) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rummikub.db'}"
        return
    yield from _pg_database(pg_admin_url)


@pytest.fixture
def pg_url(pg_admin_url: str | None) -> Iterator[str]:
    """A fresh, empty PostgreSQL database (a cluster's nodes share one)."""
    yield from _pg_database(pg_admin_url)


def _pg_database(admin_url: str | None) -> Iterator[str]:
    """A fresh PostgreSQL database, dropped afterwards (a missing server: see ``_missing``)."""
    if not admin_url:
        _missing("PostgreSQL (RUMMIKUB_TEST_PG_URL)")
        return
    url, name = _fresh_pg_database(admin_url)
    try:
        yield url
    finally:
        _drop_pg_database(admin_url, name)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The Redis a cluster's nodes share (``RUMMIKUB_TEST_REDIS_URL``; .ci/run starts one)."""
    url = os.environ.get("RUMMIKUB_TEST_REDIS_URL")
    if not url:
        _missing("Redis (RUMMIKUB_TEST_REDIS_URL)")
    assert url is not None
    return url


@pytest.fixture(scope="session")
def redis_server() -> str:
    """The ``redis-server`` program, for a test that starts (and kills) a Redis of its own."""
    found = shutil.which("redis-server")
    if found is None:
        _missing("redis-server")
    assert found is not None
    return found


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rummikub.db'}"


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    srv = ServerProcess(db_url).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[ServerProcess]:
    srv = ServerProcess(sqlite_url).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server (SQLite) for the tests of a module that only ask it what its answers do not
    depend on having been asked before (refusals, error shapes, pages, limits of one request):
    started once for them, not once each."""
    db = tmp_path_factory.mktemp("shared") / "rummikub.db"
    srv = ServerProcess(f"sqlite:///{db}").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def seeded_server(sqlite_url: str) -> Iterator[ServerProcess]:
    """A server whose deals are fixed (``RUMMIKUB_TEST_SEED``): the n-th room it creates is
    dealt with seed ``7000 + n``, so a test may rely on what its deal holds. Its analyses
    sample 2 deals a position (``RUMMIKUB_ANALYSIS_SAMPLES``): the pages show a review in
    seconds, not what the default depth would judge."""
    env = {"RUMMIKUB_TEST_SEED": "7", "RUMMIKUB_ANALYSIS_SAMPLES": "2"}
    srv = ServerProcess(sqlite_url, env=env).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest_asyncio.fixture
async def app_server(db_url: str, tmp_path: Path) -> AsyncIterator[Server]:
    """The application in the test's event loop on a fake clock, its deals seeded
    (:mod:`.inproc`), on SQLite and on PostgreSQL."""
    async with running(tmp_path, db_url=db_url) as server:
        yield server


@pytest_asyncio.fixture
async def sqlite_app(tmp_path: Path) -> AsyncIterator[Server]:
    """The application in the test's event loop on a fake clock, its deals seeded
    (:mod:`.inproc`), on SQLite."""
    async with running(tmp_path) as server:
        yield server


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    made: list[Client] = []
    yield made
    for c in made:
        c.close()


#: how the browser tests start Chromium (headless, no sandbox: CI runs as root)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    """A headless Chromium driven by Playwright, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        _missing(f"Chromium at {CHROMIUM}")
    return CHROMIUM


@pytest.fixture
def accounts(db_url: str) -> Iterator[AccountStore]:
    """The accounts of a fresh database (SQLite, and PostgreSQL where available)."""
    from rummikub.server.accounts.store import AccountStore
    from rummikub.server.storage.store import Store

    store = Store(db_url)
    try:
        yield AccountStore(store.engine)
    finally:
        store.close()
