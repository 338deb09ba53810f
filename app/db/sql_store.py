"""The Store on SQLAlchemy: SQLite or PostgreSQL (app/db/storage.py is the interface).

Every database error is translated here, at the edge of each operation: a unique key another
writer took first becomes `Taken`, an outage (unreachable, connection lost, pool exhausted, SQLite
locked, a disk that refuses to write) `StorageDown`, anything else `StorageFailure`. Rows become
frozen records; the rooms layer never holds a row or a session.
"""

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import exists, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import repo
from app.db.failures import DATABASE_ERRORS, is_disk_failure, translated, translating
from app.db.log_writer import ActionLogWriter
from app.db.models import Action, ChatMessage, Game, GameState, NotifyChannel, Room, Seat
from app.db.names import name_key
from app.db.records import chat_record, game_record, room_record, seat_record
from app.db.session import Database
from app.db.sql_held_seats import SqlHeldSeats
from app.db.sql_outbox import SqlOutbox, write_notices
from app.db.sql_reviews import SqlReviews
from app.db.storage import (
    ChatRecord,
    Entry,
    GameRecord,
    Notice,
    RoomRecord,
    RoomTx,
    SavedState,
    SeatRecord,
    StorageDown,
    StorageFailure,
    Store,
    StoredGame,
    WriteFailure,
    now,
)

ACTIVE_ROOM_STATUSES = repo.ACTIVE_ROOM_STATUSES
RowT = TypeVar("RowT", Room, Seat)


