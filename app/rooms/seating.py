"""Taking and leaving seats: creating a room (its host and bots seated), joining, leaving, and the
host removing a seat."""

import logging
from typing import Any

from app.bots import DEFAULT_BOT
from app.db.names import name_key
from app.db.storage import RoomRecord, RoomTx, SeatRecord, Taken, now
from app.rooms.errors import Conflict, Invalid, TooMany
from app.rooms.room_base import Joined, RoomServiceBase, SeatAuth
from app.rooms.room_rules import LOBBY, next_host, room_full, seat_for, seat_held
from app.tokens import hash_token, new_code, new_token

log = logging.getLogger("wonders.rooms")


class Seating(RoomServiceBase):
    """Creating rooms and taking and leaving their seats."""

    async def create(
        self,
        values: dict[str, Any],
        host_name: str,
        *,
        host_seat: int = 0,
        bots: list[tuple[int | None, str]] = (),
        address: str | None = None,
    ) -> Joined:
        settings = self.check_settings(values)
        name = self.check_name(host_name)
        players = settings["players"]
        if not 0 <= host_seat < players:
            raise Invalid(f"the host's seat must be 0 to {players - 1}", code="bad_seat")
        taken = {host_seat}
        bot_seats: list[tuple[int, str]] = []
        for wanted, kind in bots:
            self.check_bot(kind, settings["game"])
            seat = seat_for(
                players,
                taken,
                wanted,
                full=lambda: Invalid(f"too many bots for {players} seats", code="too_many_bots"),
                held=lambda seat: Invalid(f"seat {seat} is given twice", code="seat_taken"),
            )
            taken.add(seat)
            bot_seats.append((seat, kind))
        wait = None if address is None else await self.created_by.take(address)
        if wait is not None:
            raise TooMany(
                f"this address created its maximum of {self.settings.rooms_per_address} rooms in an hour "
                f"(ROOMS_PER_ADDRESS); try again in {max(1, round(wait / 60))} minutes",
                code="too_many_rooms",
                details={"limit": self.settings.rooms_per_address, "retry_after_seconds": round(wait)},
            )
        token = new_token()
        for _ in range(10):
            code = new_code(self.settings.room_code_length)
            try:
                async with self.store.transaction() as tx:
                    active = await tx.count_rooms(("open", "playing"))
                    if active >= self.settings.max_rooms:
                        raise TooMany(
                            f"the server holds its maximum of {self.settings.max_rooms} active rooms; try later",
                            code="too_many_rooms",
                        )
                    room = await tx.add_room(code, settings, host_seat)
                    await tx.add_person(room.id, host_seat, name, hash_token(token))
                    for seat, kind in bot_seats:
                        await tx.add_bot(room.id, seat, kind)
                break
            except Taken:
                continue  # a code collision: draw another
        else:
            raise Conflict("could not allocate a room code; try again", code="busy")
        log.info("room %s created", code, extra={"room": code})
        return Joined(await self.get(code), host_seat, token)

    async def join(self, code: str, name: str, seat: int | None = None) -> Joined:
        name = self.check_name(name)
        token = new_token()
        for attempt in range(3):
            try:
                async with self.store.transaction() as tx:
                    room = await self._room(tx, code, lock=True)
                    self._require_lobby(room, "join")
                    seats = await tx.seats(room.id)
                    players = room.settings["players"]
                    key = name_key(name)
                    holder = next((s for s in seats if s.name_key == key), None)
                    if holder is not None:
                        alike = "" if holder.name == name else f" ({holder.name!r} reads the same)"
                        raise Conflict(f"the name {name!r} is taken in this room{alike}", code="name_taken")
                    taken = {s.seat for s in seats}
                    target = seat_for(players, taken, seat, full=room_full(room.code), held=seat_held)
                    await tx.add_person(room.id, target, name, hash_token(token))
                    await tx.update_room(room, updated_at=now())
                    code = room.code
                break
            except Taken:
                if attempt == 2:
                    raise Conflict("that seat or name was just taken; try again", code="seat_taken") from None
        log.info("seat %s joined", target, extra={"room": code})
        await self._changed(code)
        return Joined(await self.get(code), target, token)

    async def leave(self, auth: SeatAuth) -> dict[str, Any]:
        """A person leaves. Between games the seat is freed. In a running game a bot plays it for
        them (reason "left"), so the others play on, and their token keeps working: they may come
        back while the game runs. When the host leaves, the next person present becomes host."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            seat = await self._seat_row(tx, room, auth.seat)
            if room.status == "playing":
                seat = await tx.update_seat(seat, bot_plays=seat.bot_plays or DEFAULT_BOT, bot_reason="left")
                host_seat = room.host_seat
                if host_seat == seat.seat:
                    host_seat = next_host([s for s in await tx.seats(room.id) if s.seat != seat.seat], seat.seat)
                room = await tx.update_room(room, host_seat=host_seat, updated_at=now())
            else:
                room = await self._vacate(tx, room, seat)
        if room.status == "playing":
            await self._bots_changed(room.code)
        else:
            await self._after_vacate(room)
        return await self.get(auth.code)

    async def remove_seat(self, auth: SeatAuth, seat_no: int) -> dict[str, Any]:
        """The host removes a bot (between games) or a person (a bot plays on for them in a game)."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            self._require_host(room, auth)
            if seat_no == auth.seat:
                raise Invalid("to leave your own seat, use leave", code="bad_seat")
            seat = await self._seat_row(tx, room, seat_no)
            if room.status == "playing" and seat.kind == "bot":
                raise Conflict("a bot cannot leave a running game: it plays the seat to the end", code="game_started")
            room = await self._vacate(tx, room, seat)
        await self._after_vacate(room)
        return await self.get(auth.code)

    async def _vacate(self, tx: RoomTx, room: RoomRecord, seat: SeatRecord) -> RoomRecord:
        """The seat is left for good; the room as it now is."""
        if room.status == "playing":
            await tx.update_seat(
                seat,
                kind="bot",
                bot=seat.bot_plays or DEFAULT_BOT,
                token_hash=None,
                bot_plays=None,
                bot_reason=None,
                rejoin_hash=None,
            )
        else:
            await tx.remove_seat(seat)
        host_seat, status = room.host_seat, room.status
        if host_seat == seat.seat:
            host_seat = next_host(await tx.seats(room.id))
        if host_seat is None and status in LOBBY:
            status = "closed"
        return await tx.update_room(room, host_seat=host_seat, status=status, updated_at=now())

    async def _after_vacate(self, room: RoomRecord) -> None:
        if room.status == "playing":
            await self._sync_bots(room.code)
        await self._changed(room.code)
