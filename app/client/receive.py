"""Receiving from the websocket: `received`, a message already here (no waiting), and `Alarm`, the
next message within a deadline."""

import asyncio
from typing import Any


async def received(ws: Any) -> Any | None:
    """A message already here, or None: no waiting."""
    try:
        async with asyncio.timeout(0):
            return await ws.recv()
    except TimeoutError:
        return None


class Alarm:
    """`receive`: the next message, or None if none came within the timeout. Like an
    `asyncio.timeout` around each receive, but with one timer for as long as the deadline does not
    come nearer (a timer set and cancelled for each message was a fifth of a bot client's time)."""

    def __init__(self) -> None:
        self.due: float | None = None  # the deadline of the receive in progress (event loop time)
        self.timer: asyncio.TimerHandle | None = None
        self.timer_at = 0.0
        self.task: asyncio.Task[Any] | None = None
        self.rang = False

    async def receive(self, ws: Any, within: float | None) -> Any | None:
        if within is None:
            return await ws.recv()
        if within <= 0:
            return await received(ws)
        loop = asyncio.get_running_loop()
        self.due = loop.time() + within
        if self.timer is None or self.timer_at > self.due:
            self._set(loop, self.due)
        self.task = asyncio.current_task()
        try:
            return await ws.recv()
        except asyncio.CancelledError:
            rang, self.rang = self.rang, False
            assert self.task is not None
            if not rang or self.task.uncancel() > 0:  # cancelled by someone else (too)
                raise
            return None
        finally:
            self.due = self.task = None

    def _set(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.timer_at = loop.call_at(when, self._ring), when

    def _ring(self) -> None:
        self.timer = None
        if self.due is None or self.task is None:  # no receive with a deadline in progress
            return
        loop = asyncio.get_running_loop()
        if self.due > loop.time():  # the deadline moved on since the timer was set
            self._set(loop, self.due)
            return
        self.rang = True
        self.task.cancel()
