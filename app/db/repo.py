"""Queries, for app/db/sql_store.py (the SQL implementation of the storage interface the rooms layer
calls, app/db/storage.py): nothing above app/db writes SQL."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.db.models import Action, Game, Room, Seat

ACTIVE_ROOM_STATUSES = ("open", "playing", "finished")


async def room_by_code(session: AsyncSession, code: str, *, for_update: bool = False) -> Room | None:
    query = select(Room).where(Room.code == code)
    if for_update:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def seats_of(session: AsyncSession, room_id: int) -> Sequence[Seat]:
    return (await session.execute(select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat))).scalars().all()


async def seat_by_token(session: AsyncSession, room_id: int, token_hash: str) -> Seat | None:
    query = select(Seat).where(Seat.room_id == room_id, Seat.token_hash == token_hash)
    return (await session.execute(query)).scalar_one_or_none()


async def count_rooms(session: AsyncSession, statuses: Sequence[str]) -> int:
    query = select(func.count()).select_from(Room).where(Room.status.in_(statuses))
    return int((await session.execute(query)).scalar_one())


async def status_counts(session: AsyncSession) -> list[tuple[str, int]]:
    """(room status, count) for the rooms in use, and ("games_running", count): one cheap query
    (both columns are indexed), for /metrics."""
    rooms = select(Room.status, func.count()).where(Room.status.in_(ACTIVE_ROOM_STATUSES)).group_by(Room.status)
    games = select(literal("games_running"), func.count()).select_from(Game).where(Game.status == "running")
    return [(str(name), int(n)) for name, n in (await session.execute(union_all(rooms, games))).all()]


async def latest_game(session: AsyncSession, room_id: int) -> Game | None:
    query = select(Game).where(Game.room_id == room_id).order_by(Game.id.desc()).limit(1)
    return (await session.execute(query)).scalar_one_or_none()


async def games_of(session: AsyncSession, room_id: int) -> Sequence[Game]:
    return (await session.execute(select(Game).where(Game.room_id == room_id).order_by(Game.id))).scalars().all()


async def game_by_id(session: AsyncSession, game_id: int) -> Game | None:
    return await session.get(Game, game_id)


STEP_COLUMNS = (Action.seq, Action.seat, Action.action, Action.action_id, Action.created_at, Action.by_timeout)


def _step(r: Any) -> dict[str, Any]:
    return {
        "seq": r.seq,
        "seat": r.seat,
        "action": r.action,
        "action_id": r.action_id,
        "created_at": r.created_at,
        "by_timeout": bool(r.by_timeout),
    }


async def actions_of(session: AsyncSession | AsyncConnection, game_id: int, from_seq: int = 0) -> list[dict[str, Any]]:
    """The log from `from_seq` on, in order: [{"seq", "seat", "action", "action_id", "created_at",
    "by_timeout"}]."""
    query = select(*STEP_COLUMNS).where(Action.game_id == game_id, Action.seq >= from_seq).order_by(Action.seq)
    return [_step(r) for r in (await session.execute(query)).all()]


async def step_count(session: AsyncSession, game_id: int) -> int:
    """How many steps the game's log holds (its version): one more than its last seq."""
    last = (await session.execute(select(func.max(Action.seq)).where(Action.game_id == game_id))).scalar_one()
    return 0 if last is None else int(last) + 1
