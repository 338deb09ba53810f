"""Database URLs, the async engine and sessions.

`DATABASE_URL` takes the usual forms; the async driver is picked here:
`sqlite:///path` -> `sqlite+aiosqlite:///path`, `postgresql://` or `postgres://` -> `postgresql+asyncpg://`.
"""

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, NullPool

from app.json_text import to_json

SQLITE_BUSY_TIMEOUT_MS = 10_000
JSON_COLUMNS: dict[str, Any] = {"json_serializer": to_json}  # every engine writes JSON columns with orjson


def async_url(url: str) -> URL:
    """The SQLAlchemy URL with an async driver for a plain `sqlite:` or `postgresql:` URL."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    driver = parsed.drivername.partition("+")[2]  # as written: no "+driver" means none chosen
    if backend == "sqlite":
        if driver != "aiosqlite":
            parsed = parsed.set(drivername="sqlite+aiosqlite")
        return parsed
    if backend == "postgresql":
        if driver not in ("asyncpg", "psycopg"):
            parsed = parsed.set(drivername="postgresql+asyncpg")
        if parsed.drivername == "postgresql+asyncpg" and "sslmode" in parsed.query:
            query = dict(parsed.query)
            query["ssl"] = query.pop("sslmode")
            parsed = parsed.set(query=query)
        return parsed
    raise ValueError(f"unsupported DATABASE_URL {url!r}: use sqlite:///path or postgresql://user@host/db")


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def create_engine(
    database_url: str, *, pool_size: int = 10, echo: bool = False, null_pool: bool = False
) -> AsyncEngine:
    url = async_url(database_url)
    if is_sqlite(url):
        # One connection for the whole process, handed out in turn: SQLite has one writer anyway,
        # and a single connection never meets "database is locked" between its own transactions.
        pool = (
            {"poolclass": NullPool}
            if null_pool
            else {"poolclass": AsyncAdaptedQueuePool, "pool_size": 1, "max_overflow": 0}
        )
        engine = create_async_engine(
            url, echo=echo, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}, **pool, **JSON_COLUMNS
        )
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    if null_pool:
        return create_async_engine(url, echo=echo, poolclass=NullPool, **JSON_COLUMNS)
    return create_async_engine(
        url, echo=echo, pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True, **JSON_COLUMNS
    )


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a process crash loses nothing committed
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


class Database:
    """The engine and session factory of one app instance."""

    def __init__(self, database_url: str, *, pool_size: int = 10, echo: bool = False) -> None:
        self.url = database_url
        self.engine = create_engine(database_url, pool_size=pool_size, echo=echo)
        self.sessions = sessionmaker(self.engine)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def dispose(self) -> None:
        await self.engine.dispose()
