"""Rows as the frozen records the storage interface returns (app/db/storage.py)."""

from app.db.models import ChatMessage, Game, Room, Seat
from app.db.storage import ChatRecord, GameRecord, RoomRecord, SeatRecord


def room_record(row: Room) -> RoomRecord:
    return RoomRecord(row.id, row.code, row.status, row.settings, row.host_seat, row.created_at, row.updated_at)


def seat_record(row: Seat) -> SeatRecord:
    return SeatRecord(
        row.id,
        row.room_id,
        row.seat,
        row.name,
        row.name_key,
        row.kind,
        row.bot,
        row.token_hash,
        row.joined_at,
        row.bot_plays,
        row.bot_reason,
        row.rejoin_hash,
        row.taken_back_at,
    )


def chat_record(row: ChatMessage) -> ChatRecord:
    return ChatRecord(row.id, row.room_id, row.seat, row.name, row.text, row.at, row.deleted, row.kind)


def game_record(row: Game) -> GameRecord:
    return GameRecord(
        row.id,
        row.room_id,
        row.kind,
        row.config,
        row.seed,
        row.seats,
        row.status,
        row.result,
        row.created_at,
        row.finished_at,
        row.clock,
    )
