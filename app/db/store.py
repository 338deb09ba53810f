"""The storage seam: everything the rooms layer asks of the database, in its own words.

Nothing above `app/db` opens a session, writes SQL or catches a driver's error: the rooms layer
calls a `Store`. Rooms and seats change inside a unit of work (`Store.transaction()`, a `RoomTx`):
the rows it hands out are plain records whose attributes the caller reads and sets, and whatever
was set is committed when the block ends (or nothing, if it raised). A unique key that another
writer took first comes out as `Taken`; a database that does not answer, as `StorageDown`.

Games: `game(game_id)` reads a game with its room's code and seats and its whole log;
`steps_since(game_id, seq)` what another instance stored meanwhile; `append(entry)` stores one
action through the group-committing `ActionLogWriter` (False when the step was stored first by
someone else).
"""

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import exists, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import repo
from app.db.failures import is_disk_failure, is_out_of_resources
from app.db.log_writer import ActionLogWriter, Entry, WriteFailure
from app.db.models import Action, Room, Seat, iso, now
from app.db.models import Game as GameRow
from app.db.names import name_key
from app.db.session import Database

__all__ = [
    "STORAGE_ERRORS",
    "Database",
    "Entry",
    "GameRow",
    "RoomRow",
    "RoomTx",
    "SeatRow",
    "StorageDown",
    "Store",
    "StoredGame",
    "Taken",
    "WriteFailure",
    "is_disk_failure",
    "is_storage_down",
    "iso",
    "now",
]

RoomRow = Room
SeatRow = Seat
ACTIVE_ROOM_STATUSES = repo.ACTIVE_ROOM_STATUSES


class Taken(Exception):
    """A unique key (a room code, a seat, a name) that another writer took first."""


class StorageDown(Exception):
    """The database did not answer."""


# what a failing database comes out as (is_storage_down tells an outage from a mistake among them)
STORAGE_ERRORS: tuple[type[BaseException], ...] = (StorageDown, DBAPIError, PoolTimeout, OSError, sqlite3.Error)


