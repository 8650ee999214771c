"""Puzzles: an account's first attempt at each puzzle and its puzzle rating after it.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a database an older version began from today's models may have it already
    if "puzzle_attempts" in set(sa.inspect(op.get_bind()).get_table_names()):
        return
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("puzzle_id", sa.String(16), nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("account_id", "puzzle_id"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
