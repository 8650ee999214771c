"""Creating and upgrading a server's database: versioned migrations (Alembic, in
``rummikub/server/migrations/versions``) run when a server opens its database.

The migrations run under a lock — on PostgreSQL an advisory lock, on a SQLite file an exclusive
lock on ``FILE.migrate.lock`` beside it (where the system has ``fcntl``) — so servers started
together on a new (or older) database take turns: the first creates or upgrades the schema, the
others find it done. A database made before migrations existed (its tables made directly by
older versions) is recognised by its tables and columns and stamped with the revision it matches
before the newer migrations run, so it is upgraded in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from .models import Base

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one server per SQLite file there
    fcntl = None

__all__ = ["HEAD", "LOCK_KEY", "current_revision", "migrate"]

MIGRATIONS = Path(__file__).parents[1] / "migrations"
#: the newest revision: what :func:`migrate` brings a database to
HEAD = "0007"
#: the PostgreSQL advisory lock the migrations run under (any fixed number; "rumk" in ASCII)
LOCK_KEY = 0x72756D6B


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def current_revision(conn: Connection) -> str | None:
    """The revision the database is at (``None``: no migration has run on it)."""
    return MigrationContext.configure(conn).get_current_revision()


def _legacy_revision(conn: Connection) -> str | None:
    """For a database made before migrations: the revision its tables match."""
    tables = set(inspect(conn).get_table_names())
    if "rooms" not in tables:
        return None  # a new database
    if "analyses" in tables:
        return "0003"
    columns = {c["name"] for c in inspect(conn).get_columns("rooms")}
    return "0002" if "game" in columns else "0001"


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    """An exclusive lock beside a SQLite file (nothing for other databases, or without
    ``fcntl``)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or fcntl is None:
        yield
        return
    try:
        handle = open(f"{path}.migrate.lock", "a")  # noqa: SIM115 - closed below
    except OSError:  # a read-only place: SQLite's own error says so when the file is opened
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


#: the tables of the first revision (``0001``)
BASE_TABLES = ("rooms", "seats", "events", "results", "heartbeat")


def _complete_base(conn: Connection) -> None:
    """Make the first revision's tables an older database lacks (a database an older version
    had only begun, or made by hand), so stamping it as that revision is true."""
    present = set(inspect(conn).get_table_names())
    missing = [Base.metadata.tables[n] for n in BASE_TABLES if n not in present]
    if missing:
        Base.metadata.create_all(conn, tables=missing)


def migrate(engine: Engine) -> None:
    """Bring the database of ``engine`` to :data:`HEAD` (creating it if it is empty)."""
    postgres = engine.dialect.name == "postgresql"
    with _file_lock(engine), engine.connect() as conn:
        if postgres:
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK_KEY})
            conn.commit()
        try:
            if current_revision(conn) is None:
                legacy = _legacy_revision(conn)
                if legacy is not None:
                    _complete_base(conn)
                    command.stamp(_config(conn), legacy)
                    conn.commit()
            command.upgrade(_config(conn), "head")
            conn.commit()
        finally:
            if postgres:
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
                conn.commit()
