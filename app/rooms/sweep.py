"""Closing rooms that nobody uses.

A room is unused when, for ROOM_IDLE_HOURS, it has had no change (its `updated_at`), no action
(its games' latest `actions.created_at`) and no open websocket connection (the Presence, which
with Redis counts every instance's). Every instance sweeps every ROOM_SWEEP_SECONDS:

1. read the candidates: rooms open, playing or finished whose `updated_at` and latest action are
   older than the cutoff;
2. skip those with a connection now, and mark them used (`updated_at` = now): the hub does the
   same when a room's last connection here goes away, so a room closes ROOM_IDLE_HOURS after it
   was last used, connections included;
3. close each of the others in one transaction: `UPDATE rooms SET status='closed' WHERE id = ...
   AND status IN (...) AND updated_at < cutoff AND no recent action`. The database decides: when
   two instances sweep at once (or someone joins meanwhile), one update matches and the other finds
   nothing to do. The same transaction ends the room's running game as `abandoned` (finished_at
   set, its log kept); finished games stay as they are, in the room's history.

Then the instance that closed the room unloads the game (its bots stop) and tells the others
(`{"kind": "abandoned", "game_id": ...}`, and a room notice); each sweep also unloads any game
held in memory that the database says was abandoned, in case a notice was lost.
"""

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import exists, select, update

from app import metrics
from app.db.models import Action, Room, now
from app.db.models import Game as GameRow
from app.db.repo import ACTIVE_ROOM_STATUSES
from app.db.session import Database
from app.rooms.broadcast import Broadcaster, Presence
from app.rooms.games import GameService
from app.settings import Settings

log = logging.getLogger("wonders.sweep")

BATCH = 500  # rooms looked at per sweep (the rest wait for the next one)


@dataclass(frozen=True)
class Closed:
    room_id: int
    code: str
    games: tuple[int, ...]  # the running games that were abandoned


def _recent_action(cutoff: datetime) -> Any:
    """An action of one of the room's games at or after the cutoff (correlated to `rooms`)."""
    return exists().where(Action.game_id == GameRow.id, GameRow.room_id == Room.id, Action.created_at >= cutoff)


async def touch_room(db: Database, code: str) -> None:
    """The room was used just now (its last connection here went away)."""
    at = now()
    async with db.sessions() as session, session.begin():
        await session.execute(
            update(Room)
            .where(Room.code == code, Room.status.in_(ACTIVE_ROOM_STATUSES), Room.updated_at < at)
            .values(updated_at=at)
        )


class Sweeper:
    def __init__(
        self, settings: Settings, db: Database, games: GameService, presence: Presence, broadcaster: Broadcaster
    ) -> None:
        self.idle = timedelta(hours=settings.room_idle_hours)
        self.interval = settings.room_sweep_seconds
        self.db = db
        self.games = games
        self.presence = presence
        self.broadcaster = broadcaster
        self._task: asyncio.Task[None] | None = None
        broadcaster.subscribe(self._on_notice)

    @property
    def enabled(self) -> bool:
        return self.idle > timedelta(0)

    def start(self) -> None:
        if self.enabled and self.interval > 0:
            self._task = asyncio.create_task(self._loop(), name="room-sweep")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of unused rooms failed; trying again in %gs", self.interval)

    def cutoff(self, at: datetime | None = None) -> datetime:
        return (at or now()) - self.idle

    async def sweep(self, at: datetime | None = None) -> list[Closed]:
        """Close the rooms unused since ROOM_IDLE_HOURS before `at` (default: now). Returns those
        this instance closed."""
        if not self.enabled:
            return []
        cutoff = self.cutoff(at)
        closed = []
        for room_id, code in await self.candidates(cutoff):
            counts = await self.presence.counts(code)
            if any(n > 0 for n in counts.values()):
                await touch_room(self.db, code)  # in use now: idle from now on
                continue
            done = await self.close(room_id, code, cutoff)
            if done is not None:
                closed.append(done)
        await self.unload_abandoned()
        return closed

    async def candidates(self, cutoff: datetime) -> list[tuple[int, str]]:
        """(id, code) of the rooms with no change and no action since the cutoff."""
        query = (
            select(Room.id, Room.code)
            .where(Room.status.in_(ACTIVE_ROOM_STATUSES), Room.updated_at < cutoff, ~_recent_action(cutoff))
            .order_by(Room.id)
            .limit(BATCH)
        )
        async with self.db.sessions() as session:
            return [(r.id, r.code) for r in (await session.execute(query)).all()]

    async def close(self, room_id: int, code: str, cutoff: datetime) -> Closed | None:
        """Close the room if it is still unused, and abandon its running game. None if it was used
        meanwhile, or another instance closed it first."""
        at = now()
        async with self.db.sessions() as session, session.begin():
            claimed = await session.execute(
                update(Room)
                .where(
                    Room.id == room_id,
                    Room.status.in_(ACTIVE_ROOM_STATUSES),
                    Room.updated_at < cutoff,
                    ~_recent_action(cutoff),
                )
                .values(status="closed", updated_at=at)
            )
            if claimed.rowcount != 1:
                return None
            abandoned = await session.execute(
                update(GameRow)
                .where(GameRow.room_id == room_id, GameRow.status == "running")
                .values(status="abandoned", finished_at=at)
                .returning(GameRow.id)
            )
            game_ids = tuple(sorted(abandoned.scalars().all()))
        metrics.ROOMS_CLOSED_IDLE.inc()
        metrics.GAMES_ABANDONED.inc(len(game_ids))
        log.info("room %s closed: unused for %g hours", code, self.idle.total_seconds() / 3600, extra={"room": code})
        for game_id in game_ids:
            log.info("game %s abandoned: its room was closed", game_id, extra={"room": code, "game_id": game_id})
            self.games.unload(game_id, abandoned=True)
            await self.broadcaster.publish(code, {"kind": "abandoned", "game_id": game_id})
        await self.broadcaster.publish(code, {"kind": "room"})
        return Closed(room_id, code, game_ids)

    async def unload_abandoned(self) -> list[int]:
        """Unload the games held here that the database says were abandoned (a lost notice)."""
        loaded = [game_id for game_id, rt in self.games.runtimes.items() if not rt.over and not rt.abandoned]
        if not loaded:
            return []
        query = select(GameRow.id).where(GameRow.id.in_(loaded), GameRow.status == "abandoned")
        async with self.db.sessions() as session:
            ids = list((await session.execute(query)).scalars())
        for game_id in ids:
            self.games.unload(game_id, abandoned=True)
        return ids

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        if notice.get("kind") == "abandoned" and isinstance(notice.get("game_id"), int):
            self.games.unload(notice["game_id"], abandoned=True)