class SqlRoomTx(RoomTx):
    """Changes are written when the session next queries and when the unit of work commits (a unique
    key already taken comes out then, as Taken)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    @translating
    async def room(self, code: str, *, lock: bool = False) -> RoomRecord | None:
        row = await repo.room_by_code(self.session, code, for_update=lock)
        return None if row is None else room_record(row)

    @translating
    async def seats(self, room_id: int) -> list[SeatRecord]:
        return [seat_record(row) for row in await repo.seats_of(self.session, room_id)]

    @translating
    async def seat(self, room_id: int, seat: int) -> SeatRecord | None:
        query = select(Seat).where(Seat.room_id == room_id, Seat.seat == seat)
        row = (await self.session.execute(query)).scalar_one_or_none()
        return None if row is None else seat_record(row)

    @translating
    async def seat_by_token(self, room_id: int, token_hash: str) -> SeatRecord | None:
        row = await repo.seat_by_token(self.session, room_id, token_hash)
        return None if row is None else seat_record(row)

    @translating
    async def seat_by_rejoin(self, room_id: int, rejoin_hash: str) -> SeatRecord | None:
        query = select(Seat).where(Seat.room_id == room_id, Seat.rejoin_hash == rejoin_hash)
        row = (await self.session.execute(query)).scalar_one_or_none()
        return None if row is None else seat_record(row)

    @translating
    async def seats_by_tokens(
        self, token_hashes: Sequence[str], *, lock: bool = False
    ) -> list[tuple[RoomRecord, SeatRecord]]:
        return await self._seats_where(Seat.token_hash.in_(set(token_hashes)), lock=lock)

    @translating
    async def seats_by_rejoins(
        self, rejoin_hashes: Sequence[str], *, lock: bool = False
    ) -> list[tuple[RoomRecord, SeatRecord]]:
        return await self._seats_where(Seat.rejoin_hash.in_(set(rejoin_hashes)), lock=lock)

    async def _seats_where(self, condition: Any, *, lock: bool) -> list[tuple[RoomRecord, SeatRecord]]:
        query = select(Room, Seat).join(Seat, Seat.room_id == Room.id).where(condition).order_by(Room.id, Seat.seat)
        if lock:
            query = query.with_for_update(of=Room)  # the rooms, in the order of their ids
        return [(room_record(room), seat_record(seat)) for room, seat in (await self.session.execute(query)).all()]

    @translating
    async def count_rooms(self, statuses: Sequence[str]) -> int:
        return await repo.count_rooms(self.session, statuses)

    @translating
    async def latest_game(self, room_id: int) -> GameRecord | None:
        row = await repo.latest_game(self.session, room_id)
        return None if row is None else game_record(row)

    @translating
    async def games(self, room_id: int) -> list[GameRecord]:
        return [game_record(row) for row in await repo.games_of(self.session, room_id)]

    @translating
    async def game(self, game_id: int) -> GameRecord | None:
        row = await repo.game_by_id(self.session, game_id)
        return None if row is None else game_record(row)

    @translating
    async def step_count(self, game_id: int) -> int:
        return await repo.step_count(self.session, game_id)

    @translating
    async def add_room(self, code: str, settings: dict[str, Any], host_seat: int) -> RoomRecord:
        row = Room(code=code, status="open", settings=settings, host_seat=host_seat)
        self.session.add(row)
        await self.session.flush()
        return room_record(row)

    @translating
    async def add_person(self, room_id: int, seat: int, name: str, token_hash: str) -> None:
        self.session.add(
            Seat(room_id=room_id, seat=seat, name=name, name_key=name_key(name), kind="human", token_hash=token_hash)
        )

    @translating
    async def add_bot(self, room_id: int, seat: int, kind: str) -> None:
        name = f"{kind.capitalize()} bot {seat}"
        self.session.add(Seat(room_id=room_id, seat=seat, name=name, name_key=name_key(name), kind="bot", bot=kind))

    @translating
    async def remove_seat(self, seat: SeatRecord) -> None:
        row = await self.session.get(Seat, seat.id)
        if row is not None:
            await self.session.delete(row)

    @translating
    async def update_room(self, room: RoomRecord, **changes: Any) -> RoomRecord:
        return room_record(await self._changed(Room, room.id, changes))

    @translating
    async def update_seat(self, seat: SeatRecord, **changes: Any) -> SeatRecord:
        return seat_record(await self._changed(Seat, seat.id, changes))

    async def _changed(self, model: type[RowT], row_id: int, changes: dict[str, Any]) -> RowT:
        """The row (from the session's identity map: it was read in this unit of work), changed;
        the session writes it before its next query or at the commit."""
        row = await self.session.get(model, row_id)
        if row is None:
            raise StorageFailure(f"{model.__tablename__} row {row_id} is gone from this unit of work")
        for name, value in changes.items():
            setattr(row, name, value)
        return row

    @translating
    async def claim_room(self, room_id: int, statuses: Sequence[str], status: str) -> bool:
        claimed = await self.session.execute(
            update(Room).where(Room.id == room_id, Room.status.in_(statuses)).values(status=status, updated_at=now())
        )
        return claimed.rowcount == 1  # type: ignore[attr-defined]

    @translating
    async def add_game(
        self,
        *,
        room_id: int,
        kind: str,
        config: dict[str, Any],
        seed: int,
        seats: list[Any],
        clock: dict[str, Any] | None,
    ) -> int:
        row = Game(status="running", room_id=room_id, kind=kind, config=config, seed=seed, seats=seats, clock=clock)
        self.session.add(row)
        await self.session.flush()
        return row.id

    @translating
    async def channel_seats(self, room_id: int) -> frozenset[int]:
        rows = await self.session.execute(select(NotifyChannel.seat).where(NotifyChannel.room_id == room_id))
        return frozenset(rows.scalars())

    @translating
    async def add_notices(self, notices: Sequence[Notice]) -> None:
        await write_notices(self.session, self.session.bind.dialect.name, notices)


def _stored(
    row: Game,
    room_code: str,
    room_seats: Sequence[Seat],
    steps: list[dict[str, Any]],
    saved: GameState | None = None,
) -> StoredGame:
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
        [seat_record(s) for s in room_seats],
        steps,
        None if saved is None else SavedState(saved.version, saved.engine, saved.state, saved.frame),
    )


def _recent_action(cutoff: datetime) -> Any:
    """An action of one of the room's games at or after the cutoff (correlated to `rooms`)."""
    return exists().where(Action.game_id == Game.id, Game.room_id == Room.id, Action.created_at >= cutoff)


def due_claim(now: datetime, until: datetime, limit: int) -> Any:
    """The running games whose wake has come (at most `limit`, the earliest first), their wake moved
    to `until`; their ids returned. Read through the index on (status, wake_at): the games that are
    due, never every running one."""
    due = (
        select(Game.id)
        .where(Game.status == "running", Game.wake_at <= now)
        .order_by(Game.wake_at)
        .limit(limit)
        .with_for_update(skip_locked=True)  # PostgreSQL: another instance's claims are passed over
    )
    return (
        update(Game)
        .where(Game.id.in_(due.scalar_subquery()), Game.wake_at <= now)
        .values(wake_at=until)
        .returning(Game.id)
        .execution_options(synchronize_session=False)
    )


def _game_with_a_wake() -> Any:
    """A running game of the room with a wake (correlated to `rooms`): its clock or its bots move it
    on by themselves (a turn-based game waits days for a decision), so the room is in use."""
    return exists().where(Game.room_id == Room.id, Game.status == "running", Game.wake_at.is_not(None))


def _unused(cutoff: datetime) -> tuple[Any, ...]:
    """What makes a room unused since the cutoff (correlated to `rooms`)."""
    return (
        Room.status.in_(ACTIVE_ROOM_STATUSES),
        Room.updated_at < cutoff,
        ~_recent_action(cutoff),
        ~_game_with_a_wake(),
    )


class SqlStore(SqlOutbox, SqlReviews, SqlHeldSeats, Store):
    def __init__(self, db: Database) -> None:
        self.db = db
        self.writer = ActionLogWriter(db.engine)
        self.dialect = db.dialect

    @classmethod
    def open(cls, database_url: str, *, pool_size: int = 10, echo: bool = False) -> "SqlStore":
        return cls(Database(database_url, pool_size=pool_size, echo=echo))

    def start(self) -> None:
        self.writer.start()

    async def stop_writing(self) -> None:
        await self.writer.stop()

    async def close(self) -> None:
        await self.db.dispose()

    def writes_failing(self) -> WriteFailure | None:
        return self.writer.failing_now()

    @translating
    async def ping(self) -> None:
        async with self.db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    # ----- rooms -----------------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[RoomTx]:
        try:
            async with self.db.sessions() as session, session.begin():
                yield SqlRoomTx(session)
        except DATABASE_ERRORS as exc:
            raise translated(exc) from exc

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[RoomTx]:
        try:
            async with self.db.sessions() as session:
                yield SqlRoomTx(session)
        except DATABASE_ERRORS as exc:
            raise translated(exc) from exc

    @translating
    async def status_counts(self) -> list[tuple[str, int]]:
        async with self.db.sessions() as session:
            return await repo.status_counts(session)

    # ----- games -----------------------------------------------------------------------------------

    @translating
    async def game(self, game_id: int) -> StoredGame | None:
        async with self.db.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            if row is None:
                return None
            room = await session.get(Room, row.room_id)
            assert room is not None
            room_seats = await repo.seats_of(session, row.room_id)
            steps = await repo.actions_of(session, game_id)
            saved = await session.get(GameState, game_id) if row.status == "running" else None
            notify = await session.execute(select(NotifyChannel.seat).where(NotifyChannel.room_id == row.room_id))
        return replace(_stored(row, room.code, room_seats, steps, saved), notify=frozenset(notify.scalars()))

    @translating
    async def steps_since(self, game_id: int, seq: int) -> list[dict[str, Any]]:
        async with self.db.engine.connect() as conn:
            return await repo.actions_of(conn, game_id, seq)

    @translating
    async def save_state(self, game_id: int, saved: SavedState) -> None:
        values = {
            "game_id": game_id,
            "version": saved.version,
            "engine": saved.engine,
            "state": saved.state,
            "frame": saved.frame,
            "saved_at": now(),
        }
        insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert
        statement = insert(GameState).values(values)
        statement = statement.on_conflict_do_update(
            index_elements=[GameState.game_id],
            set_={k: statement.excluded[k] for k in values if k != "game_id"},
            where=GameState.version <= statement.excluded.version,  # the same version: kept again
        )
        async with self.db.sessions() as session, session.begin():
            await session.execute(statement)

    @translating
    async def set_wake(self, game_id: int, at: datetime | None, *, version: int | None = None) -> bool:
        statement = update(Game).where(Game.id == game_id, Game.status == "running")
        if version is not None:  # not over the wake a newer step wrote
            statement = statement.where(~exists().where(Action.game_id == game_id, Action.seq >= version))
        async with self.db.sessions() as session, session.begin():
            done = await session.execute(statement.values(wake_at=at))
            return done.rowcount == 1  # type: ignore[attr-defined]

    @translating
    async def claim_due(self, now: datetime, until: datetime, limit: int) -> list[int]:
        async with self.db.sessions() as session, session.begin():
            return sorted((await session.execute(due_claim(now, until, limit))).scalars())

    def submit(self, entry: Entry) -> "asyncio.Future[bool]":
        return self.writer.submit(entry)

    async def committed(self, commit: "asyncio.Future[bool]") -> bool:
        try:
            return await asyncio.shield(commit)  # the commit is the writer's, whoever stops waiting
        except DATABASE_ERRORS as exc:  # the writer stores nothing of a batch that fails: an outage to us
            raise StorageDown(str(exc), disk=is_disk_failure(exc)) from exc

    # ----- a room's chat ------------------------------------------------------------------------

    @translating
    async def add_chat(self, room_id: int, seat: int, name: str, text: str, kind: str = "say") -> ChatRecord:
        row = ChatMessage(room_id=room_id, seat=seat, name=name, text=text, at=now(), deleted=False, kind=kind)
        async with self.db.sessions() as session, session.begin():
            session.add(row)
            await session.flush()
            return chat_record(row)

    @translating
    async def chat(
        self,
        room_id: int,
        *,
        after: int = 0,
        limit: int = 100,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[ChatRecord]:
        query = select(ChatMessage).where(ChatMessage.room_id == room_id, ChatMessage.id > after)
        if since is not None:
            query = query.where(ChatMessage.at >= since)
        if until is not None:
            query = query.where(ChatMessage.at < until)
        query = query.order_by(ChatMessage.id.desc()).limit(limit)
        async with self.db.sessions() as session:
            rows = (await session.execute(query)).scalars().all()
        return [chat_record(row) for row in reversed(rows)]

    @translating
    async def delete_chat(self, room_id: int, message_id: int) -> ChatRecord | None:
        async with self.db.sessions() as session, session.begin():
            row = await session.get(ChatMessage, message_id)
            if row is None or row.room_id != room_id:
                return None
            row.deleted = True
            return chat_record(row)

    # ----- unused rooms (app/rooms/sweep.py) -------------------------------------------------------

    @translating
    async def touch_room(self, code: str) -> None:
        at = now()
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                update(Room)
                .where(Room.code == code, Room.status.in_(ACTIVE_ROOM_STATUSES), Room.updated_at < at)
                .values(updated_at=at)
            )

    @translating
    async def idle_rooms(self, cutoff: datetime, limit: int) -> list[tuple[int, str]]:
        query = select(Room.id, Room.code).where(*_unused(cutoff)).order_by(Room.id).limit(limit)
        async with self.db.sessions() as session:
            return [(r.id, r.code) for r in (await session.execute(query)).all()]

    @translating
    async def close_idle_room(self, room_id: int, cutoff: datetime) -> tuple[int, ...] | None:
        at = now()
        async with self.db.sessions() as session, session.begin():
            claimed = await session.execute(
                update(Room).where(Room.id == room_id, *_unused(cutoff)).values(status="closed", updated_at=at)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return None
            abandoned = await session.execute(
                update(Game)
                .where(Game.room_id == room_id, Game.status == "running")
                .values(status="abandoned", finished_at=at)
                .returning(Game.id)
            )
            return tuple(sorted(abandoned.scalars().all()))

    @translating
    async def abandoned_among(self, game_ids: Sequence[int]) -> list[int]:
        query = select(Game.id).where(Game.id.in_(game_ids), Game.status == "abandoned")
        async with self.db.sessions() as session:
            return list((await session.execute(query)).scalars())
