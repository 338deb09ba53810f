"""Reading rooms: a room as everyone may see it (with who is connected and who is away), its games,
and who a seat token belongs to."""

import logging
import time
from datetime import UTC, datetime
from typing import Any

from app.db.storage import GameRecord, RoomRecord, RoomTx, SeatRecord, iso
from app.rooms.clocks import ClockSettings, pace_of
from app.rooms.errors import Conflict, Forbidden, NotFound, Unauthorized
from app.rooms.room_base import RoomServiceBase, SeatAuth
from app.rooms.room_rules import check_spectator, notices
from app.tokens import hash_token, is_code, normalize_code

log = logging.getLogger("wonders.rooms")


class RoomReads(RoomServiceBase):
    """Rooms as everyone may see them, and the seat a token holds."""

    async def _room(self, tx: RoomTx, code: str, *, lock: bool = False) -> RoomRecord:
        code = normalize_code(code)
        room = await tx.room(code, lock=lock) if is_code(code) else None
        if room is None:
            raise NotFound(f"there is no room {code!r}", code="room_not_found")
        return room

    async def get(self, code: str) -> dict[str, Any]:
        return (await self.load(code))[0]

    async def load(self, code: str) -> tuple[dict[str, Any], dict[int, str]]:
        """The room as everyone may see it, and (for the server only) each person's token hash by seat."""
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            seats = await tx.seats(room.id)
            game = await tx.latest_game(room.id)
        hashes = {s.seat: s.token_hash for s in seats if s.token_hash}
        return await self._info(room, seats, game), hashes

    async def _info(self, room: RoomRecord, seats: Any, game: GameRecord | None) -> dict[str, Any]:
        counts = await self.presence.counts(room.code)
        gone = await self.presence.gone(room.code)
        moment = time.time()
        by_seat = {s.seat: s for s in seats}
        settings = {
            **ClockSettings().model_dump(mode="json"),
            **{k: v for k, v in room.settings.items() if k != "seed"},
        }
        settings["seed_fixed"] = room.settings.get("seed") is not None
        settings["notices"] = notices(settings.get("expansions", ()))
        settings.setdefault("spectators", "live")
        settings.setdefault("hints", False)
        settings["pace"] = pace_of(settings.get("clock"))
        out_seats = []
        for i in range(room.settings["players"]):
            s = by_seat.get(i)
            kind = s.kind if s else "free"
            out_seats.append(
                {
                    "seat": i,
                    "kind": kind,
                    "name": s.name if s else None,
                    "bot": s.bot if s else None,
                    "host": room.host_seat == i,
                    **self._presence_of(kind, i, counts, gone, moment),
                    "bot_plays": s.bot_plays if s and kind == "human" else None,
                    "bot_reason": s.bot_reason if s and kind == "human" and s.bot_plays else None,
                }
            )
        return {
            "code": room.code,
            "status": room.status,
            "host_seat": room.host_seat,
            "settings": settings,
            "seats": out_seats,
            "spectators": counts.get("s", 0),
            "game": None if game is None else {"id": game.id, "status": game.status, "kind": game.kind},
            "created_at": iso(room.created_at),
        }

    async def with_presence(self, room: dict[str, Any]) -> dict[str, Any]:
        """The room with who is connected (and who is away) brought up to date (no database read)."""
        counts = await self.presence.counts(room["code"])
        gone = await self.presence.gone(room["code"])
        moment = time.time()
        seats = [{**s, **self._presence_of(s["kind"], s["seat"], counts, gone, moment)} for s in room["seats"]]
        return {**room, "seats": seats, "spectators": counts.get("s", 0)}

    def _presence_of(
        self, kind: str, seat: int, counts: dict[str, int], gone: dict[str, float], moment: float
    ) -> dict[str, Any]:
        """connected, and away: a person's seat whose last connection closed over AWAY_GRACE_SECONDS
        ago (with when it closed). Bots are always connected, never away."""
        connected = kind == "bot" or (kind == "human" and counts.get(str(seat), 0) > 0)
        left = gone.get(str(seat)) if kind == "human" and not connected else None
        away = left is not None and moment - left >= self.settings.away_grace_seconds
        since = iso(datetime.fromtimestamp(left, UTC)) if away and left is not None else None
        return {"connected": connected, "away": away, "away_since": since}

    async def current_game(self, code: str, game_id: int | None = None, *, spectator: bool = False) -> tuple[int, str]:
        """(game id, status) of the room's latest game, or of `game_id` if it was played in this room.
        `spectator` (no seat token): refused unless the room's `spectators` policy lets them see it."""
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            if game_id is None:
                game = await tx.latest_game(room.id)
                if game is None:
                    raise NotFound(f"room {room.code} has not started a game yet", code="no_game")
            else:
                game = await tx.game(game_id)
                if game is None or game.room_id != room.id:
                    raise NotFound(f"room {room.code} has no game {game_id}", code="game_not_found")
            if spectator:
                check_spectator(room, game.status)
            return game.id, game.status

    async def games_of(self, code: str) -> list[dict[str, Any]]:
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            games = await tx.games(room.id)
        return [
            {
                "id": g.id,
                "status": g.status,
                "kind": g.kind,
                "seats": g.seats,
                "created_at": iso(g.created_at),
                "finished_at": iso(g.finished_at),
                "winners": (g.result or {}).get("winners"),
            }
            for g in games
        ]

    async def authenticate(self, code: str, token: str | None) -> SeatAuth:
        if not token:
            raise Unauthorized("this needs a seat token: send 'Authorization: Bearer <token>'", code="missing_token")
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            seat = await tx.seat_by_token(room.id, hash_token(token))
        if seat is None:
            log.info("refused a seat token that holds no seat", extra={"room": room.code})
            raise Unauthorized(f"that token holds no seat in room {room.code}", code="bad_token")
        return SeatAuth(
            room.id, room.code, seat.seat, room.host_seat == seat.seat, seat.token_hash or "", seat.bot_plays
        )

    async def _seat_row(self, tx: RoomTx, room: RoomRecord, seat_no: int) -> SeatRecord:
        row = await tx.seat(room.id, seat_no)
        if row is None:
            raise NotFound(f"seat {seat_no} of room {room.code} is free", code="seat_free")
        return row

    async def _person_seat(self, tx: RoomTx, room: RoomRecord, seat_no: int) -> SeatRecord:
        seat = await self._seat_row(tx, room, seat_no)
        if seat.kind != "human":
            raise Conflict(f"seat {seat_no} is played by a bot of its own, not by a person", code="bot_seat")
        return seat

    def _require_lobby(self, room: RoomRecord, what: str) -> None:
        if room.status == "playing":
            raise Conflict(f"cannot {what}: the game in room {room.code} has started", code="game_started")
        if room.status == "closed":
            raise Conflict(f"cannot {what}: room {room.code} is closed", code="room_closed")

    def _require_host(self, room: RoomRecord, auth: SeatAuth) -> None:
        if room.host_seat != auth.seat:
            raise Forbidden("only the host may do this", code="not_host")
