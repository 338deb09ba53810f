"""Channels and the outbox on SQLAlchemy (app/db/outbox_storage.py is the interface)."""

import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.failures import translating
from app.db.models import Action, NotifyChannel, OutboxMessage, Room, Seat
from app.db.outbox_storage import ChannelRecord, Notice, OutboxRecord, OutboxStore, Outcome, Target
from app.db.session import Database


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def channel_record(row: NotifyChannel) -> ChannelRecord:
    return ChannelRecord(row.room_id, row.seat, list(row.urls), row.push, row.when, row.stop_key)


def notice_row(notice: Notice) -> dict[str, Any]:
    return {
        "key": notice.key,
        "room_id": notice.room_id,
        "seat": notice.seat,
        "game_id": notice.game_id,
        "kind": notice.kind,
        "title": notice.title[:200],
        "body": notice.body[:2000],
        "unless_acted_from": notice.unless_acted_from,
        "state": "pending",
        "due_at": notice.due_at,
        "attempts": 0,
        "delivered": [],
        "created_at": datetime.now(UTC),
    }


def insert_notices(dialect: str) -> Any:
    """INSERT INTO outbox ... ON CONFLICT DO NOTHING (a key written before is left alone)."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return insert(OutboxMessage).on_conflict_do_nothing()


async def write_notices(session: AsyncSession, dialect: str, notices: Sequence[Notice]) -> None:
    if notices:
        await session.execute(insert_notices(dialect), [notice_row(n) for n in notices])


class SqlOutbox(OutboxStore):
    db: Database
    dialect: str

    @translating
    async def set_channels(
        self, room_id: int, seat: int, urls: Sequence[str], push: dict[str, Any] | None, when: str
    ) -> ChannelRecord:
        async with self.db.sessions() as session, session.begin():
            row = (
                await session.execute(
                    select(NotifyChannel).where(NotifyChannel.room_id == room_id, NotifyChannel.seat == seat)
                )
            ).scalar_one_or_none()
            if row is None:
                row = NotifyChannel(room_id=room_id, seat=seat, stop_key=secrets.token_urlsafe(24))
                session.add(row)
            row.urls, row.push, row.when, row.updated_at = list(urls), push, when, datetime.now(UTC)
            await session.flush()
            return channel_record(row)

    @translating
    async def channels(self, room_id: int, seat: int) -> ChannelRecord | None:
        query = select(NotifyChannel).where(NotifyChannel.room_id == room_id, NotifyChannel.seat == seat)
        async with self.db.sessions() as session:
            row = (await session.execute(query)).scalar_one_or_none()
        return None if row is None else channel_record(row)

    @translating
    async def channel_seats(self, room_id: int) -> frozenset[int]:
        async with self.db.sessions() as session:
            rows = await session.execute(select(NotifyChannel.seat).where(NotifyChannel.room_id == room_id))
            return frozenset(rows.scalars())

    @translating
    async def delete_channels(self, room_id: int, seat: int) -> bool:
        async with self.db.sessions() as session, session.begin():
            row = (
                await session.execute(
                    select(NotifyChannel).where(NotifyChannel.room_id == room_id, NotifyChannel.seat == seat)
                )
            ).scalar_one_or_none()
            if row is None:
                return False
            await session.delete(row)
            return True

    @translating
    async def channel_by_stop(self, stop_key: str) -> tuple[str, ChannelRecord] | None:
        query = (
            select(NotifyChannel, Room.code)
            .join(Room, Room.id == NotifyChannel.room_id)
            .where(NotifyChannel.stop_key == stop_key)
        )
        async with self.db.sessions() as session:
            found = (await session.execute(query)).first()
        return None if found is None else (found[1], channel_record(found[0]))

    @translating
    async def add_notices(self, notices: Sequence[Notice]) -> None:
        async with self.db.sessions() as session, session.begin():
            await write_notices(session, self.dialect, notices)

    @translating
    async def claim_notices(self, now: datetime, until: datetime, limit: int) -> list[OutboxRecord]:
        due = (
            select(OutboxMessage.id)
            .where(
                OutboxMessage.state == "pending",
                OutboxMessage.due_at <= now,
                (OutboxMessage.claimed_until.is_(None)) | (OutboxMessage.claimed_until <= now),
            )
            .order_by(OutboxMessage.due_at, OutboxMessage.id)
            .limit(limit)
            .with_for_update(skip_locked=True)  # PostgreSQL: another instance's claims are passed over
        )
        claim = (
            update(OutboxMessage)
            .where(
                OutboxMessage.id.in_(due.scalar_subquery()),
                OutboxMessage.state == "pending",
                (OutboxMessage.claimed_until.is_(None)) | (OutboxMessage.claimed_until <= now),
            )
            .values(claimed_until=until)
            .returning(OutboxMessage.id)
            .execution_options(synchronize_session=False)
        )
        async with self.db.sessions() as session, session.begin():
            ids = list((await session.execute(claim)).scalars())
            if not ids:
                return []
            rows = (
                await session.execute(
                    select(OutboxMessage, Room.code)
                    .join(Room, Room.id == OutboxMessage.room_id)
                    .where(OutboxMessage.id.in_(ids))
                    .order_by(OutboxMessage.id)
                )
            ).all()
        return [
            OutboxRecord(
                m.id,
                m.key,
                m.room_id,
                code,
                m.seat,
                m.game_id,
                m.kind,
                m.title,
                m.body,
                m.unless_acted_from,
                m.attempts,
                list(m.delivered or []),
                m.created_at and _utc(m.created_at),
            )
            for m, code in rows
        ]

    @translating
    async def targets(self, keys: Sequence[tuple[int, int]], since: datetime) -> dict[tuple[int, int], Target]:
        rooms = sorted({room for room, _ in keys})
        wanted = set(keys)
        async with self.db.sessions() as session:
            channels = {
                (row.room_id, row.seat): channel_record(row)
                for row in (
                    await session.execute(select(NotifyChannel).where(NotifyChannel.room_id.in_(rooms)))
                ).scalars()
            }
            seats = {
                (row.room_id, row.seat): (row.kind, row.bot_plays)
                for row in (
                    await session.execute(
                        select(Seat.room_id, Seat.seat, Seat.kind, Seat.bot_plays).where(Seat.room_id.in_(rooms))
                    )
                ).all()
            }
            sent: dict[tuple[int, int], list[datetime]] = {}
            query = (
                select(OutboxMessage.room_id, OutboxMessage.seat, OutboxMessage.sent_at)
                .where(OutboxMessage.room_id.in_(rooms), OutboxMessage.state == "sent", OutboxMessage.sent_at >= since)
                .order_by(OutboxMessage.sent_at)
            )
            for row in (await session.execute(query)).all():
                sent.setdefault((row.room_id, row.seat), []).append(_utc(row.sent_at))
        out = {}
        for key in wanted:
            kind, bot_plays = seats.get(key, (None, None))
            out[key] = Target(channels.get(key), kind, bot_plays, sent.get(key, []))
        return out

    @translating
    async def last_steps(self, game_ids: Sequence[int]) -> dict[tuple[int, int], int]:
        if not game_ids:
            return {}
        query = (
            select(Action.game_id, Action.seat, func.max(Action.seq))
            .where(Action.game_id.in_(sorted(set(game_ids))))
            .group_by(Action.game_id, Action.seat)
        )
        async with self.db.sessions() as session:
            return {(g, seat): int(last) for g, seat, last in (await session.execute(query)).all()}

    @translating
    async def settle(self, outcomes: Sequence[Outcome]) -> None:
        if not outcomes:
            return
        async with self.db.sessions() as session, session.begin():
            for o in outcomes:
                values: dict[str, Any] = {"state": o.state, "claimed_until": None, "last_error": o.error}
                if o.state in ("sent", "merged"):
                    values["sent_at"] = o.at
                if o.delivered:
                    values["delivered"] = list(o.delivered)
                if o.due_at is not None:
                    values["due_at"] = o.due_at
                if o.attempt:
                    values["attempts"] = OutboxMessage.attempts + 1
                await session.execute(update(OutboxMessage).where(OutboxMessage.id == o.id).values(values))

    @translating
    async def outbox(self, room_id: int) -> list[dict[str, Any]]:
        query = select(OutboxMessage).where(OutboxMessage.room_id == room_id).order_by(OutboxMessage.id)
        async with self.db.sessions() as session:
            rows = (await session.execute(query)).scalars().all()
        return [
            {
                "id": m.id,
                "key": m.key,
                "seat": m.seat,
                "kind": m.kind,
                "title": m.title,
                "body": m.body,
                "state": m.state,
                "attempts": m.attempts,
                "due_at": _utc(m.due_at),
                "sent_at": m.sent_at and _utc(m.sent_at),
                "last_error": m.last_error,
            }
            for m in rows
        ]
