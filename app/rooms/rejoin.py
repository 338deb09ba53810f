"""Rejoin links: a person's seat moved to another device (the old token stops working)."""

from typing import Any

from app.db.storage import now
from app.rooms.errors import Forbidden, NotFound
from app.rooms.room_base import Joined, RoomServiceBase, SeatAuth
from app.tokens import hash_token, new_token


class RejoinLinks(RoomServiceBase):
    """Links that move a seat to another device."""

    async def rejoin_link(self, auth: SeatAuth, seat_no: int) -> dict[str, Any]:
        """A link that moves a person's seat to another device (the seat's person, or the host for
        anyone's seat). It replaces an unused older one; only the hash of its token is kept."""
        token = new_token()
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            if auth.seat not in (seat_no, room.host_seat):
                raise Forbidden(
                    f"you hold seat {auth.seat}: a link for seat {seat_no} is made by its person or the host",
                    code="not_your_seat",
                )
            seat = await self._person_seat(tx, room, seat_no)
            await tx.update_seat(seat, rejoin_hash=hash_token(token))
            code = room.code
        return {"url": f"/room.html?code={code}&rejoin={token}", "token": token, "seat": seat_no}

    async def rejoin(self, code: str, token: str) -> Joined:
        """Open a rejoin link: its token becomes the seat's token, and the old one stops working
        (its websockets lose the seat)."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, code, lock=True)
            seat = await tx.seat_by_rejoin(room.id, hash_token(token))
            if seat is None or seat.kind != "human":
                raise NotFound(
                    f"this link opens no seat of room {room.code}: it is unknown, was already used or was replaced "
                    "by a newer one; ask for a new link",
                    code="unknown_link",
                )
            await tx.update_seat(seat, token_hash=seat.rejoin_hash, rejoin_hash=None)
            await tx.update_room(room, updated_at=now())
            code, seat_no = room.code, seat.seat
        await self._changed(code)
        return Joined(await self.get(code), seat_no, token)
