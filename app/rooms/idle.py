"""Unloading the running games nobody uses now, so that memory holds the active games only.

A running game is active, and stays loaded, while a connection watches its room, while it moved
on here in the last GAME_IDLE_SECONDS, while anything of it is under way (an uncommitted step, a
bot thinking, a long poll waiting, a takeover armed) and while its wake (a deadline, a bot's move)
comes within that time. Any other is put away: its state kept in the database and its wake
written, then unloaded; it is loaded again, from its kept state and the steps after it, when
someone asks for it or its wake comes (app/rooms/wakes.py). Finished games are kept for a while by
the game service's own cache.
"""

import logging
import time
from collections.abc import Callable
from typing import Any

from app.rooms.periodic import Periodic, RoundLog
from app.rooms.runtime import GameRuntime
from app.rooms.wakes import wake_of

log = logging.getLogger("wonders.idle")


class IdleGames:
    def __init__(self, games: Any, watched: Callable[[str], bool], idle_seconds: float) -> None:
        self.games = games
        self.watched = watched  # whether a connection of this instance watches the room of that code
        self.idle_seconds = idle_seconds  # 0: never unload
        self.put_away = 0
        every = min(60.0, max(1.0, idle_seconds / 4))
        said = RoundLog(log, "putting idle games away failed", "idle games wait for the database")
        self._loop = Periodic("idle-games", self.sweep, every, wait_first=True, said=said)

    def start(self) -> None:
        if self.idle_seconds > 0:
            self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    def idle(self, rt: GameRuntime, now: float) -> bool:
        if rt.over or rt.abandoned:
            return False  # the finished games' cache keeps them
        if now - rt.moved_at < self.idle_seconds or self.watched(rt.room_code):
            return False
        if rt.chain or rt.lock.locked() or rt.waiters or (rt.takeover is not None and not rt.takeover.done()):
            return False
        if any(not task.done() for task in rt.bot_tasks.values()):
            return False
        wake = wake_of(rt, rt.frame, self.games.bot_takeover)
        return wake is None or wake.timestamp() - time.time() >= self.idle_seconds

    async def sweep(self) -> list[int]:
        """Put away every loaded game that is idle now; their ids."""
        now = time.monotonic()
        out = []
        for rt in list(self.games.runtimes.values()):
            if self.idle(rt, now) and await self.games.put_away(rt):
                out.append(rt.game_id)
        self.put_away += len(out)
        if out:
            log.info("put away %d idle game(s)", len(out))
        return out
