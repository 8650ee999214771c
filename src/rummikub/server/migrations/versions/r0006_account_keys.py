"""Accounts: names compared by their confusable skeleton, login failures counted for every
name typed (known or not), and the server's secrets (the CSRF key).

Revision ID: 0006
"""

from __future__ import annotations

import hashlib
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _skeleton_hash(name: str) -> str:
    # as rummikub.server.accounts.names.name_skeleton and store._hashed, at this revision
    from rummikub.server.accounts.names import skeleton

    key = skeleton(unicodedata.normalize("NFKC", name).casefold()).casefold()
    return hashlib.sha256(("skeleton:" + key).encode("utf-8")).hexdigest()


def upgrade() -> None:
    # a database an older version began from today's models may have them already
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "account_names" not in present:
        op.create_table(
            "account_names",
            sa.Column("skeleton", sa.String(64), primary_key=True),
            sa.Column(
                "account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                unique=True,
            ),
        )  # fmt: skip
    if "login_failures" not in present:
        op.create_table(
            "login_failures",
            sa.Column("name", sa.String(64), primary_key=True),
            sa.Column("failures", sa.Integer, nullable=False),
            sa.Column("locked_until", sa.Float, nullable=False),
            sa.Column("last_at", sa.Float, nullable=False),
        )
        op.create_index("ix_login_failures_last_at", "login_failures", ["last_at"])
    if "server_secrets" not in present:
        op.create_table(
            "server_secrets",
            sa.Column("name", sa.String(32), primary_key=True),
            sa.Column("value", sa.String(128), nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
        )
    # the accounts there are: the first of two look-alike names keeps the skeleton (the later
    # one keeps its name and login; nobody new can take a third)
    bind = op.get_bind()
    taken = {row[0] for row in bind.execute(sa.text("SELECT skeleton FROM account_names"))}
    rows = bind.execute(
        sa.text("SELECT id, name FROM accounts WHERE deleted_at IS NULL ORDER BY id")
    ).all()
    for account_id, name in rows:
        key = _skeleton_hash(str(name))
        if key in taken:
            continue
        taken.add(key)
        bind.execute(
            sa.text("INSERT INTO account_names (skeleton, account_id) VALUES (:k, :a)"),
            {"k": key, "a": account_id},
        )


def downgrade() -> None:
    for table in ("server_secrets", "login_failures", "account_names"):
        op.drop_table(table)
