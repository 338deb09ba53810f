"""A running game's state kept at one of its versions (game_states: loading it replays only the steps
after), and when a server must look at a game nobody holds (games.wake_at: a deadline, or a bot's
move another instance should have made), indexed for the instances' poll; every running game stored
before is due at once (the first poll wakes each one, once, and writes its real wake).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("wake_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_wake_at"), ["wake_at"], unique=False)
    # running games stored before: each woken once by the first poll, which writes its own wake (its
    # deadline, a bot's move, or none), so none is forgotten by a server that no longer loads them all
    op.execute("UPDATE games SET wake_at = '2000-01-01 00:00:00' WHERE status = 'running'")
    op.create_table(
        "game_states",
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("engine", sa.String(length=64), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("frame", sa.JSON(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_states_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_states")),
    )


def downgrade() -> None:
    op.drop_table("game_states")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_wake_at"))
        batch_op.drop_column("wake_at")
