"""Bring the database schema to the newest Alembic revision (run by the app at start)."""

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade_sync(database_url: str) -> None:
    """Migrate to head. Needs no running event loop (Alembic's env runs its own)."""
    command.upgrade(alembic_config(database_url), "head")


async def upgrade(database_url: str) -> None:
    """Migrate to head from async code: Alembic runs in a worker thread with its own loop."""
    await asyncio.to_thread(upgrade_sync, database_url)
