"""Everything one app instance runs, built and stopped together (by the app's lifespan)."""

import asyncio
import contextlib
import gc
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from app import metrics
from app.bots import BOTS, levels
from app.db import open_store
from app.db.migrate import NewerSchema, upgrade
from app.db.storage import StorageDown, Store
from app.engine import new_game, warm_up
from app.gc_schedule import collect_on_schedule
from app.rooms.advice import Advice
from app.rooms.broadcast import (
    Broadcaster,
    LocalBroadcaster,
    LocalPresence,
    Presence,
    RedisBroadcaster,
    RedisPresence,
)
from app.rooms.clocks import ClockService
from app.rooms.games import BOT_TAKEOVER_MARGIN, GameFactory, GameService
from app.rooms.hub import Hub
from app.rooms.idle import IdleGames
from app.rooms.outbox import OutboxSender
from app.rooms.quota import LocalQuota, Quota, RedisQuota
from app.rooms.service import ROOMS_WINDOW_S, RoomService
from app.rooms.sweep import Sweeper
from app.rooms.wakes import WakeService
from app.settings import Settings

log = logging.getLogger("wonders")
# CPython's defaults are (700, 10, 10). A young collection runs when the number of live containers
# has grown by the first threshold since the last one. Under load every action makes a game state
# (its successor: tens of containers, a list as long as the game's log among them) that lives on, so
# a low threshold meant collections every few actions that walked live states and freed nothing:
# at 200 rooms, 2_000 spent 2.2 s of a run's 36 s of server CPU collecting and 25_000 1.5 s
# (gc.callbacks); at 200_000 at most one ran while games were played. Cyclic garbage waits longer
# (at most that many containers); everything else is freed by reference counting as before. With
# GC_YOUNG_SECONDS (app/gc_schedule.py) the collections come on a clock and these are a backstop.
GC_THRESHOLDS = (200_000, 5, 100)


def where(url: str) -> str:
    """A service URL's host and port (or SQLite file), never its password."""
    parts = urlsplit(url)
    return parts.netloc.rpartition("@")[2] or parts.path


