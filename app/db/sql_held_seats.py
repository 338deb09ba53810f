"""The seats a list of tokens holds, for "My games", on SQLAlchemy (Store.held_seats)."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from app.db.failures import translating
from app.db.models import Action, Game, GameState, Room, Seat
from app.db.records import game_record, room_record, seat_record
from app.db.session import Database
from app.db.storage import HeldSeat, SeatRecord


class SqlHeldSeats:
    db: Database

    @translating
    async def held_seats(self, token_hashes: Sequence[str]) -> list[HeldSeat]:
        hashes = set(token_hashes)
        if not hashes:
            return []
        async with self.db.sessions() as session:
            held = (
                await session.execute(
                    select(Room, Seat).join(Seat, Seat.room_id == Room.id).where(Seat.token_hash.in_(hashes))
                )
            ).all()
            room_ids = sorted({room.id for room, _ in held})
            seats: dict[int, list[SeatRecord]] = {}
            query = select(Seat).where(Seat.room_id.in_(room_ids)).order_by(Seat.room_id, Seat.seat)
            for row in (await session.execute(query)).scalars():
                seats.setdefault(row.room_id, []).append(seat_record(row))
            latest = select(func.max(Game.id)).where(Game.room_id.in_(room_ids)).group_by(Game.room_id)
            games = {
                row.room_id: row for row in (await session.execute(select(Game).where(Game.id.in_(latest)))).scalars()
            }
            running = [g.id for g in games.values() if g.status == "running"]
            steps: dict[int, int] = {}
            kept: dict[int, tuple[int, dict[str, Any]]] = {}
            if running:
                query = (
                    select(Action.game_id, func.max(Action.seq))
                    .where(Action.game_id.in_(running))
                    .group_by(Action.game_id)
                )
                steps = {game_id: int(last) + 1 for game_id, last in (await session.execute(query)).all()}
                query = select(GameState.game_id, GameState.version, GameState.frame).where(
                    GameState.game_id.in_(running)
                )
                kept = {r.game_id: (r.version, r.frame) for r in (await session.execute(query)).all()}
        out = []
        for room, seat in held:
            game = games.get(room.id)
            version, frame = kept.get(game.id, (None, None)) if game is not None else (None, None)
            out.append(
                HeldSeat(
                    seat.token_hash or "",
                    room_record(room),
                    seat_record(seat),
                    tuple(seats.get(room.id, ())),
                    None if game is None else game_record(game),
                    0 if game is None else steps.get(game.id, 0),
                    version,
                    frame,
                )
            )
        return out
