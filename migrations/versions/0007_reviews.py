"""Reviews of finished games (the search bot's evaluation of every decision), computed once and
kept; and the kind of a chat message (said by a seat, or a hint it used, which everyone sees).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", ID, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("budget_ms", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_reviews_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_reviews")),
    )
    op.create_index(op.f("ix_reviews_status_lease_until"), "reviews", ["status", "lease_until"])
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=16), server_default="say", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("kind")
    op.drop_index(op.f("ix_reviews_status_lease_until"), table_name="reviews")
    op.drop_table("reviews")
