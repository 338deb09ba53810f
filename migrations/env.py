"""Alembic environment: runs migrations on the app's own async engine (aiosqlite or asyncpg).

The URL comes from the `sqlalchemy.url` option set by app/db/migrate.py, else from DATABASE_URL
(the app's settings). On PostgreSQL an advisory lock keeps several instances starting at once
from migrating together.
"""

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.db.models import Base
from app.db.session import create_engine

MIGRATION_LOCK = 7_277_001  # pg_advisory_lock key: one migrator at a time

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from app.settings import Settings

    return Settings().database_url


def do_run_migrations(connection: Connection) -> None:
    postgres = connection.dialect.name == "postgresql"
    if postgres:
        connection.execute(text(f"SELECT pg_advisory_lock({MIGRATION_LOCK})"))
        connection.commit()
    try:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    finally:
        if postgres:
            connection.execute(text(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
            connection.commit()


async def run_async_migrations() -> None:
    engine = create_engine(database_url(), null_pool=True)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
    else:
        asyncio.run(run_async_migrations())
