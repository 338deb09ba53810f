"""Turn clocks and seats that bots play for their people: a game's clock, actions made on timeout,
the bot playing a person's seat (and why), and rejoin links.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock", sa.JSON(), nullable=True))
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("by_timeout", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_plays", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("bot_reason", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("rejoin_hash", sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_seats_rejoin_hash"), ["rejoin_hash"])


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_seats_rejoin_hash"), type_="unique")
        batch_op.drop_column("rejoin_hash")
        batch_op.drop_column("bot_reason")
        batch_op.drop_column("bot_plays")
    with op.batch_alter_table("actions", schema=None) as batch_op:
        batch_op.drop_column("by_timeout")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("clock")
