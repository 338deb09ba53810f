"""The bot driver: the server's bots play their seats here (a bot's move belongs to the instance that
stored the step asking for it; another instance takes over when that one is gone)."""

import asyncio
import logging
from datetime import datetime
from typing import Any

from app import logs
from app.bots import make_bot
from app.db.storage import KEEP
from app.rooms.errors import Conflict, Invalid, Unavailable, outage_of
from app.rooms.game_base import GameServiceBase
from app.rooms.runtime import GameRuntime
from app.rooms.wakes import wake_of

log = logging.getLogger("wonders.games")

BOT_TAKEOVER_MARGIN = 5.0  # seconds beyond what the slowest bot takes, before another instance plays it


class BotDriver(GameServiceBase):
    """Server-side bots: which seats they play, playing them after their pause, and taking over the
    bots another instance should have moved."""

    def set_bots(
        self, rt: GameRuntime, bots: dict[int, str], *, taken_back: dict[int, int] | None = None, schedule: bool = True
    ) -> None:
        """The seats played by server-side bots ({seat: bot kind}), and when people took theirs back
        (seats_taken_back)."""
        before = set(rt.bots)
        if taken_back is not None:
            rt.taken_back = taken_back
        for seat in list(rt.bots):
            if seat not in bots:
                del rt.bots[seat]
        for seat, kind in bots.items():
            if seat not in rt.bots or rt.bots[seat].name != kind:
                seed = (rt.config.seed * 100 + seat) % 2**32
                rt.bots[seat] = make_bot(kind, seed=seed, level_table=self.bot_levels)
        if schedule:
            self.schedule_bots(rt)
        if set(rt.bots) != before:
            for listener in self.bots_listeners:
                listener(rt)
            wake = wake_of(rt, rt.frame, self.bot_takeover)  # a seat timed, or not, from now on
            if rt.wake is KEEP or wake != rt.wake:
                rt.wake = KEEP  # unknown until written: meanwhile a step writes its own
                self._spawn(self.write_wake_at(rt, wake, rt.version))

    async def write_wake_at(self, rt: GameRuntime, wake: datetime | None, version: int) -> None:
        """Write the wake computed at `version`, unless a step stored since wrote a newer one (a bot
        may move while this waits for the database)."""
        try:
            if await self.store.set_wake(rt.game_id, wake, version=version) and rt.version == version:
                rt.wake = wake
        except Exception as exc:  # the game's next step writes it again
            if outage_of(exc) is None:
                log.exception("could not write the wake of game %s", rt.game_id)

    def _arm_takeover(self, rt: GameRuntime) -> None:
        """A step stored elsewhere (or read from the log) leaves a bot owing a move that no task here
        plays: wait for the instance that stored it to play it, and play it if none does."""
        old = rt.takeover
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        rt.takeover = None
        if rt.over or rt.abandoned or not self._bots_owing(rt):
            return
        rt.takeover = asyncio.get_running_loop().create_task(self._take_over(rt, rt.version))
        self._tasks.add(rt.takeover)
        rt.takeover.add_done_callback(self._tasks.discard)

    @staticmethod
    def _bots_owing(rt: GameRuntime) -> list[int]:
        return [s for s in rt.frame.to_act if s in rt.bots and s not in rt.bot_tasks]

    def _stalled(self, rt: GameRuntime, version: int) -> bool:
        """Still at `version`, loaded, running, and a bot owing a move that no task here plays."""
        loaded = self.runtimes.get(rt.game_id) is rt and not rt.over and not rt.abandoned
        return loaded and rt.version == version and bool(self._bots_owing(rt))

    async def _take_over(self, rt: GameRuntime, version: int) -> None:
        await asyncio.sleep(self.bot_takeover)
        # the usual case asks nothing of the database: the game moved on, or bots here play it (a
        # game restored at start has its bots scheduled right after it was loaded)
        if not self._stalled(rt, version):
            return
        # the step may be stored and its notice lost (catching up arms this again)
        if await self._follow(rt) and self._stalled(rt, version):
            log.warning(
                "game %s: no step stored for %.0f s while the bots of seats %s owe a move; they play here",
                rt.game_id,
                self.bot_takeover,
                self._bots_owing(rt),
            )
            self.schedule_bots(rt)

    def schedule_bots(self, rt: GameRuntime) -> None:
        frame = rt.frame
        if frame.over or rt.abandoned:
            return
        for seat in frame.to_act:
            if seat in rt.bots and seat not in rt.bot_tasks:
                task = asyncio.create_task(self._bot_turns(rt, seat), name=f"bot-{rt.game_id}-{seat}")
                rt.bot_tasks[seat] = task

    async def _bot_turns(self, rt: GameRuntime, seat: int) -> None:
        logs.bind(room=rt.room_code, game_id=rt.game_id)
        try:
            await asyncio.sleep(self.bot_delay)
            for _ in range(1000):
                frame = rt.frame
                bot = rt.bots.get(seat)
                if frame.over or bot is None or seat not in frame.to_act:
                    return
                legal = frame.legal(seat)
                try:
                    # in a thread: a search bot thinks for its whole budget, and the server goes on
                    action = await asyncio.to_thread(bot.choose, frame.view(seat), legal)
                except Exception:
                    log.exception("bot %s of game %s failed; it plays its first legal action", seat, rt.game_id)
                    action = legal[0]
                try:
                    await self._bot_submit(rt, seat, action, frame.version)
                except (Conflict, Invalid) as exc:
                    if exc.code == "illegal_action":
                        log.error("bot %s of game %s chose an illegal action: %s", seat, rt.game_id, exc)
                        await self._bot_submit(rt, seat, legal[0], frame.version)
                    # otherwise the game moved on meanwhile: look again
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s of game %s stopped", seat, rt.game_id)
        finally:
            if rt.bot_tasks.get(seat) is asyncio.current_task():
                del rt.bot_tasks[seat]

    async def _bot_submit(self, rt: GameRuntime, seat: int, action: Any, version: int) -> None:
        """Submit a bot's action; while the database is down (or the game too busy), try again later
        rather than leave the game waiting for this seat for good."""
        delay = 0.5
        while True:
            try:
                await self.submit(rt.game_id, seat, action, version)
                return
            except Unavailable as exc:
                log.warning("bot %s of game %s tries again in %.1f s: %s", seat, rt.game_id, delay, exc.message)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                if rt.over or rt.abandoned or seat not in rt.bots:
                    return
