"""What a database error says about the database: not answering, or answering but unable to write.

(is_storage_down, in store.py, tells an outage from a mistake in a query; this module holds what the
log writer needs too, below the store.)
"""

import sqlite3

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