def is_storage_down(exc: BaseException) -> bool:
    """Whether `exc` says the database did not answer (unreachable, its connection lost, no pooled
    connection free in time, SQLite locked or failing on disk), rather than a mistake in a query."""
    down = StorageDown | OperationalError | InterfaceError | PoolTimeout | OSError | sqlite3.OperationalError
    if isinstance(exc, down) or (isinstance(exc, DBAPIError) and exc.connection_invalidated):
        return True
    return isinstance(exc, DBAPIError) and is_out_of_resources(exc)  # asyncpg's disk_full is a plain DBAPIError


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its row's fields, its room's code and seats now, and its log."""

    id: int
    room_id: int
    room_code: str
    config: dict[str, Any]
    status: str
    clock: dict[str, Any] | None
    created_at: datetime
    seats: list[Any]  # who sat where at the start ({"seat", "name", "kind", "bot"})
    result: dict[str, Any] | None
    room_seats: Sequence[SeatRow]  # the room's seats now (who plays each one)
    steps: list[dict[str, Any]]  # repo.actions_of


class RoomTx:
    """One unit of work on rooms, seats and the games they start."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def room(self, code: str, *, lock: bool = False) -> RoomRow | None:
        return await repo.room_by_code(self.session, code, for_update=lock)

    async def seats(self, room_id: int) -> Sequence[SeatRow]:
        return await repo.seats_of(self.session, room_id)

    async def seat(self, room_id: int, seat: int) -> SeatRow | None:
        query = select(Seat).where(Seat.room_id == room_id, Seat.seat == seat)
        return (await self.session.execute(query)).scalar_one_or_none()

    async def seat_by_token(self, room_id: int, token_hash: str) -> SeatRow | None:
        return await repo.seat_by_token(self.session, room_id, token_hash)

    async def seat_by_rejoin(self, room_id: int, rejoin_hash: str) -> SeatRow | None:
        query = select(Seat).where(Seat.room_id == room_id, Seat.rejoin_hash == rejoin_hash)
        return (await self.session.execute(query)).scalar_one_or_none()

    async def count_rooms(self, statuses: Sequence[str]) -> int:
        return await repo.count_rooms(self.session, statuses)

    async def latest_game(self, room_id: int) -> GameRow | None:
        return await repo.latest_game(self.session, room_id)

    async def step_count(self, game_id: int) -> int:
        """The game's version as stored: how many steps its log holds."""
        return await repo.step_count(self.session, game_id)

    async def games(self, room_id: int) -> Sequence[GameRow]:
        return await repo.games_of(self.session, room_id)

    async def game(self, game_id: int) -> GameRow | None:
        return await repo.game_by_id(self.session, game_id)

    async def add_room(self, code: str, settings: dict[str, Any], host_seat: int) -> RoomRow:
        room = Room(code=code, status="open", settings=settings, host_seat=host_seat)
        self.session.add(room)
        await self.session.flush()
        return room

    def add_person(self, room_id: int, seat: int, name: str, token_hash: str) -> None:
        self.session.add(
            Seat(room_id=room_id, seat=seat, name=name, name_key=name_key(name), kind="human", token_hash=token_hash)
        )

    def add_bot(self, room_id: int, seat: int, kind: str) -> None:
        name = f"{kind.capitalize()} bot {seat}"
        self.session.add(Seat(room_id=room_id, seat=seat, name=name, name_key=name_key(name), kind="bot", bot=kind))

    async def remove_seat(self, seat: SeatRow) -> None:
        await self.session.delete(seat)

    async def flush(self) -> None:
        await self.session.flush()

    async def claim_room(self, room_id: int, statuses: Sequence[str], status: str) -> bool:
        """Move the room to `status` if it still is in one of `statuses` (one writer wins a race)."""
        claimed = await self.session.execute(
            update(Room).where(Room.id == room_id, Room.status.in_(statuses)).values(status=status, updated_at=now())
        )
        return claimed.rowcount == 1  # type: ignore[attr-defined]

    async def add_game(self, **fields: Any) -> int:
        """A new running game row (fields of `games`); its id."""
        game = GameRow(status="running", **fields)
        self.session.add(game)
        await self.session.flush()
        return game.id


def _stored(row: GameRow, room_code: str, room_seats: Sequence[SeatRow], steps: list[dict[str, Any]]) -> StoredGame:
    return StoredGame(
        row.id,
        row.room_id,
        room_code,
        row.config,
        row.status,
        row.clock,
        row.created_at,
        row.seats,
        row.result,
        room_seats,
        steps,
    )


def _recent_action(cutoff: datetime) -> Any:
    """An action of one of the room's games at or after the cutoff (correlated to `rooms`)."""
    return exists().where(Action.game_id == GameRow.id, GameRow.room_id == Room.id, Action.created_at >= cutoff)


