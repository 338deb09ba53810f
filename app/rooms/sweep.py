"""Closing rooms that nobody uses.

A room is unused when, for ROOM_IDLE_HOURS, it has had no change (its `updated_at`), no action
(its games' latest `actions.created_at`) and no open websocket connection (the Presence, which
with Redis counts every instance's), and its running game, if any, has no wake (`games.wake_at`:
a game whose clock or bots move it on by themselves is in use, however long a turn-based decision
takes). Every instance sweeps every ROOM_SWEEP_SECONDS:

1. read the candidates: rooms open, playing or finished whose `updated_at` and latest action are
   older than the cutoff, without a running game with a wake;
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

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app import metrics
from app.db.storage import Store, now
from app.rooms.broadcast import Broadcaster, Presence
from app.rooms.games import GameService
from app.rooms.periodic import Periodic, RoundLog
from app.settings import Settings

log = logging.getLogger("wonders.sweep")

BATCH = 500  # rooms looked at per sweep (the rest wait for the next one)


@dataclass(frozen=True)
class Closed:
    room_id: int
    code: str
    games: tuple[int, ...]  # the running games that were abandoned


class Sweeper:
    def __init__(
        self, settings: Settings, store: Store, games: GameService, presence: Presence, broadcaster: Broadcaster
    ) -> None:
        self.idle = timedelta(hours=settings.room_idle_hours)
        self.interval = settings.room_sweep_seconds
        self.store = store
        self.games = games
        self.presence = presence
        self.broadcaster = broadcaster
        said = RoundLog(log, "the sweep of unused rooms failed", "the sweep of unused rooms waits for the database")
        self._loop = Periodic("room-sweep", self.sweep, self.interval, wait_first=True, said=said)
        broadcaster.subscribe(self._on_notice)

    @property
    def enabled(self) -> bool:
        return self.idle > timedelta(0)

    def start(self) -> None:
        if self.enabled and self.interval > 0:
            self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

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
                await self.store.touch_room(code)  # in use now: idle from now on
                continue
            done = await self.close(room_id, code, cutoff)
            if done is not None:
                closed.append(done)
        await self.unload_abandoned()
        return closed

    async def candidates(self, cutoff: datetime) -> list[tuple[int, str]]:
        """(id, code) of the rooms with no change and no action since the cutoff."""
        return await self.store.idle_rooms(cutoff, BATCH)

    async def close(self, room_id: int, code: str, cutoff: datetime) -> Closed | None:
        """Close the room if it is still unused, and abandon its running game. None if it was used
        meanwhile, or another instance closed it first."""
        game_ids = await self.store.close_idle_room(room_id, cutoff)
        if game_ids is None:
            return None
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
        ids = await self.store.abandoned_among(loaded)
        for game_id in ids:
            self.games.unload(game_id, abandoned=True)
        return ids

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        if notice.get("kind") != "abandoned" or not isinstance(notice.get("game_id"), int):
            return
        rt = self.games.runtimes.get(notice["game_id"])
        if rt is not None and rt.room_code == code:  # a notice about another room's game is not ours
            self.games.unload(rt.game_id, abandoned=True)
