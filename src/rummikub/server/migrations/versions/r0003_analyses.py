"""The analysis of each finished game, kept with it.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
