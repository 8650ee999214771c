"""Which game a room plays (Xpress rooms came); older rooms all play the tile game.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("game", sa.String(16), nullable=False, server_default="tiles"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("game")