@dataclass
class Services:
    settings: Settings
    store: Store
    broadcaster: Broadcaster
    presence: Presence
    games: GameService
    rooms: RoomService
    hub: Hub
    sweeper: Sweeper
    clocks: ClockService
    wakes: WakeService
    idle: IdleGames
    outbox: OutboxSender
    lag_watch: asyncio.Task[None] | None = field(default=None)
    gc_clock: asyncio.Task[None] | None = field(default=None)
    advice: Advice = field(init=False)  # hints and game reviews

    @property
    def db(self) -> Any:
        """The SQL store's database (tests look inside it; nothing in the server does)."""
        return self.store.db  # type: ignore[attr-defined]

    @classmethod
    async def start(cls, settings: Settings, *, factory: GameFactory = new_game, migrate: bool = True) -> "Services":
        if migrate:
            try:
                await upgrade(settings.database_url)
            except NewerSchema as exc:
                raise RuntimeError(f"the database at {where(settings.database_url)}: {exc}") from None
            except StorageDown as exc:
                raise RuntimeError(
                    f"the database at {where(settings.database_url)} does not answer ({exc}): start it, "
                    "or point DATABASE_URL at one that runs"
                ) from exc
        store = open_store(settings.database_url, pool_size=settings.db_pool_size, echo=settings.db_echo)
        broadcaster: Broadcaster
        presence: Presence
        created_by: Quota
        chat_quota: Quota
        if settings.redis_url:
            prefix = settings.redis_prefix
            broadcaster = RedisBroadcaster(settings.redis_url, settings.instance_id, prefix=prefix)
            presence = RedisPresence(settings.redis_url, settings.instance_id, prefix=prefix)
            created_by = RedisQuota(
                settings.rooms_per_address, ROOMS_WINDOW_S, settings.redis_url, "rooms", prefix=prefix
            )
            chat_quota = RedisQuota(
                settings.chat_messages, settings.chat_window_seconds, settings.redis_url, "chat", prefix=prefix
            )
        else:
            broadcaster, presence = LocalBroadcaster(), LocalPresence()
            created_by = LocalQuota(settings.rooms_per_address, ROOMS_WINDOW_S)
            chat_quota = LocalQuota(settings.chat_messages, settings.chat_window_seconds)
        try:
            await broadcaster.start()
            await presence.start()
        except Exception as exc:
            for part in (broadcaster, presence, created_by, chat_quota, store):  # nothing left open behind the failure
                with contextlib.suppress(Exception):
                    await (part.close() if part is store else part.stop())
            if not settings.redis_url:
                raise
            raise RuntimeError(
                f"REDIS_URL is set, but the Redis at {where(settings.redis_url)} does not answer ({exc}): start it, "
                "or unset REDIS_URL to run this instance alone"
            ) from exc
        games = GameService(
            store,
            broadcaster,
            factory=factory,
            bot_delay=settings.bot_delay_ms / 1000,
            events_kept=settings.events_kept,
            finished_cached=settings.finished_games_cached,
            bot_levels=levels(BOTS, settings.bot_hard_budget_ms),
            # longer than any bot of the instance that should move takes (its pause, the hard bot's
            # budget), with room to spare
            bot_takeover=(settings.bot_delay_ms + settings.bot_hard_budget_ms) / 1000 + BOT_TAKEOVER_MARGIN,
            snapshot_every=settings.snapshot_every,
        )
        games.start()
        rooms = RoomService(settings, games, broadcaster, presence, created_by, chat_quota=chat_quota)
        clocks = ClockService(games, rooms.hand_seat_to_bot)
        hub = Hub(settings, rooms, games, broadcaster, presence)
        sweeper = Sweeper(settings, store, games, presence, broadcaster)
        wakes = WakeService(store, games, settings.wake_poll_seconds)
        idle = IdleGames(games, hub.watched, settings.game_idle_seconds)
        outbox = OutboxSender(store, presence, settings)
        services = cls(settings, store, broadcaster, presence, games, rooms, hub, sweeper, clocks, wakes, idle, outbox)
        # Each game kind's rules imported and its data compiled now (about 50 ms), not by the first
        # game of that kind someone opens: with them ready, a cold game's first state after a start
        # took 18-23 ms at p99 instead of 44-122 ms (the first requests after a start paid them).
        warm_up()
        # Everything loaded so far (modules, card data) lives as long as the process: keep it out of
        # the garbage collector's way. Games keep many long-lived objects (states, the engine's payment
        # cache); full collections that walk them all are made rarer, so pauses stay short.
        if gc.isenabled():  # (else `python -m app` imported the app without collections: see there)
            gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        gc.enable()
        # No game is loaded at the start: each one is loaded when someone asks for it, or when its
        # wake comes (a deadline, a bot's move: app/rooms/wakes.py), which the first poll finds.
        wakes.start()
        idle.start()
        outbox.start()
        services.lag_watch = asyncio.create_task(metrics.watch_loop_lag(), name="event-loop-lag")
        if settings.gc_young_seconds:
            collecting = collect_on_schedule(settings.gc_young_seconds)
            services.gc_clock = asyncio.create_task(collecting, name="garbage-collector-clock")
        sweeper.start()
        services.advice = Advice(settings, store, games, rooms, broadcaster)
        services.advice.start()
        return services

    async def restored(self) -> None:
        """Wait until the first poll for due games (the deadlines and bots due at the start) is done."""
        await self.wakes.first_poll.wait()

    async def stop(self) -> None:
        for task in (self.lag_watch, self.gc_clock):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await self.advice.stop()
        await self.wakes.stop()
        await self.outbox.stop()
        await self.idle.stop()
        await self.sweeper.stop()
        self.clocks.close()
        await self.hub.close()
        await self.games.close()
        await self.presence.stop()
        await self.rooms.created_by.stop()
        await self.rooms.chat_quota.stop()
        await self.broadcaster.stop()
        await self.store.close()
