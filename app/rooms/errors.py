"""Errors of the rooms layer. Each has a stable `code` (for clients and bots), a message for
people, and the HTTP status the REST layer answers with; websockets send the same code and message."""

from typing import Any

from app.db.storage import StorageDown, StorageFailure

__all__ = [
    "DATABASE_DOWN",
    "STORAGE_ERRORS",  # the storage's error classes, for the API's exception handlers
    "Conflict",
    "Forbidden",
    "Invalid",
    "NotFound",
    "RoomError",
    "TooMany",
    "Unauthorized",
    "Unavailable",
    "Unreadable",
    "outage_of",
    "unavailable",
]


class RoomError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details


class NotFound(RoomError):
    status = 404
    code = "not_found"


class Unauthorized(RoomError):
    status = 401
    code = "unauthorized"


class Forbidden(RoomError):
    status = 403
    code = "forbidden"


class Conflict(RoomError):
    status = 409
    code = "conflict"


class Invalid(RoomError):
    status = 422
    code = "invalid"


class TooMany(RoomError):
    status = 429
    code = "too_many"


class Unavailable(RoomError):
    status = 503
    code = "unavailable"


class Unreadable(RoomError):
    """A stored game whose log this version of the engine cannot replay (stored by a much older
    version whose deal differed, or a damaged log): a server-side fault, said plainly."""

    status = 500
    code = "game_unreadable"


STORAGE_ERRORS: tuple[type[Exception], ...] = (StorageDown, StorageFailure)  # all a Store raises, but Taken
DATABASE_DOWN = "the database is not answering; try again in a few seconds"


DISK_FAILURE = "the server could not write to its disk (full or failing): nothing was stored; try again later"


def unavailable(exc: StorageDown) -> Unavailable:
    """The 503 for a storage outage: the disk refused the write, or the database did not answer."""
    return Unavailable(DISK_FAILURE if exc.disk else DATABASE_DOWN, code="database_down")


def outage_of(exc: BaseException) -> Unavailable | None:
    """The error to answer for an exception that says the database is down (None: a real failure)."""
    return unavailable(exc) if isinstance(exc, StorageDown) else None
