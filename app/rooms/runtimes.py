"""The runtime cache: which games this instance holds in memory, loading them from their stored log."""

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from app.db.storage import StoredGame
from app.engine import GameConfig
from app.rooms.clocks import Clock, unix
from app.rooms.errors import (
    NotFound,
    Unreadable,
)
from app.rooms.frames import Frame, next_frame, rebuild
from app.rooms.game_base import GameServiceBase
from app.rooms.runtime import GameRuntime, seat_bots, seats_taken_back

log = logging.getLogger("wonders.games")


class RuntimeCache(GameServiceBase):
    """Games held in memory: loaded from their log on demand (once, however many ask at once), kept
    while running, the finished ones cached for a while, unloaded with their room."""

    async def runtime(self, game_id: int, stored: StoredGame | None = None) -> GameRuntime:
        """The game's runtime, loaded from its log if it is not held here (`stored`: already read)."""
        rt = self.runtimes.get(game_id)
        if rt is not None:
            return rt
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[GameRuntime] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            rt = await self._load(game_id, stored)
            self.runtimes[game_id] = rt
            if rt.over or rt.abandoned:
                self._cache_finished(game_id)
            for listener in self.load_listeners:
                listener(rt)
            self._arm_takeover(rt)
            future.set_result(rt)
            return rt
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # retrieved: no "never retrieved" warning if nobody else waited
            raise
        finally:
            del self._loading[game_id]

    async def _load(self, game_id: int, stored: StoredGame | None = None) -> GameRuntime:
        if stored is None:
            stored = await self.store.game(game_id)
        if stored is None:
            raise NotFound(f"there is no game {game_id}", code="game_not_found")
        config = GameConfig.model_validate(stored.config)
        clock = Clock.of(stored.clock)
        try:
            frames = rebuild(self.factory(config), stored.steps, clock=clock, started_at=unix(stored.created_at))
        except Exception as exc:
            raise self._unreadable_game(game_id, exc) from None
        history: deque[Frame] = deque(maxlen=self.events_kept)
        rt = GameRuntime(game_id, stored.room_id, stored.room_code, config, frames[0], history)
        for frame in frames:
            rt.push(frame)
        rt.abandoned = stored.status == "abandoned"
        rt.clock = clock
        for step in stored.steps:
            rt.remember(
                step["seq"], step["seat"], step["action"], step["action_id"], by_timeout=bool(step.get("by_timeout"))
            )
        self.set_bots(rt, seat_bots(stored.room_seats), taken_back=seats_taken_back(stored.room_seats), schedule=False)
        return rt

    def _unreadable_game(self, game_id: int, exc: Exception) -> Unreadable:
        """The error for a game whose stored steps this engine refuses; logged the first time only."""
        if game_id not in self._unreadable:
            self._unreadable.add(game_id)
            log.error("game %s cannot be replayed from its log: %s", game_id, exc, exc_info=exc)
        # the engine's words stay in the server's log: they may name a seat's hidden hand
        return Unreadable(
            f"game {game_id} cannot be read: its stored steps do not replay on this version of the server "
            "(it was probably played on a much older version); the server's log says which step"
        )

    def _apply_stored(self, rt: GameRuntime, entry: dict[str, Any]) -> None:
        """Apply a step another instance stored (catching up with it)."""
        if entry["seq"] != rt.version:
            raise RuntimeError(f"game {rt.game_id}: log step {entry['seq']} does not follow version {rt.version}")
        rt.push(next_frame(rt.frame, entry, rt.clock))
        rt.remember(
            entry["seq"], entry["seat"], entry["action"], entry["action_id"], by_timeout=bool(entry.get("by_timeout"))
        )

    def _cache_finished(self, game_id: int) -> None:
        if game_id in self._finished_order:
            return
        self._finished_order.append(game_id)
        while len(self._finished_order) > self.finished_cached:
            old = self._finished_order.popleft()
            self.runtimes.pop(old, None)

    async def restore_running(self) -> list[int]:
        """Load every running game from its log and let bots that owe a move play it. Each game is
        loaded as one step of the event loop, so requests are answered meanwhile (a game asked for
        before its turn here is loaded at once, by `runtime`)."""
        ids = []
        async for games in self.store.running_games():
            for stored in games:
                ids.append(stored.id)
                try:
                    rt = await self.runtime(stored.id, stored)
                except Unreadable:
                    continue  # said in the log once
                except Exception:
                    log.exception("could not restore game %s", stored.id, extra={"game_id": stored.id})
                    continue
                self.schedule_bots(rt)
                await asyncio.sleep(0)
        return ids

    def unload(self, game_id: int, *, abandoned: bool = False) -> GameRuntime | None:
        """Forget a loaded game (it is read again from the log when needed) and stop its bots;
        `abandoned`: its room was closed, so whoever still holds the runtime can act no more."""
        rt = self.runtimes.pop(game_id, None)
        if rt is None:
            return None
        with contextlib.suppress(ValueError):
            self._finished_order.remove(game_id)
        rt.abandoned = rt.abandoned or abandoned
        for task in rt.bot_tasks.values():
            task.cancel()
        if rt.takeover is not None:
            rt.takeover.cancel()
        return rt
