"""Appending to the action log with group commit.

Every accepted action must be committed before anyone hears of it, and each commit costs a round
trip to the database (with aiosqlite, hops to its thread as well). Under load, the actions that
arrive while one commit is in flight are written together by the next one: one transaction, one
multi-row `INSERT ... ON CONFLICT DO NOTHING RETURNING`. A row that conflicts (another instance
stored that step first, or the same idempotency key) is simply not returned, and only its own
submitter is told; the others are committed. A game's last action also finishes the game and its
room, in the same transaction.

On SQLite an action is written at once, synchronously, in the event loop's thread, on a connection
of its own that never waits for a lock (busy timeout 0; when the file is locked the action joins
the queue and is retried a moment later). A WAL commit takes tens of microseconds there, against
milliseconds of hops to aiosqlite's thread, which under load waits for the GIL at every hop; and a
submission that never yields to the event loop does not wait behind everything else that is ready.
"""

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, NullPool

from app import metrics
from app.db.models import Action, Game, Room

log = logging.getLogger("wonders.db")


@dataclass
class Entry:
    game_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    action_id: str | None
    at: datetime
    result: dict[str, Any] | None = None  # set on a game's last action
    room_id: int | None = None
    by_timeout: bool = False  # made by the server for a seat whose clock ran out


SQLITE_COLUMNS = ("game_id", "seq", "seat", "action", "action_id", "created_at", "by_timeout")
SQLITE_INSERT = (
    f"INSERT INTO actions ({', '.join(SQLITE_COLUMNS)}) VALUES ({', '.join('?' * len(SQLITE_COLUMNS))}) "
    "ON CONFLICT DO NOTHING RETURNING game_id"
)


def _same(value: Any) -> Any:
    return value


def _processor(column_type: Any, dialect: Any) -> Any:
    """How SQLAlchemy itself would convert a value of this column for this dialect."""
    return column_type.dialect_impl(dialect).bind_processor(dialect) or _same


