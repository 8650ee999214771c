"""Revision 0006 on a database of revision 0005 that has accounts already, two of them with
names that look alike (allowed then): both keep their names and logins, the first keeps the
look, and nobody new can take a third. Revision 0007 on a database of revision 0006: its
accounts get their puzzle attempts."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from rummikub.puzzles.rating import Rating as Glicko
from rummikub.server.accounts import AccountCode, AccountError, hash_password, name_key
from rummikub.server.accounts.store import AccountStore
from rummikub.server.storage.schema import HEAD, _config, current_revision
from rummikub.server.storage.store import Store, normalise_url

PASSWORD = "correct horse battery"
T0 = 1_800_000_000.0


def test_accounts_of_revision_5_get_their_name_keys(db_url: str) -> None:
    engine = create_engine(normalise_url(db_url))
    with engine.connect() as conn:
        command.upgrade(_config(conn), "0005")
        conn.commit()
        for name in ("alice", "\u0430lice", "Bob"):  # the second: a Cyrillic а
            conn.execute(
                text(
                    "INSERT INTO accounts (name, name_key, password_hash, created_at, failures, "
                    "locked_until) VALUES (:n, :k, :h, 0, 0, 0)"
                ),
                {"n": name, "k": name_key(name), "h": hash_password(PASSWORD)},
            )
        conn.commit()
    engine.dispose()
    store = Store(db_url)  # upgrades to the newest revision
    try:
        with store.engine.connect() as conn:
            assert current_revision(conn) == HEAD
            owners = conn.execute(text("SELECT account_id FROM account_names")).scalars().all()
        assert sorted(owners) == [1, 3]  # alice and Bob; the later look-alike keeps no key
        accounts = AccountStore(store.engine)
        for name in ("alice", "\u0430lice", "bob"):
            assert accounts.log_in(name, PASSWORD, T0)[0].name in {"alice", "\u0430lice", "Bob"}
        for twin in ("\u0410LICE", "B\u043eb"):
            with pytest.raises(
                AccountError, check=lambda e: e.code == AccountCode.NAME_UNAVAILABLE
            ):
                accounts.sign_up(twin, PASSWORD, T0)
    finally:
        store.close()


def test_accounts_of_revision_6_get_their_puzzle_attempts(db_url: str) -> None:
    """Revision 0007 on a database of revision 0006 with an account: the table of puzzle
    attempts is made, the account starts at the new player's puzzle rating and is rated."""
    engine = create_engine(normalise_url(db_url))
    with engine.connect() as conn:
        command.upgrade(_config(conn), "0006")
        conn.commit()
        assert "puzzle_attempts" not in inspect(conn).get_table_names()
        conn.execute(
            text(
                "INSERT INTO accounts (name, name_key, password_hash, created_at, failures, "
                "locked_until) VALUES ('Ann', :k, :h, 0, 0, 0)"
            ),
            {"k": name_key("Ann"), "h": hash_password(PASSWORD)},
        )
        conn.commit()
    engine.dispose()
    store = Store(db_url)  # upgrades to the newest revision
    try:
        with store.engine.connect() as conn:
            assert current_revision(conn) == HEAD == "0007"
            assert "puzzle_attempts" in inspect(conn).get_table_names()
        accounts = AccountStore(store.engine)
        ann, _ = accounts.log_in("Ann", PASSWORD, T0)
        assert accounts.puzzle_standing(ann).rating == Glicko()
        out = accounts.attempt_puzzle(ann, "80c1efe6", Glicko(1400.0, 80.0), "answer", True, T0)
        assert out.counted and out.after.rating > 1500
        assert accounts.puzzle_standing(ann).attempted == 1
    finally:
        store.close()
