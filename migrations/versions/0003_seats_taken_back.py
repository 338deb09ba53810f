"""A seat taken back from the bot remembers when: the running game's step count at that moment, so
that the timeouts before it stop counting towards the next hand-over, across restarts and instances.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("taken_back_at", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("taken_back_at")
