"""The state every part of the room service shares (app/rooms/service.py puts the parts together)."""

import asyncio
from dataclasses import dataclass
from typing import Any

from app.rooms.broadcast import Broadcaster, Presence
from app.rooms.games import GameService
from app.rooms.quota import LocalQuota, Quota
from app.settings import Settings
from app.tokens import normalize_code

ROOMS_WINDOW_S = 3600.0  # ROOMS_PER_ADDRESS counts the rooms an address created in this many seconds


@dataclass(frozen=True)
class SeatAuth:
    """Who a seat token belongs to."""

    room_id: int
    code: str
    seat: int
    host: bool
    token_hash: str
    bot_plays: str | None = None  # a bot plays this person's seat for them now


@dataclass(frozen=True)
class Joined:
    room: dict[str, Any]
    seat: int
    token: str


class RoomServiceBase:
    """What every part of the RoomService shares: the settings, the games, the store, the broadcaster,
    presence, the room-creation and chat quotas."""

    def __init__(
        self,
        settings: Settings,
        games: GameService,
        broadcaster: Broadcaster,
        presence: Presence,
        created_by: Quota | None = None,
        *,
        chat_quota: Quota | None = None,
    ) -> None:
        self.settings = settings
        self.games = games
        self.store = games.store
        self.broadcaster = broadcaster
        self.presence = presence
        # rooms each client address created in the last hour
        self.created_by = created_by or LocalQuota(settings.rooms_per_address, ROOMS_WINDOW_S)
        # messages each seat said lately in its room's chat
        self.chat_quota = chat_quota or LocalQuota(settings.chat_messages, settings.chat_window_seconds)
        self._tasks: set[asyncio.Task[None]] = set()
        broadcaster.subscribe(self._on_notice)

    async def _changed(self, code: str) -> None:
        await self.broadcaster.publish(normalize_code(code), {"kind": "room"})