class SqliteLog:
    """The log's own sqlite3 connection on the app's SQLite file, used in the event loop's thread:
    it fails at once when the file is locked, and a commit sets up no pool checkout and no
    SQLAlchemy connection or transaction objects (that was most of a commit's cost)."""

    def __init__(self, engine: AsyncEngine) -> None:
        from app.db.session import _sqlite_pragmas

        self.conn = sqlite3.connect(
            engine.url.database or ":memory:", timeout=0, check_same_thread=False, isolation_level=None
        )
        _sqlite_pragmas(self.conn, None)
        self.conn.execute("PRAGMA busy_timeout=0")
        self.dialect = sqlite.dialect()

    @contextlib.contextmanager
    def begin(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN")
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def dispose(self) -> None:
        self.conn.close()


SQLITE_FINISH_GAME = (
    "UPDATE games SET status = 'finished', result = ?, finished_at = ? WHERE id = ? AND status = 'running'"
)
SQLITE_FINISH_ROOM = "UPDATE rooms SET status = 'finished', updated_at = ? WHERE id = ? AND status = 'playing'"


class ActionLogWriter:
    def __init__(self, engine: AsyncEngine, *, max_batch: int = 500) -> None:
        self.engine = engine
        self.sync: SqliteLog | None = None
        self.own: AsyncEngine | None = None
        if engine.dialect.name == "sqlite" and isinstance(engine.pool, AsyncAdaptedQueuePool):
            self.sync = SqliteLog(engine)
        elif not isinstance(engine.pool, NullPool):
            # A connection of its own: the app's pool may be busy (many rooms refreshing at once),
            # and no action should wait for it.
            self.own = create_async_engine(engine.url, pool_size=1, max_overflow=0, pool_reset_on_return=None)
            self.engine = self.own
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.retries = 0
        self.max_batch = max_batch
        self.pending: list[tuple[Entry, asyncio.Future[bool]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        self._insert = insert(Action).on_conflict_do_nothing().returning(Action.game_id, Action.seq)
        if self.sync is not None:
            dialect = self.sync.dialect
            self._sqlite_params = [
                (name, _processor(Action.__table__.c[name].type, dialect)) for name in SQLITE_COLUMNS
            ]
            self._sqlite_result = _processor(Game.__table__.c.result.type, dialect)
            self._sqlite_time = _processor(Game.__table__.c.finished_at.type, dialect)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="action-log-writer")

    async def stop(self) -> None:
        """Write what is pending, then stop."""
        if self._task is None:
            return
        self._closing = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(self._task), 30)
        except TimeoutError:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None
        if self.sync is not None:
            self.sync.dispose()
        if self.own is not None:
            await self.own.dispose()

    async def append(self, entry: Entry) -> bool:
        """Commit one action. False if its step (or its idempotency key) was already stored."""
        if self._task is None:
            raise RuntimeError("the action log writer is not running")
        if self.sync is not None and not self.pending:
            # SQLite: commit right here, without yielding to the event loop (tens of microseconds);
            # only if the file is locked does the action wait in the queue for a retry.
            rows = [self._row(entry)]
            started = time.perf_counter()
            try:
                with self.sync.begin() as conn:
                    stored = self._write_sync(conn, [entry], rows)
                metrics.commit_seconds(time.perf_counter() - started)
            except (OperationalError, sqlite3.OperationalError) as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                self.retries += 1
            else:
                return bool(stored)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append((entry, future))
        self._wake.set()
        return await future

    async def _run(self) -> None:
        while True:
            if self._closing and not self.pending:
                return
            await self._wake.wait()
            self._wake.clear()
            while self.pending:
                batch, self.pending = self.pending[: self.max_batch], self.pending[self.max_batch :]
                started = time.perf_counter()
                try:
                    stored = await self._write([entry for entry, _ in batch])
                    metrics.commit_seconds(time.perf_counter() - started)
                except Exception as exc:
                    log.warning("writing %d action(s) failed: %s", len(batch), exc)
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for entry, future in batch:
                    if not future.done():
                        future.set_result((entry.game_id, entry.seq) in stored)

    @staticmethod
    def _row(e: Entry) -> dict[str, Any]:
        return {
            "game_id": e.game_id,
            "seq": e.seq,
            "seat": e.seat,
            "action": e.action,
            "action_id": e.action_id,
            "created_at": e.at,
            "by_timeout": e.by_timeout,
        }

    async def _write(self, entries: list[Entry]) -> set[tuple[int, int]]:
        rows = [self._row(e) for e in entries]
        if self.sync is None:
            if all(e.result is None for e in entries):
                # One statement is its own transaction: one round trip instead of three, since
                # every await in a busy event loop waits its turn behind everything else.
                async with self._autocommit.connect() as conn:
                    result = await conn.execute(self._insert, rows)
                    return {(r.game_id, r.seq) for r in result}
            async with self.engine.begin() as conn:
                return await self._write_async(conn, entries, rows)
        delay = 0.001
        while True:
            try:
                with self.sync.begin() as conn:
                    return self._write_sync(conn, entries, rows)
            except (OperationalError, sqlite3.OperationalError) as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                self.retries += 1  # another connection is writing (a room change): try again shortly
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.05)

    async def _write_async(self, conn: AsyncConnection, entries: list[Entry], rows: list[dict[str, Any]]) -> set:
        # one compiled statement, reused; many rows go as one multi-row INSERT ("insertmanyvalues")
        result = await conn.execute(self._insert, rows)
        stored = {(r.game_id, r.seq) for r in result}
        for statement in self._finishing(entries, stored):
            await conn.execute(statement)
        return stored

    def _write_sync(self, conn: sqlite3.Connection, entries: list[Entry], rows: list[dict[str, Any]]) -> set:
        # Straight to sqlite3 (the values converted by the columns' own SQLAlchemy types): this runs
        # in the event loop's thread, so it should be short.
        stored = set()
        for row in rows:
            cursor = conn.execute(SQLITE_INSERT, [convert(row[name]) for name, convert in self._sqlite_params])
            if cursor.fetchone() is not None:
                stored.add((row["game_id"], row["seq"]))
            cursor.close()
        for e in entries:
            if e.result is None or (e.game_id, e.seq) not in stored:
                continue
            at = self._sqlite_time(e.at)
            conn.execute(SQLITE_FINISH_GAME, (self._sqlite_result(e.result), at, e.game_id))
            if e.room_id is not None:
                conn.execute(SQLITE_FINISH_ROOM, (at, e.room_id))
        return stored

    @staticmethod
    def _finishing(entries: list[Entry], stored: set[tuple[int, int]]) -> list[Any]:
        """Updates for the games that a stored action ended (and their rooms)."""
        out: list[Any] = []
        for e in entries:
            if e.result is None or (e.game_id, e.seq) not in stored:
                continue
            out.append(
                update(Game)
                .where(Game.id == e.game_id, Game.status == "running")
                .values(status="finished", result=e.result, finished_at=e.at)
            )
            if e.room_id is not None:
                out.append(
                    update(Room)
                    .where(Room.id == e.room_id, Room.status == "playing")
                    .values(status="finished", updated_at=e.at)
                )
        return out
