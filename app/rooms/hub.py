"""The connections of this process, grouped by room, and what wakes them.

A connection (a websocket, in the API layer) is a `Listener`: the hub never pushes messages into
it, it only wakes it; the connection then pulls what it has not sent yet (the room if it changed,
the game's new steps and its seat's state). Bursts of changes therefore coalesce, a slow client
never makes a queue grow, and a notice that arrives twice sends nothing twice.
"""

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from app import metrics
from app.rooms.broadcast import RESYNC, Broadcaster, Presence
from app.rooms.errors import NotFound, TooMany, outage_of
from app.rooms.games import GameRuntime, GameService
from app.rooms.service import RoomService
from app.settings import Settings
from app.tokens import normalize_code

log = logging.getLogger("wonders.hub")


class Listener(Protocol):
    seat: int | None
    token_hash: str | None

    def wake(self) -> None: ...

    def revoke(self, reason: str) -> None:
        """The seat was taken away from this connection (removed by the host, or the token is void)."""


@dataclass(eq=False)
class RoomChannel:
    code: str
    listeners: set[Listener] = field(default_factory=set)
    room: dict[str, Any] | None = None
    token_hashes: dict[int, str] = field(default_factory=dict)
    room_version: int = 0
    game: GameRuntime | None = None
    dirty: bool = False  # the room changed: reload it from the database
    presence_dirty: bool = False  # only who is connected changed
    refreshing: bool = False
    chat: list[dict[str, Any]] = field(default_factory=list)  # its latest messages (app/rooms/chat.py), oldest first
    chat_version: int = 0  # how many times they changed since this instance reads them

    def wake_all(self) -> None:
        for listener in list(self.listeners):
            listener.wake()


