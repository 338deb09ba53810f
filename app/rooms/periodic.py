"""A background loop of the server (the poll for due games, the outbox, idle games, the room sweep)
that stops between its rounds.

Cancelling such a loop cut whatever it awaited: on a busy machine that was, now and then, the
rollback with which a database connection goes back to its pool, which the pool then logs as an
error with its traceback at every such stop. `stop()` asks the loop to end after the round under
way and waits for it; a round that takes longer than `grace` seconds is cancelled after all.

A round that fails is logged and the loop goes on: an error with its traceback, or, when the database
is out (app/rooms/errors.py's `outage_of`), a warning naming the cause, as every round will fail
until it is back.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.rooms.errors import outage_of

STOP_GRACE_SECONDS = 10.0


@dataclass(frozen=True)
class RoundLog:
    """What a loop says when a round fails: `failed` with the traceback, or `waiting` (and the cause)
    while the database is out."""

    log: logging.Logger
    failed: str
    waiting: str


class Periodic:
    def __init__(
        self, name: str, round_: Callable[[], Awaitable[object]], every: float, *, wait_first: bool, said: RoundLog
    ) -> None:
        """`round_` runs every `every` seconds (first at once, or after `every` when `wait_first`); an
        exception out of it is logged as `said` tells and the next round comes as usual."""
        self.name = name
        self.round = round_
        self.every = every
        self.wait_first = wait_first
        self.said = said
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        self._stopping.clear()
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), grace)
        except TimeoutError:
            task.cancel()
        with contextlib.suppress(BaseException):  # its own end: cancelled, or an error it logged
            await task

    async def _run(self) -> None:
        if self.wait_first and await self._stopped_within(self.every):
            return
        while not self._stopping.is_set():
            await self._guarded_round()
            if await self._stopped_within(self.every):
                return

    async def _guarded_round(self) -> None:
        try:
            await self.round()
        except Exception as exc:
            if outage_of(exc) is None:
                self.said.log.exception("%s; trying again in %gs", self.said.failed, self.every)
            else:
                self.said.log.warning("%s: %s", self.said.waiting, exc)

    async def _stopped_within(self, seconds: float) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)
        return self._stopping.is_set()
