"""Bring the database schema to the newest Alembic revision (run by the app at start).

A database already at the newest revision, the usual start, is found so with one query and
Alembic is not even imported (about a fifth of the app's import time, and its run loads every
migration): only a database that is behind, empty, or at a revision this version does not know
goes through Alembic.
"""

import asyncio
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text

from app.db.failures import DATABASE_ERRORS, translated
from app.db.session import create_engine

if TYPE_CHECKING:
    from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "migrations"
REVISION = re.compile(r"^(down_revision|revision)\b[^=\n]*=\s*(?:None|[\"']([^\"']+)[\"'])", re.MULTILINE)


def newest_revision() -> str | None:
    """The migrations' single head, read from their files' `revision` and `down_revision` lines;
    None when the files do not name exactly one (Alembic then decides)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        found = dict(REVISION.findall(path.read_text()))
        if not found.get("revision"):
            return None
        revisions.add(found["revision"])
        if found.get("down_revision"):
            parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


async def is_current(database_url: str) -> bool:
    """Whether the database's stored revision is the migrations' head (False on any doubt)."""
    head = newest_revision()
    if head is None:
        return False
    engine = create_engine(database_url, null_pool=True)
    try:
        async with engine.connect() as connection:
            stored = (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
    except DATABASE_ERRORS:  # no such table yet, or no database: Alembic's run says which
        return False
    finally:
        await engine.dispose()
    return stored == [head]


def alembic_config(database_url: str) -> "Config":
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


class NewerSchema(RuntimeError):
    """The database was migrated by a newer version of the server than this one."""


def upgrade_sync(database_url: str) -> None:
    """Migrate to head. Needs no running event loop (Alembic's env runs its own)."""
    from alembic import command
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError

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
    if await is_current(database_url):
        return
    try:
        await asyncio.to_thread(upgrade_sync, database_url)
    except DATABASE_ERRORS as exc:
        raise translated(exc) from exc
