"""Notifications: each seat's (and each room's group) channels, and the outbox of messages to send,
written with the step or event that causes them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "notify_channels",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("room_id", ID, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("urls", sa.JSON(), nullable=False),
        sa.Column("push", sa.JSON(), nullable=True),
        sa.Column("when", sa.String(length=16), nullable=False),
        sa.Column("stop_key", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_notify_channels_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notify_channels")),
        sa.UniqueConstraint("room_id", "seat", name=op.f("uq_notify_channels_room_id_seat")),
        sa.UniqueConstraint("stop_key", name=op.f("uq_notify_channels_stop_key")),
    )
    op.create_table(
        "outbox",
        sa.Column("id", ID, autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("room_id", ID, nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game_id", ID, nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("body", sa.String(length=2000), nullable=False),
        sa.Column("unless_acted_from", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("delivered", sa.JSON(), nullable=False),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_outbox_room_id_rooms"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("key", name=op.f("uq_outbox_key")),
    )
    op.create_index(op.f("ix_outbox_state_due_at"), "outbox", ["state", "due_at"], unique=False)
    op.create_index(op.f("ix_outbox_room_id_seat_sent_at"), "outbox", ["room_id", "seat", "sent_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_outbox_room_id_seat_sent_at"), table_name="outbox")
    op.drop_index(op.f("ix_outbox_state_due_at"), table_name="outbox")
    op.drop_table("outbox")
    op.drop_table("notify_channels")
