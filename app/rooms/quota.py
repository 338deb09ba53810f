"""A sliding-window count per key: at most `limit` events in any `window` seconds (room creation per
client address). Kept in this instance's memory: each instance counts its own clients."""

import time
from collections import deque


class Quota:
    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit  # 0: no limit
        self.window = window
        self._events: dict[str, deque[float]] = {}

    def take(self, key: str) -> float | None:
        """Count one event for `key`; or, when `key` is at its limit, the seconds until it may again."""
        if self.limit <= 0:
            return None
        now = time.monotonic()
        self._forget_before(now - self.window)
        events = self._events.setdefault(key, deque())
        if len(events) >= self.limit:
            return events[0] + self.window - now
        events.append(now)
        return None

    def _forget_before(self, cutoff: float) -> None:
        for key in [k for k, events in self._events.items() if events[-1] <= cutoff]:
            del self._events[key]
        for events in self._events.values():
            while events[0] <= cutoff:
                events.popleft()
