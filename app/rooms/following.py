"""Following other instances: reading the steps they stored when told of them (or when Redis was
lost), and waking long polls when a game moves on."""

import asyncio
import contextlib
import logging
from typing import Any

from app import metrics
from app.rooms.broadcast import RESYNC
from app.rooms.errors import (
    outage_of,
)
from app.rooms.game_base import GameServiceBase
from app.rooms.notices import NOTIFY_NOTICE
from app.rooms.runtime import GameRuntime

log = logging.getLogger("wonders.games")


class Following(GameServiceBase):
    """Keeping up with the steps other instances store (their notices, a resubscription), and the long
    polls waiting for a game's next step."""

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        if notice.get("kind") == RESYNC["kind"]:
            for rt in list(self.runtimes.values()):
                if not rt.over and not rt.abandoned:
                    self._spawn(self._follow(rt))
            return
        if notice.get("kind") == NOTIFY_NOTICE:  # someone's channels changed: who is told, from now on
            for rt in list(self.runtimes.values()):
                if rt.room_code == code and not rt.over:
                    self._spawn(self._refresh_notify(rt))
            return
        if notice.get("kind") != "game":
            return
        game_id = notice.get("game_id")
        if not isinstance(game_id, int):
            return
        rt = self.runtimes.get(game_id)
        if rt is None:
            return  # nobody here follows this game; it is loaded from the log when needed
        version = notice.get("version")
        if isinstance(version, int) and version <= rt.version:
            self._tell(rt)
            return
        self._spawn(self._follow(rt))

    async def _refresh_notify(self, rt: GameRuntime) -> None:
        try:
            rt.notify = await self.store.channel_seats(rt.room_id)
        except Exception as exc:  # the next change, or the game's next load, reads them again
            log.warning("could not read the notification channels of room %s: %r", rt.room_code, exc)

    async def _follow(self, rt: GameRuntime) -> bool:
        """Catch up with the steps another instance stored; while the database is down, again later
        (else this instance's connections would wait for the game's next notice). False: it could
        not (unloaded meanwhile, or a failure that is no outage, logged)."""
        delay = 0.5
        while self.runtimes.get(rt.game_id) is rt:
            try:
                await self.catch_up(rt)
                return True
            except Exception as exc:
                if outage_of(exc) is None:
                    log.exception("could not catch up with game %s", rt.game_id)
                    return False
                log.warning("game %s catches up again in %.1f s: %r", rt.game_id, delay, exc)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        return False

    async def catch_up(self, rt: GameRuntime) -> bool:
        """Apply the steps other instances stored since our version. True if any."""
        async with rt.lock:
            return await self._catch_up_locked(rt)

    async def _catch_up_locked(self, rt: GameRuntime) -> bool:
        await self._drain(rt)
        rt.behind = False
        entries = await self.store.steps_since(rt.game_id, rt.version)
        for entry in entries:
            self._apply_stored(rt, entry)
        if entries:
            if rt.over:
                self._cache_finished(rt.game_id)
            self._tell(rt)  # whoever caught up, this process's connections hear of the new steps
            self._arm_takeover(rt)
        return bool(entries)

    async def moved_past(self, rt: GameRuntime, version: int, seconds: float) -> None:
        """Return once the game's committed version is above `version` (a step stored here or by
        another instance), the game is over, `seconds` have passed (a long poll), or the server
        stops (see stop_waiting)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        metrics.long_poll_waiting(+1)
        try:
            while rt.version <= version and not rt.over and not rt.abandoned and not self.stopping:
                left = deadline - loop.time()
                if left <= 0:
                    return
                waiter: asyncio.Future[None] = loop.create_future()
                rt.waiters.append(waiter)
                try:
                    await asyncio.wait_for(waiter, left)
                except TimeoutError:
                    return
                finally:
                    with contextlib.suppress(ValueError):
                        rt.waiters.remove(waiter)
        finally:
            metrics.long_poll_waiting(-1)

    def stop_waiting(self) -> None:
        """The server is stopping: every long poll answers now (the server waits for requests in
        flight before it stops), and none waits from now on."""
        self.stopping = True
        for rt in self.runtimes.values():
            for waiter in rt.waiters:
                if not waiter.done():
                    waiter.set_result(None)
