"""A room's chat: its seats (the host among them) say short messages, everyone in the room hears
them, the host may delete one. Spectators read it when the room lets them watch; they do not write.

Messages are stored with the room (`Store.add_chat`), so a reload, another device or another
instance shows the same chat; a `chat` notice tells every instance to read the new ones (a notice
never carries a message: receivers read it from the database, as they read game steps). Each seat
may say CHAT_MESSAGES messages in CHAT_WINDOW_SECONDS (counted in Redis across instances when there
is one).
"""

import unicodedata
from typing import Any

from app.db.storage import ChatRecord, iso
from app.rooms.errors import Conflict, Forbidden, Invalid, NotFound, TooMany
from app.rooms.room_base import RoomServiceBase, SeatAuth
from app.rooms.room_rules import spectator_policy

MAX_CHAT = 500  # characters of a message
ALLOWED_CONTROLS = {"\n"}


def chat_out(message: ChatRecord) -> dict[str, Any]:
    """A message as everyone in the room sees it (a deleted one keeps its place, not its words)."""
    return {
        "id": message.id,
        "seat": message.seat,
        "name": message.name,
        "text": "" if message.deleted else message.text,
        "at": iso(message.at),
        "deleted": message.deleted,
        "kind": message.kind,
    }


def check_text(text: str) -> str:
    """The message as it will show (NFC, no surrounding blank), or Invalid saying what is wrong."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise Invalid("a chat message must not be empty", code="bad_chat")
    if len(text) > MAX_CHAT:
        raise Invalid(f"a chat message has at most {MAX_CHAT} characters, not {len(text)}", code="bad_chat")
    for c in text:
        if not c.isprintable() and c not in ALLOWED_CONTROLS:
            raise Invalid(f"a chat message must be printable text, not U+{ord(c):04X}", code="bad_chat")
    return text


def readable_by_spectators(settings: dict[str, Any], status: str) -> bool:
    """Whether spectators may read the room's chat: when they may watch it live, or once its game is
    over when they may watch only then."""
    policy = spectator_policy(settings)
    return policy == "live" or (policy == "after" and status != "playing")


class RoomChat(RoomServiceBase):
    async def say(self, auth: SeatAuth, text: str) -> dict[str, Any]:
        """A seat's message, stored and told to everyone in the room."""
        text = check_text(text)
        wait = await self.chat_quota.take(f"{auth.code}:{auth.seat}")
        if wait is not None:
            limit, window = self.settings.chat_messages, self.settings.chat_window_seconds
            raise TooMany(
                f"at most {limit} chat messages in {window:g} s a seat; wait {max(1, round(wait))} s",
                code="chat_too_fast",
                details={"retry_after_seconds": round(wait, 1)},
            )
        async with self.store.reading() as tx:
            room = await self._room(tx, auth.code)
            seat = await tx.seat(room.id, auth.seat)
        if room.status == "closed":
            raise Conflict(f"room {room.code} is closed", code="room_closed")
        if seat is None or seat.token_hash != auth.token_hash:
            raise Forbidden(f"you no longer hold seat {auth.seat} of room {room.code}", code="seat_lost")
        message = await self.store.add_chat(room.id, auth.seat, seat.name, text)
        await self.broadcaster.publish(room.code, {"kind": "chat", "id": message.id})
        return chat_out(message)

    async def chat_of(self, code: str, *, spectator: bool, after: int = 0) -> list[dict[str, Any]]:
        """The room's messages after the one of id `after` (the latest 100 at most)."""
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
        if spectator and not readable_by_spectators(room.settings, room.status):
            raise Forbidden(f"room {room.code} shows its chat to its players only now", code="spectators_off")
        return [chat_out(m) for m in await self.store.chat(room.id, after=after)]

    async def delete_chat(self, auth: SeatAuth, message_id: int) -> dict[str, Any]:
        """The host deletes a message: everyone sees it deleted, and its words are gone."""
        async with self.store.reading() as tx:
            room = await self._room(tx, auth.code)
        self._require_host(room, auth)
        message = await self.store.delete_chat(room.id, message_id)
        if message is None:
            raise NotFound(f"room {room.code} has no chat message {message_id}", code="chat_not_found")
        await self.broadcaster.publish(room.code, {"kind": "chat", "id": message.id, "deleted": True})
        return chat_out(message)