class Hub:
    def __init__(
        self,
        settings: Settings,
        rooms: RoomService,
        games: GameService,
        broadcaster: Broadcaster,
        presence: Presence,
    ) -> None:
        self.settings = settings
        self.rooms = rooms
        self.games = games
        self.broadcaster = broadcaster
        self.presence = presence
        self.channels: dict[str, RoomChannel] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        broadcaster.subscribe(self._on_notice)
        games.listeners.append(self._on_game)

    async def attach(self, code: str, listener: Listener) -> RoomChannel:
        """Register a connection (already authenticated) with its room; fails if the room is missing or full."""
        code = normalize_code(code)
        counts = await self.presence.counts(code)
        if listener.seat is None and counts.get("s", 0) >= self.settings.max_spectators:
            raise TooMany(f"room {code} has its maximum of {self.settings.max_spectators} spectators", code="room_busy")
        if listener.seat is not None and counts.get(str(listener.seat), 0) >= self.settings.max_connections_per_seat:
            raise TooMany(
                f"seat {listener.seat} already has {self.settings.max_connections_per_seat} connections",
                code="too_many_connections",
            )
        channel = self.channels.get(code)
        if channel is None:
            channel = self.channels[code] = RoomChannel(code)
        channel.listeners.add(listener)
        try:
            await self.presence.join(code, listener.seat)
            await self._refresh(channel)
            if not channel.chat_version:
                await self._read_chat(channel)
        except BaseException:
            await self.detach(channel, listener, joined=False)
            raise
        metrics.connection_opened(listener.seat)
        await self.broadcaster.publish(code, {"kind": "presence"})
        return channel

    async def detach(self, channel: RoomChannel, listener: Listener, *, joined: bool = True) -> None:
        if listener not in channel.listeners:
            return
        channel.listeners.discard(listener)
        emptied = not channel.listeners
        if emptied and self.channels.get(channel.code) is channel:
            del self.channels[channel.code]
        if joined:
            metrics.connection_closed(listener.seat)
            try:
                await self.presence.leave(channel.code, listener.seat)
                await self.broadcaster.publish(channel.code, {"kind": "presence"})
                if emptied:  # the room was in use until now (see app/rooms/sweep.py)
                    await self.rooms.store.touch_room(channel.code)
            except Exception as exc:
                log.warning("presence update failed for room %s: %s", channel.code, exc, extra={"room": channel.code})
            if listener.seat is not None:
                self._spawn(self._away_later(channel.code))

    async def _away_later(self, code: str) -> None:
        """When a seat's grace ends, every instance looks at who is connected again: a seat still
        without a connection is away now (the room is sent again if that changed it)."""
        await asyncio.sleep(self.settings.away_grace_seconds + 0.05)
        try:
            await self.broadcaster.publish(code, {"kind": "presence"})
        except Exception as exc:
            log.warning("could not announce who is away in room %s: %s", code, exc)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        kind = notice.get("kind")
        if kind == RESYNC["kind"]:
            for channel in list(self.channels.values()):
                self.request_refresh(channel)
                self._spawn(self._read_chat_quietly(channel))
        elif kind in ("room", "presence"):
            channel = self.channels.get(code)
            if channel is not None:
                self.request_refresh(channel, presence_only=kind == "presence")
        elif kind == "chat":
            channel = self.channels.get(code)
            if channel is not None:
                self._spawn(self._read_chat_quietly(channel))

    def watched(self, code: str) -> bool:
        """Whether a connection of this instance watches the room."""
        channel = self.channels.get(code)
        return channel is not None and bool(channel.listeners)

    def _on_game(self, rt: GameRuntime) -> None:
        channel = self.channels.get(rt.room_code)
        if channel is None:
            return
        if channel.game is None or channel.game.game_id < rt.game_id:
            channel.game = rt
        if channel.game is rt:
            channel.wake_all()

    def request_refresh(self, channel: RoomChannel, *, presence_only: bool = False) -> None:
        """Reload the room soon (from the database, or only who is connected); many requests in a
        burst make one reload."""
        if presence_only:
            channel.presence_dirty = True
        else:
            channel.dirty = True
        if channel.refreshing:
            return
        channel.refreshing = True
        task = asyncio.create_task(self._refresh_loop(channel))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh_loop(self, channel: RoomChannel) -> None:
        try:
            while (channel.dirty or channel.presence_dirty) and channel.listeners:
                full = channel.dirty or channel.room is None
                channel.dirty = channel.presence_dirty = False
                try:
                    if full:
                        await self._refresh(channel)
                    else:
                        await self._refresh_presence(channel)
                except NotFound:
                    return
                except Exception as exc:
                    if outage_of(exc) is None:
                        log.exception("could not refresh room %s", channel.code, extra={"room": channel.code})
                    else:
                        log.warning("room %s waits for the database to refresh: %r", channel.code, exc)
                    if full:  # not done: again after a pause
                        channel.dirty = True
                    else:
                        channel.presence_dirty = True
                    await asyncio.sleep(0.5)
        finally:
            channel.refreshing = False

    async def _refresh(self, channel: RoomChannel) -> None:
        room, hashes = await self.rooms.load(channel.code)
        game = room["game"]
        if game is not None and (channel.game is None or channel.game.game_id != game["id"]):
            channel.game = await self.games.runtime(game["id"])
        channel.room, channel.token_hashes = room, hashes
        channel.room_version += 1
        for listener in list(channel.listeners):
            if listener.seat is not None and hashes.get(listener.seat) != listener.token_hash:
                listener.revoke(f"you no longer hold seat {listener.seat} of room {channel.code}")
        channel.wake_all()

    async def _refresh_presence(self, channel: RoomChannel) -> None:
        assert channel.room is not None
        room = await self.rooms.with_presence(channel.room)
        if room != channel.room:
            channel.room = room
            channel.room_version += 1
            channel.wake_all()

    async def _read_chat(self, channel: RoomChannel) -> None:
        """Read the room's latest messages again (a new one, or one deleted) and wake its connections."""
        messages = await self.rooms.chat_of(channel.code, spectator=False)
        if messages != channel.chat or not channel.chat_version:
            channel.chat = messages
            channel.chat_version += 1
            channel.wake_all()

    async def _read_chat_quietly(self, channel: RoomChannel) -> None:
        try:
            await self._read_chat(channel)
        except Exception as exc:
            log.warning("could not read the chat of room %s: %s", channel.code, exc, extra={"room": channel.code})

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
