"""What a database error says about the database: not answering, or answering but unable to write;
and its translation into the storage interface's errors (app/db/storage.py), which is all that
comes out of app/db: `translating` wraps an operation, `translated` maps one error.
"""

import functools
import sqlite3
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.db.storage import StorageDown, StorageFailure, Taken

DISK_SQLSTATES = ("53100", "58030")  # PostgreSQL's disk_full, io_error
RESOURCES_SQLSTATE_CLASS = "53"  # PostgreSQL's insufficient resources: disk, memory, connections


def driver_error(exc: BaseException) -> BaseException:
    """The driver's own exception under SQLAlchemy's (and under the store's StorageDown)."""
    if getattr(exc, "orig", None) is None and exc.__cause__ is not None:
        exc = exc.__cause__
    return getattr(exc, "orig", None) or exc


def sqlstate_of(exc: BaseException) -> str | None:
    orig = driver_error(exc)
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


def is_disk_failure(exc: BaseException) -> bool:
    """Whether the database answered but could not write its files: a full disk, a file size limit,
    a failing disk (SQLite's SQLITE_FULL and SQLITE_IOERR; PostgreSQL's disk_full 53100, io_error
    58030)."""
    code = getattr(driver_error(exc), "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)
    return sqlstate_of(exc) in DISK_SQLSTATES


def is_out_of_resources(exc: BaseException) -> bool:
    """PostgreSQL refused for want of disk, memory or connections (class 53), or its disk failed."""
    state = sqlstate_of(exc)
    return state is not None and (state.startswith(RESOURCES_SQLSTATE_CLASS) or state in DISK_SQLSTATES)


DATABASE_ERRORS = (SQLAlchemyError, OSError, sqlite3.Error)

P = ParamSpec("P")
R = TypeVar("R")


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` says the database did not answer (unreachable, its connection lost, no pooled
    connection free in time, SQLite locked or failing on disk), rather than a mistake in a query."""
    down = OperationalError | InterfaceError | PoolTimeout | OSError | sqlite3.OperationalError
    if isinstance(exc, down) or (isinstance(exc, DBAPIError) and exc.connection_invalidated):
        return True
    return isinstance(exc, DBAPIError) and is_out_of_resources(exc)  # asyncpg's disk_full is a plain DBAPIError


def translated(exc: BaseException) -> Exception:
    """The storage interface's error for a database's error."""
    if isinstance(exc, IntegrityError):
        return Taken("taken by another writer first")
    if is_outage(exc) or is_disk_failure(exc):
        return StorageDown(str(exc), disk=is_disk_failure(exc))
    return StorageFailure(str(exc))


def translating(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """The method, raising only the storage interface's errors."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except DATABASE_ERRORS as exc:
            raise translated(exc) from exc

    return wrapper
