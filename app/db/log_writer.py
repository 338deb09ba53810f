"""Appending to the action log with group commit.

Every accepted action must be committed before anyone hears of it, and each commit costs a round
trip to the database (with aiosqlite, hops to its thread as well). Under load, the actions that
arrive while one commit is in flight are written together by the next one: one transaction, one
multi-row `INSERT ... ON CONFLICT DO NOTHING RETURNING`. A row that conflicts (another instance
stored that step first, or the same idempotency key) is simply not returned, and only its own
submitter is told; the others are committed. A game's last action also finishes the game and its
room, in the same transaction.

A game's steps may be queued before their predecessors are committed (app/rooms/commits.py checks
and applies a step on the state its uncommitted predecessor made): each entry names the entry it
was built on (`after`). They are written in order, in the same batch or later ones, and never
without their predecessor: an entry whose predecessor was not stored is not stored either (dropped
before its batch, or deleted again inside its batch's transaction when both were in it), so
another instance or a restart never sees a step built on a state that does not exist.

On SQLite the writer uses a sqlite3 connection of its own in the event loop's thread, which never
waits for a lock (busy timeout 0; when the file is locked the batch is retried a moment later): a
WAL commit takes tens of microseconds there, against milliseconds of hops to aiosqlite's thread,
which under load waits for the GIL at every hop. Its actions are grouped the same way: those that
arrive while the event loop runs one round of ready work are committed together at the next, one
transaction (a commit per action cost a fifth of the server's main thread at 200 rooms, most of it
writing the same WAL pages again).
"""

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, NullPool

from app import metrics
from app.db.failures import driver_error, is_out_of_resources
from app.db.models import Action, Game, OutboxMessage, Room
from app.db.session import JSON_COLUMNS, _sqlite_pragmas
from app.db.sql_outbox import insert_notices, notice_row
from app.db.storage import KEEP, Entry, WriteFailure

log = logging.getLogger("wonders.db")


def _built_on_lost_step(entry: Entry) -> bool:
    return entry.after is not None and entry.after.outcome is False


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


FAILURE_RECENT_S = 30.0


class SqliteLog:
    """The log's own sqlite3 connection on the app's SQLite file, used in the event loop's thread:
    it fails at once when the file is locked, and a commit sets up no pool checkout and no
    SQLAlchemy connection or transaction objects (that was most of a commit's cost)."""

    def __init__(self, engine: AsyncEngine) -> None:
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
    "UPDATE games SET status = 'finished', result = ?, finished_at = ?, wake_at = NULL "
    "WHERE id = ? AND status = 'running'"
)
SQLITE_WAKE = "UPDATE games SET wake_at = ? WHERE id = ? AND status = 'running'"
SQLITE_DELETE = "DELETE FROM actions WHERE game_id = ? AND seq = ?"
OUTBOX_COLUMNS = (
    "key",
    "room_id",
    "seat",
    "game_id",
    "kind",
    "title",
    "body",
    "unless_acted_from",
    "state",
    "due_at",
    "attempts",
    "delivered",
    "created_at",
)
SQLITE_NOTICE = (
    f"INSERT INTO outbox ({', '.join(OUTBOX_COLUMNS)}) VALUES ({', '.join('?' * len(OUTBOX_COLUMNS))}) "
    "ON CONFLICT DO NOTHING"
)
SQLITE_FINISH_ROOM = "UPDATE rooms SET status = 'finished', updated_at = ? WHERE id = ? AND status = 'playing'"


def _a_row_at_fault(exc: Exception) -> bool:
    """Whether the data of one row can have caused this (a value the column cannot hold), not the
    database going away: then the batch's rows are worth writing one by one."""
    if isinstance(exc, DBAPIError):
        database_failed = exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError)
        return not (database_failed or is_out_of_resources(exc))
    return isinstance(exc, OverflowError | ValueError | TypeError | sqlite3.DataError | sqlite3.IntegrityError)


def _fail_all(batch: list[tuple[Entry, "asyncio.Future[bool]"]], exc: Exception) -> None:
    for entry, future in batch:
        entry.outcome = False
        if not future.done():
            future.set_exception(exc)


