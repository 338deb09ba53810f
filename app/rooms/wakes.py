"""When a server must look at a running game that nobody acts in, kept in the database
(`games.wake_at`), so that no instance needs a timer, or even the game in memory, for it.

A game's wake is the earliest of: the deadline of a seat a person plays (its clock), and, when a
server-side bot owes a move, the moment another instance should take that move over (the bots'
pause, the hard bot's budget and a margin: see GameService.bot_takeover). It is written with the
step that changes it (in the step's own transaction, app/db/log_writer.py), and when the seats bots
play change. A game that has none (no clock, no bot owing) is never woken: it waits for a person.

Every instance polls (`WakeService`): it claims the games whose wake has come (at most a batch at
a time; PostgreSQL's SKIP LOCKED, or SQLite's one writer, gives each game to one instance, whose
claim pushes the wake on by a lease), loads each one, and lets its clock and bots act as they do
in any game loaded here: a timeout is decided, a bot plays. The log's unique step numbers keep a
decision made twice (two instances, a restart) to one. Since the wakes are in the database, a
deadline three days away fires after any number of restarts, on whichever instance polls first,
and a server starts without loading any game.
"""

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from app.db.storage import Store
from app.rooms.errors import Unreadable, outage_of
from app.rooms.frames import Frame
from app.rooms.periodic import Periodic, RoundLog
from app.rooms.runtime import GameRuntime

log = logging.getLogger("wonders.wakes")

CLAIM_BATCH = 50  # games claimed in one poll
LEASE_SECONDS = 60.0  # a claimed game's wake moves on by this much, in case the claimer dies


def wake_of(rt: GameRuntime, frame: Frame, takeover: float, now: float | None = None) -> datetime | None:
    """The game's wake after `frame` (None: nothing is due unless someone acts)."""
    if frame.over or rt.abandoned:
        return None
    due: list[float] = []
    if rt.clock.on and frame.clocks is not None:
        due += [at for s in frame.to_act if s not in rt.bots and (at := frame.clocks.deadline(rt.clock, s)) is not None]
    if any(s in rt.bots for s in frame.to_act):
        due.append((time.time() if now is None else now) + takeover)
    return datetime.fromtimestamp(min(due), UTC) if due else None


class WakeService:
    """Polls the database for games whose wake has come, and wakes them here."""

    def __init__(self, store: Store, games: Any, every: float) -> None:
        self.store = store
        self.games = games
        self.every = every
        self.woken = 0
        self.first_poll = asyncio.Event()  # set once the poll at start is done (tests wait for it)
        said = RoundLog(log, "the poll for due games failed", "the poll for due games waits for the database")
        self._loop = Periodic("wakes", self._round, every, wait_first=False, said=said)

    def start(self) -> None:
        if self.every > 0:
            self._loop.start()
        else:
            self.first_poll.set()

    async def stop(self) -> None:
        await self._loop.stop()

    async def _round(self) -> None:
        try:
            while await self.poll() == CLAIM_BATCH:  # more are due: on at once (each woken game
                continue  # awaited the database, so the event loop served others meanwhile)
        finally:
            self.first_poll.set()

    async def poll(self) -> int:
        """Claim and wake the games whose wake has come; how many were claimed."""
        now = datetime.now(UTC)
        ids = await self.store.claim_due(now, now + timedelta(seconds=LEASE_SECONDS), CLAIM_BATCH)
        for game_id in ids:
            try:
                await self.games.wake_game(game_id)
                self.woken += 1
            except Unreadable:  # said once when it was first read: nothing can be done for it
                await self.store.set_wake(game_id, None)
            except Exception as exc:
                if outage_of(exc) is not None:
                    raise
                log.exception("could not wake game %s", game_id, extra={"game_id": game_id})
        return len(ids)
