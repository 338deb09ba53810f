"""Bring the database schema to the newest Alembic revision (run by the app at start)."""

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from app.db.failures import DATABASE_ERRORS, translated

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


class NewerSchema(RuntimeError):
    """The database was migrated by a newer version of the server than this one."""


def upgrade_sync(database_url: str) -> None:
    """Migrate to head. Needs no running event loop (Alembic's env runs its own)."""
    cfg = alembic_config(database_url)
    try:
        command.upgrade(cfg, "head")
    except CommandError as exc:
        if "Can't locate revision" not in str(exc):
            raise
        known = ScriptDirectory.from_config(cfg).get_current_head()
        raise NewerSchema(
            f"the database's schema is newer than this version of the server knows ({exc}; this version's "
            f"newest is {known!r}): it was migrated by a newer version. Run that version or a newer one, "
            "or restore a backup taken before the upgrade"
        ) from None


async def upgrade(database_url: str) -> None:
    """Migrate to head from async code: Alembic runs in a worker thread with its own loop. A
    database that does not answer comes out as StorageDown (its other errors as StorageFailure)."""
    try:
        await asyncio.to_thread(upgrade_sync, database_url)
    except DATABASE_ERRORS as exc:
        raise translated(exc) from exc