def _answer_all(batch: list[tuple[Entry, "asyncio.Future[bool]"]]) -> None:
    for entry, future in batch:
        if not future.done():
            future.set_result(entry.outcome is True)


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
            self.own = create_async_engine(
                engine.url, pool_size=1, max_overflow=0, pool_reset_on_return=None, **JSON_COLUMNS
            )
            self.engine = self.own
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.retries = 0
        self.failing: WriteFailure | None = None  # the database refused the last batch: since when, why
        self.max_batch = max_batch
        self.pending: list[tuple[Entry, asyncio.Future[bool]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        self._insert = insert(Action).on_conflict_do_nothing().returning(Action.game_id, Action.seq)
        self._insert_notices = insert_notices(engine.dialect.name)
        if self.sync is not None:
            dialect = self.sync.dialect
            self._sqlite_params = [
                (name, _processor(Action.__table__.c[name].type, dialect)) for name in SQLITE_COLUMNS
            ]
            self._sqlite_result = _processor(Game.__table__.c.result.type, dialect)
            self._sqlite_notice = [
                (name, _processor(OutboxMessage.__table__.c[name].type, dialect)) for name in OUTBOX_COLUMNS
            ]
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
        return await self.submit(entry)

    def submit(self, entry: Entry) -> "asyncio.Future[bool]":
        """Queue one action for its commit; the future says whether it was stored (False if its step
        or idempotency key was stored first, or its predecessor was not stored)."""
        if self._task is None:
            raise RuntimeError("the action log writer is not running")
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append((entry, future))
        self._wake.set()
        return future

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
                    await self._write_or_retry([entry for entry, _ in batch])
                    metrics.commit_seconds(time.perf_counter() - started)
                except Exception as exc:
                    log.warning("writing %d action(s) failed: %s", len(batch), exc)
                    if len(batch) > 1 and _a_row_at_fault(exc):
                        await self._write_each(batch)  # one bad row fails its own action, not its batch's
                    else:
                        self._failed(exc)
                        _fail_all(batch, exc)
                    continue
                self.failing = None
                _answer_all(batch)

    def _failed(self, exc: Exception) -> None:
        metrics.action_writes_failed()
        if not _a_row_at_fault(exc):
            at = time.time()
            self.failing = WriteFailure(self.failing.since if self.failing else at, at, _reason(exc))

    def failing_now(self, recent: float = FAILURE_RECENT_S) -> WriteFailure | None:
        """The refusal of the last batch, if no batch was stored since and it is at most `recent`
        seconds old: with nothing written for longer, nothing says the database still refuses (and a
        health check that stayed failing could keep away the very actions that would show it)."""
        failing = self.failing
        return failing if failing is not None and time.time() - failing.last <= recent else None

    async def _write_or_retry(self, entries: list[Entry]) -> None:
        """_write; once more at once if the connection it took from the pool was dead before the
        statement went out (the database restarted, a proxy dropped it: the driver refuses to use
        it, an InterfaceError), on the fresh one the pool then opens. A connection lost during the
        statement is not retried: the batch might have been stored, and its callers are told."""
        try:
            await self._write(entries)
        except InterfaceError as exc:
            if not exc.connection_invalidated:
                raise
            log.warning("a pooled database connection was dead (%s): writing again on a new one", exc.orig)
            await self._write(entries)

    async def _write_each(self, batch: list[tuple[Entry, "asyncio.Future[bool]"]]) -> None:
        """Write a batch's actions one at a time, in order (a step after its predecessor)."""
        for entry, future in batch:
            try:
                await self._write([entry])
            except Exception as exc:
                log.warning("writing an action of game %s failed: %s", entry.game_id, exc)
                _fail_all([(entry, future)], exc)
                continue
            _answer_all([(entry, future)])

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

    async def _write(self, entries: list[Entry]) -> None:
        """Write a batch, setting each entry's outcome."""
        if self.sync is not None:
            delay = 0.001
            while True:
                try:
                    self._commit_sync(entries)
                    return
                except Exception as exc:
                    if not _locked(exc):
                        raise
                    self.retries += 1  # another connection is writing (a room change): try again shortly
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 0.05)
        live = _live(entries)
        if not live:
            return
        rows = [self._row(e) for e in live]
        in_batch_chain = any(e.after is not None and e.after.outcome is None for e in live)
        if not in_batch_chain and all(e.result is None and e.wake is KEEP and not e.notices for e in live):
            # One statement is its own transaction: one round trip instead of three, since every
            # await in a busy event loop waits its turn behind everything else. (With a step and
            # its predecessor in the batch, a transaction: the step may have to go again.)
            async with self._autocommit.connect() as conn:
                result = await conn.execute(self._insert, rows)
                _set_outcomes(live, {(r.game_id, r.seq) for r in result})
            return
        try:
            async with self.engine.begin() as conn:
                await self._write_async(conn, live, rows)
        except BaseException:
            _forget_outcomes(live)
            raise

    def _commit_sync(self, entries: list[Entry]) -> None:
        assert self.sync is not None
        live = _live(entries)
        if not live:
            return
        rows = [self._row(e) for e in live]
        try:
            with self.sync.begin() as conn:
                self._write_sync(conn, live, rows)
        except BaseException:
            _forget_outcomes(live)
            raise

    async def _write_async(self, conn: AsyncConnection, entries: list[Entry], rows: list[dict[str, Any]]) -> None:
        # one compiled statement, reused; many rows go as one multi-row INSERT ("insertmanyvalues")
        result = await conn.execute(self._insert, rows)
        for e in _set_outcomes(entries, {(r.game_id, r.seq) for r in result}):
            await conn.execute(delete(Action).where(Action.game_id == e.game_id, Action.seq == e.seq))
        for statement in self._finishing(entries):
            await conn.execute(statement)
        notices = [notice_row(n) for e in entries if e.outcome for n in e.notices]
        if notices:  # the notifications the steps cause, in their transaction
            await conn.execute(self._insert_notices, notices)

    def _write_sync(self, conn: sqlite3.Connection, entries: list[Entry], rows: list[dict[str, Any]]) -> None:
        # Straight to sqlite3 (the values converted by the columns' own SQLAlchemy types): this runs
        # in the event loop's thread, so it should be short.
        stored = set()
        for row in rows:
            cursor = conn.execute(SQLITE_INSERT, [convert(row[name]) for name, convert in self._sqlite_params])
            if cursor.fetchone() is not None:
                stored.add((row["game_id"], row["seq"]))
            cursor.close()
        for e in _set_outcomes(entries, stored):
            conn.execute(SQLITE_DELETE, (e.game_id, e.seq))
        for e in entries:
            if not e.outcome:
                continue
            for notice in e.notices:  # the notifications the step causes, in its transaction
                row = notice_row(notice)
                conn.execute(SQLITE_NOTICE, [convert(row[name]) for name, convert in self._sqlite_notice])
            if e.wake is not KEEP:
                conn.execute(SQLITE_WAKE, (self._sqlite_time(e.wake), e.game_id))
            if e.result is None:
                continue
            at = self._sqlite_time(e.at)
            conn.execute(SQLITE_FINISH_GAME, (self._sqlite_result(e.result), at, e.game_id))
            if e.room_id is not None:
                conn.execute(SQLITE_FINISH_ROOM, (at, e.room_id))

    @staticmethod
    def _finishing(entries: list[Entry]) -> list[Any]:
        """Updates for the games that a stored action ended (and their rooms), or whose wake it moved."""
        out: list[Any] = []
        for e in entries:
            if not e.outcome:
                continue
            if e.wake is not KEEP:
                out.append(update(Game).where(Game.id == e.game_id, Game.status == "running").values(wake_at=e.wake))
            if e.result is None:
                continue
            out.append(
                update(Game)
                .where(Game.id == e.game_id, Game.status == "running")
                .values(status="finished", result=e.result, finished_at=e.at, wake_at=None)
            )
            if e.room_id is not None:
                out.append(
                    update(Room)
                    .where(Room.id == e.room_id, Room.status == "playing")
                    .values(status="finished", updated_at=e.at)
                )
        return out


def _reason(exc: BaseException) -> str:
    """What the driver said, without SQLAlchemy's wrapping (the statement, its parameters, a link)."""
    orig = driver_error(exc)
    return f"{type(orig).__name__}: {str(orig).splitlines()[0] if str(orig) else ''}"


def _locked(exc: BaseException) -> bool:
    """SQLite said another connection holds the file's write lock."""
    return isinstance(exc, OperationalError | sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


def _live(entries: list[Entry]) -> list[Entry]:
    """The entries to write: not those built on a step already known not to be stored."""
    live = []
    for e in entries:
        e.outcome = None
        if _built_on_lost_step(e):
            e.outcome, e.dropped = False, True
        else:
            live.append(e)
    return live


def _set_outcomes(entries: list[Entry], stored: set[tuple[int, int]]) -> list[Entry]:
    """Each entry's outcome from the rows its INSERT stored; returns the entries that were stored
    but must go again because the step they were built on, in the same batch, was not stored."""
    undo = []
    for e in entries:  # a game's steps in order: a predecessor's outcome is set before its followers'
        ok = (e.game_id, e.seq) in stored
        if _built_on_lost_step(e):
            e.dropped = True
            if ok:
                undo.append(e)
            ok = False
        e.outcome = ok
    return undo


def _forget_outcomes(entries: list[Entry]) -> None:
    """The transaction did not commit: nothing of it is known to be stored yet."""
    for e in entries:
        e.outcome = None
