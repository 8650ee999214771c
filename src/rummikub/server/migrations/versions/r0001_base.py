"""The schema of the first servers: rooms, seats, the event log, round results, heartbeat.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("turn_started", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(128), nullable=True),
        sa.UniqueConstraint("room_code", "seat"),
    )
    op.create_index("ix_seats_room_code", "seats", ["room_code"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("room_code", "seq"),
    )
    op.create_index("ix_events_room_code", "events", ["room_code"])
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_code", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("scores", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("room_code", "round"),
    )
    op.create_index("ix_results_room_code", "results", ["room_code"])
    op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("heartbeat", "results", "events", "seats", "rooms"):
        op.drop_table(table)
