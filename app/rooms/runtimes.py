"""The runtime cache: which games this instance holds in memory, loading them from their stored log."""

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import Any

from app.db.storage import KEEP, StoredGame
from app.engine import Game, GameConfig
from app.rooms.clocks import Clock, unix
from app.rooms.errors import (
    NotFound,
    Unreadable,
)
from app.rooms.frames import Frame, next_frame, rebuild
from app.rooms.game_base import GameServiceBase
from app.rooms.notices import Notices
from app.rooms.runtime import GameRuntime, seat_bots, seats_taken_back
from app.rooms.saved_states import frame_part, frames_from, saved_state
from app.rooms.wakes import wake_of

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
        saved = stored.saved
        frames = None if saved is None else frames_from(saved, stored.steps, clock)
        if frames is None:
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
        names, bots = [s["name"] for s in stored.seats], [s["seat"] for s in stored.seats if s["kind"] == "bot"]
        rt.notices = Notices(game_id, stored.room_id, stored.room_code, names, clock, bots=bots)
        rt.notify = stored.notify
        # kept, even if not used: rewritten (and one kept without its summary, for lists of games)
        rt.saved_version = -1 if saved is None or "summary" not in saved.frame else saved.version
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

    def unload(self, game_id: int, *, abandoned: bool = False) -> GameRuntime | None:
        """Forget a loaded game (it is read again from the log when needed) and stop its bots;
        `abandoned`: its room was closed, so whoever still holds the runtime can act no more."""
        rt = self.runtimes.pop(game_id, None)
        if rt is None:
            return None
        for listener in self.unload_listeners:
            listener(rt)
        with contextlib.suppress(ValueError):
            self._finished_order.remove(game_id)
        rt.abandoned = rt.abandoned or abandoned
        for task in rt.bot_tasks.values():
            task.cancel()
        if rt.takeover is not None:
            rt.takeover.cancel()
        return rt

    def keep_state_if_due(self, rt: GameRuntime) -> None:
        """keep_state in the background if the game moved `snapshot_every` steps past its kept state
        (once the save under way, if any, ends: that one takes this one up when it has)."""
        due = rt.version - max(rt.saved_version, 0) >= self.snapshot_every
        if self.snapshot_every and due and not rt.over and not rt.saving:
            rt.saving = True
            self._spawn(self._save(rt, rt.frame.version, rt.frame.game, frame_part(rt.frame)))

    async def keep_state(self, rt: GameRuntime) -> None:
        """Keep the game's state at its current version in the database (see saved_states.py)."""
        if rt.frame.version > rt.saved_version:
            await self._save(rt, rt.frame.version, rt.frame.game, frame_part(rt.frame))

    async def _save(self, rt: GameRuntime, version: int, game: Game, part: dict[str, Any]) -> None:
        """(Taken from the frame at once: it lets its game go once newer frames come.) The state is
        written out in a thread: a frame's game is never changed."""
        try:
            saved = await asyncio.to_thread(saved_state, version, game, part)
            await self.store.save_state(rt.game_id, saved)
            rt.saved_version = max(rt.saved_version, version)
        finally:
            rt.saving = False
        self.keep_state_if_due(rt)  # steps that came meanwhile (not after a failure: no retry loop)

    async def put_away(self, rt: GameRuntime) -> bool:
        """Unload a game nobody uses now (see app/rooms/idle.py): its state kept and its wake written
        first, so it is loaded again at little cost, and woken when something is due. False if it
        moved on meanwhile (or is no longer held here)."""
        async with rt.lock:
            if rt.chain or self.runtimes.get(rt.game_id) is not rt:
                return False
            await self.keep_state(rt)
            await self.write_wake(rt)
            self.unload(rt.game_id)
            return True

    async def write_wake(self, rt: GameRuntime) -> None:
        """Write the game's wake as it is now, if it is not what was last written."""
        wake = wake_of(rt, rt.frame, self.bot_takeover)
        if rt.wake is KEEP or rt.wake != wake:
            version, rt.wake = rt.version, KEEP
            if await self.store.set_wake(rt.game_id, wake, version=version) and rt.version == version:
                rt.wake = wake

    async def wake_game(self, game_id: int) -> GameRuntime:
        """A game whose wake came (app/rooms/wakes.py): loaded here if it is not, its clock and bots
        act as in any game loaded here (an overdue seat is decided, a bot owing a move plays), and
        its next wake written, unless something is due now (the claim's lease stands, until the
        step that is being made writes the next one)."""
        held = self.runtimes.get(game_id)
        rt = await self.runtime(game_id)
        if held is rt:
            for listener in self.load_listeners:  # as if loaded: the clock looks at it again
                listener(rt)
        self.schedule_bots(rt)
        wake = wake_of(rt, rt.frame, self.bot_takeover)
        if wake is None or wake.timestamp() > time.time():
            version, rt.wake = rt.version, KEEP
            if await self.store.set_wake(game_id, wake, version=version) and rt.version == version:
                rt.wake = wake
        return rt
