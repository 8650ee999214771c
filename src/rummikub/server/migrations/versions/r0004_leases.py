"""The lease of each room for a cluster of nodes (``rummikub serve --broker``).

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("epoch", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_leases_node", "leases", ["node"])
    op.create_index("ix_leases_expires_at", "leases", ["expires_at"])


def downgrade() -> None:
    op.drop_table("leases")
