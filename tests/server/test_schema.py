"""The database schema: made by versioned migrations, equal to the models, upgraded in place
from a database of an older version, and made once when several servers start together."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine
from sqlalchemy.schema import CreateTable

from rummikub.server.storage.models import Base
from rummikub.server.storage.schema import HEAD, current_revision
from rummikub.server.storage.store import Store


def test_a_new_database_is_migrated_to_the_models(db_url: str) -> None:
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            assert current_revision(conn) == HEAD
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    finally:
        store.close()
    Store(db_url).close()  # opened again: nothing to do


#: the tables revisions 0003 and later add
LATER_TABLES = (
    "analyses",
    "leases",
    "accounts",
    "sessions",
    "ratings",
    "rating_history",
    "reports",
)


def test_a_database_of_an_older_version_is_upgraded_in_place(tmp_path: Path) -> None:
    """A database made before Xpress rooms (no ``rooms.game``) and before migrations."""
    path = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        # the tables as the older versions made them: today's models without rooms.game,
        # seats.account_id and the tables of later revisions, created directly (no migrations)
        for table in Base.metadata.sorted_tables:
            if table.name in LATER_TABLES:
                continue
            ddl = str(CreateTable(table).compile(engine))
            ddl = "\n".join(
                line for line in ddl.splitlines() if "\tgame " not in line
                and not (table.name == "seats" and "\taccount_id " in line)
            )  # fmt: skip
            conn.exec_driver_sql(ddl)
            for index in table.indexes:
                if "account_id" not in index.columns:
                    index.create(conn)
        conn.exec_driver_sql(
            "INSERT INTO rooms VALUES ('OLD1', 1.0, '{}', '{}', 7, 'finished', NULL, 2.0)"
        )
    engine.dispose()
    with sqlite3.connect(path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(rooms)")]
    assert "game" not in columns
    store = Store(f"sqlite:///{path}")
    try:
        room = store.load_room("OLD1", events=False)
        assert room is not None and room.game == "tiles" and room.seed == 7
        with store.engine.connect() as conn:
            assert current_revision(conn) == HEAD
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        store.save_analysis("OLD1", "1", "{}")  # the newest table is there too
    finally:
        store.close()


def _open(url: str, start: Any) -> None:
    start.wait()
    Store(url).close()


def test_servers_started_together_on_a_new_database_all_come_up(db_url: str) -> None:
    """Four processes open the same new database at the same moment: each gets a working
    schema (on PostgreSQL, without the migrations' lock, creating it at once fails with a
    duplicate key in ``pg_type``)."""
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(4)
    procs = [ctx.Process(target=_open, args=(db_url, start)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            assert current_revision(conn) == HEAD
    finally:
        engine.dispose()
