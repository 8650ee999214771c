"""Revision 0006 on a database of revision 0005 that has accounts already, two of them with
names that look alike (allowed then): both keep their names and logins, the first keeps the
look, and nobody new can take a third."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import create_engine, text

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
