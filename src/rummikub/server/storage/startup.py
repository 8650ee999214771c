"""Opening the database when the server starts, with an error that says what is wrong.

:func:`open_store` creates the :class:`~rummikub.server.storage.store.Store` (which creates the
directory, the file and the tables), then makes sure the database takes writes: SQLite opens a
file it may only read without complaint, and the server would fail only at the first move. Any
failure becomes :class:`DatabaseUnavailable`, whose message names the database (without its
password) and the cause, e.g. ``cannot open the database sqlite:////srv/x/rummikub.db: the
directory /srv/x is read-only``.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import false, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from rummikub.core import RummikubError

from .models import HeartbeatRow
from .store import Store, default_db_url, normalise_url

__all__ = [
    "BadClusterOptions",
    "DatabaseUnavailable",
    "check_cluster",
    "check_writable",
    "default_url",
    "open_store",
    "shown_url",
]


class DatabaseUnavailable(RummikubError):
    """The server's database cannot be opened or written."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"cannot open the database {url}: {reason}")


class BadClusterOptions(RummikubError):
    """``--broker`` with options a cluster cannot run on."""


def check_cluster(db_url: str | None, broker_url: str | None) -> None:
    """A node of a cluster needs a shared PostgreSQL database and a Redis broker."""
    if broker_url is None:
        return
    if not broker_url.startswith(("redis://", "rediss://", "unix://")):
        raise BadClusterOptions(
            f"--broker {shown_url(broker_url)}: a Redis URL is needed (redis://host:6379/0)"
        )
    if db_url is None or not normalise_url(db_url).startswith("postgresql"):
        raise BadClusterOptions(
            "--broker needs a database every node shares: --db postgresql://user@host/db"
        )


def shown_url(url: str) -> str:
    """``url`` with its password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL (``None`` for memory or another database)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def _read_only(path: Path) -> str | None:
    """Why ``path`` cannot be written (``None`` if it can, or it cannot be told): a read-only
    file system (which stops root as well) or its permissions."""
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return f"{path} is on a read-only file system"
        if not os.access(path, os.W_OK):
            return f"{path} is read-only"
    except OSError:
        return None
    return None


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _not_a_directory(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents (from the root down) that is not a directory."""
    for p in [*reversed(folder.parents), folder]:
        try:
            if p.exists() and not p.is_dir():
                return p
        except OSError:
            return None
    return None


def _sqlite_reason(path: Path, exc: BaseException) -> str:
    """What is wrong with the SQLite file ``path``, which failed with ``exc``."""
    folder = path.parent
    if isinstance(exc, OSError):  # the Store could not create the directory
        blocker = _not_a_directory(folder)
        if blocker is not None:
            return f"cannot create the directory {folder}: {blocker} is not a directory"
        existing = next((p for p in folder.parents if p.is_dir()), None)
        why = _read_only(existing) if existing is not None else None
        return f"cannot create the directory {folder}: {why or exc.strerror or exc}"
    if path.exists() and not path.is_file():
        return f"{path} is not a file"
    why = _read_only(path) if path.exists() else None
    if why is not None:
        return f"the file {why}"
    why = _read_only(folder)
    if why is not None:
        return f"the directory {why}"
    if not path.exists():
        return f"cannot create the file {path}: {_first_line(exc)}"
    return _first_line(exc)


def check_writable(engine: Engine) -> None:
    """Start a write that changes nothing: refused by a database that is read-only."""
    with engine.begin() as conn:
        conn.execute(update(HeartbeatRow).where(false()).values(at=0.0))


def default_url() -> str:
    """The default SQLite URL (its directory created), or :class:`DatabaseUnavailable`."""
    try:
        return default_db_url()
    except OSError as exc:
        where = exc.filename if exc.filename is not None else "the user data directory"
        raise DatabaseUnavailable(
            "(the default SQLite file)", f"cannot create the directory {where}: {exc.strerror}"
        ) from exc


def open_store(url: str | None) -> Store:
    """The opened store of ``url`` (``None``: the default SQLite file), or
    :class:`DatabaseUnavailable`."""
    target = url or default_url()
    store: Store | None = None
    try:
        store = Store(target)
        check_writable(store.engine)
        return store
    except (SQLAlchemyError, OSError) as exc:
        if store is not None:
            store.close()
        path = _sqlite_path(normalise_url(target))
        reason = _sqlite_reason(path, exc) if path is not None else _first_line(exc)
        raise DatabaseUnavailable(shown_url(target), reason) from exc