class Store:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.writer = ActionLogWriter(db.engine)

    @classmethod
    def open(cls, database_url: str, *, pool_size: int = 10, echo: bool = False) -> "Store":
        return cls(Database(database_url, pool_size=pool_size, echo=echo))

    @property
    def dialect(self) -> str:
        return self.db.dialect

    def start(self) -> None:
        self.writer.start()

    async def stop_writing(self) -> None:
        """Write what is pending, then stop the log writer."""
        await self.writer.stop()

    async def close(self) -> None:
        await self.db.dispose()

    def writes_failing(self) -> WriteFailure | None:
        """Since when and why the database refuses to store actions (None: the last batch was stored,
        or the last refusal is over 30 s old)."""
        return self.writer.failing_now()

    async def ping(self) -> None:
        async with self.db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    # ----- rooms -----------------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[RoomTx]:
        """A unit of work: committed when the block ends, rolled back if it raises."""
        try:
            async with self.db.sessions() as session, session.begin():
                yield RoomTx(session)
        except IntegrityError:
            raise Taken("taken by another writer first") from None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[RoomTx]:
        """Reads only: nothing is committed."""
        async with self.db.sessions() as session:
            yield RoomTx(session)

    async def status_counts(self) -> list[tuple[str, int]]:
        async with self.db.sessions() as session:
            return await repo.status_counts(session)

    # ----- games -----------------------------------------------------------------------------------

    async def game(self, game_id: int) -> StoredGame | None:
        async with self.db.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            if row is None:
                return None
            room = await session.get(Room, row.room_id)
            assert room is not None
            room_seats = await repo.seats_of(session, row.room_id)
            steps = await repo.actions_of(session, game_id)
        return _stored(row, room.code, room_seats, steps)

    async def running_games(self, batch: int = 50) -> AsyncIterator[list[StoredGame]]:
        """Every running game with its log (to restore them at start), `batch` games at a time: one
        query per batch of logs, and the event loop runs between batches."""
        async with self.db.sessions() as session:
            games, codes, seats = await repo.running_games(session)
        for start in range(0, len(games), batch):
            rows = games[start : start + batch]
            async with self.db.sessions() as session:
                logs = await repo.logs_of(session, [g.id for g in rows])
            yield [_stored(g, codes[g.room_id], seats.get(g.room_id, []), logs[g.id]) for g in rows]

    async def steps_since(self, game_id: int, seq: int) -> list[dict[str, Any]]:
        async with self.db.engine.connect() as conn:
            return await repo.actions_of(conn, game_id, seq)

    async def append(self, entry: Entry) -> bool:
        """Commit one action (and, with its `result`, finish its game and room). False if its step
        or its idempotency key was stored first; StorageDown if the database does not answer."""
        return await self.committed(self.submit(entry))

    def submit(self, entry: Entry) -> "asyncio.Future[bool]":
        """Queue one action for its commit (see ActionLogWriter.submit); `committed` awaits it."""
        return self.writer.submit(entry)

    @staticmethod
    async def committed(commit: "asyncio.Future[bool]") -> bool:
        """Whether a submitted action was stored; StorageDown if the database did not answer."""
        try:
            return await asyncio.shield(commit)  # the commit is the writer's, whoever stops waiting
        except (SQLAlchemyError, OSError, sqlite3.Error) as exc:
            raise StorageDown(str(exc)) from exc

    # ----- unused rooms (app/rooms/sweep.py) -------------------------------------------------------

    async def touch_room(self, code: str) -> None:
        """The room was used just now."""
        at = now()
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                update(Room)
                .where(Room.code == code, Room.status.in_(ACTIVE_ROOM_STATUSES), Room.updated_at < at)
                .values(updated_at=at)
            )

    async def idle_rooms(self, cutoff: datetime, limit: int) -> list[tuple[int, str]]:
        """(id, code) of the rooms in use with no change and no action since the cutoff."""
        query = (
            select(Room.id, Room.code)
            .where(Room.status.in_(ACTIVE_ROOM_STATUSES), Room.updated_at < cutoff, ~_recent_action(cutoff))
            .order_by(Room.id)
            .limit(limit)
        )
        async with self.db.sessions() as session:
            return [(r.id, r.code) for r in (await session.execute(query)).all()]

    async def close_idle_room(self, room_id: int, cutoff: datetime) -> tuple[int, ...] | None:
        """Close the room if it is still unused since the cutoff, and abandon its running game, in one
        transaction: the abandoned games' ids, or None if it was used meanwhile or closed by another."""
        at = now()
        async with self.db.sessions() as session, session.begin():
            claimed = await session.execute(
                update(Room)
                .where(
                    Room.id == room_id,
                    Room.status.in_(ACTIVE_ROOM_STATUSES),
                    Room.updated_at < cutoff,
                    ~_recent_action(cutoff),
                )
                .values(status="closed", updated_at=at)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return None
            abandoned = await session.execute(
                update(GameRow)
                .where(GameRow.room_id == room_id, GameRow.status == "running")
                .values(status="abandoned", finished_at=at)
                .returning(GameRow.id)
            )
            return tuple(sorted(abandoned.scalars().all()))

    async def abandoned_among(self, game_ids: Sequence[int]) -> list[int]:
        query = select(GameRow.id).where(GameRow.id.in_(game_ids), GameRow.status == "abandoned")
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())
