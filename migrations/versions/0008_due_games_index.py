"""The poll for due games reads them through an index on (status, wake_at) instead of wake_at alone:
SQLite chose the index on status for it and walked every running game's row (38 ms a poll with
100,000 running games), holding its one connection meanwhile.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(op.f("ix_games_status_wake_at"), "games", ["status", "wake_at"])
    op.drop_index(op.f("ix_games_wake_at"), table_name="games")


def downgrade() -> None:
    op.create_index(op.f("ix_games_wake_at"), "games", ["wake_at"])
    op.drop_index(op.f("ix_games_status_wake_at"), table_name="games")
