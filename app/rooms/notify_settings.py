"""Where each seat's person, and each room's host for the whole room, asks to be told of its games.

A seat sets its own channels (its token; another seat's is refused), the host the room's group
channel. The answer shows them masked (app/rooms/channels.py). A change is told to every instance,
so a loaded game writes notifications for exactly the seats that want them (see notices.py).
"""

from typing import Any

from app.db.outbox_storage import ROOM_CHANNEL
from app.db.storage import Keep
from app.rooms.channels import check_public, check_urls, masked_view
from app.rooms.errors import Conflict, Forbidden, NotFound
from app.rooms.notices import NOTIFY_NOTICE
from app.rooms.room_base import RoomServiceBase, SeatAuth


class NotifySettings(RoomServiceBase):
    async def set_notify(
        self, auth: SeatAuth, seat: int, urls: list[str] | None, push: dict[str, Any] | Keep | None, when: str
    ) -> dict[str, Any]:
        """Set a seat's channels (seat ROOM_CHANNEL: the room's, by its host); `urls` None and `push`
        KEEP keep what is set."""
        room = await self._notify_room(auth, seat)
        if urls is None or isinstance(push, Keep):
            now = await self.store.channels(room.id, seat)
            if urls is None:
                urls = list(now.urls) if now else []
            if isinstance(push, Keep):
                push = now.push if now else None
        urls = await check_urls(urls, self.settings)
        await check_public(urls, push and push.get("endpoint"), self.settings)
        if push is not None and not self.settings.vapid_private_key:
            raise Conflict("this server has no VAPID keys: it cannot send Web Push", code="no_web_push")
        channel = await self.store.set_channels(room.id, seat, urls, push, when)
        await self._notify_changed(room.code)
        return masked_view(channel.urls, channel.push, channel.when)

    async def notify_of(self, auth: SeatAuth, seat: int) -> dict[str, Any]:
        room = await self._notify_room(auth, seat)
        channel = await self.store.channels(room.id, seat)
        if channel is None:
            return masked_view([], None, "away")
        return masked_view(channel.urls, channel.push, channel.when)

    async def clear_notify(self, auth: SeatAuth, seat: int) -> dict[str, Any]:
        room = await self._notify_room(auth, seat)
        await self.store.delete_channels(room.id, seat)
        await self._notify_changed(room.code)
        return masked_view([], None, "away")

    async def stop_notify(self, stop_key: str) -> tuple[str, int]:
        """A message's stop link: its channels are removed. (room code, seat)."""
        found = await self.store.channel_by_stop(stop_key)
        if found is None:
            raise NotFound("this link stops nothing: those messages were already stopped", code="unknown_link")
        code, channel = found
        await self.store.delete_channels(channel.room_id, channel.seat)
        await self._notify_changed(code)
        return code, channel.seat

    async def _notify_room(self, auth: SeatAuth, seat: int) -> Any:
        async with self.store.reading() as tx:
            room = await self._room(tx, auth.code)
            holder = await tx.seat(room.id, auth.seat)
        if holder is None or holder.token_hash != auth.token_hash:
            raise Forbidden(f"you no longer hold seat {auth.seat} of room {room.code}", code="seat_lost")
        if seat == ROOM_CHANNEL:
            self._require_host(room, auth)
        elif seat != auth.seat:
            raise Forbidden(
                f"you hold seat {auth.seat}: only seat {seat}'s own player says where seat {seat} is told",
                code="not_your_seat",
            )
        if room.status == "closed":
            raise Conflict(f"room {room.code} is closed", code="room_closed")
        return room

    async def _notify_changed(self, code: str) -> None:
        await self.broadcaster.publish(code, {"kind": NOTIFY_NOTICE})
