"""A sliding-window count per key: at most `limit` events in any `window` seconds (room creation per
client address). `LocalQuota` counts in this instance's memory; `RedisQuota`, used when the app has
a Redis (REDIS_URL), counts in Redis, so that every instance shares one count and a restart keeps
it. Redis holds a hash of the address, never the address."""

import hashlib
import logging
import time
import uuid
from abc import ABC, abstractmethod
from collections import deque
from typing import Any

log = logging.getLogger("wonders.quota")


class Quota(ABC):
    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit  # 0: no limit
        self.window = window

    async def take(self, key: str) -> float | None:
        """Count one event for `key`; or, when `key` is at its limit, the seconds until it may again."""
        if self.limit <= 0:
            return None
        return await self._take(key)

    @abstractmethod
    async def _take(self, key: str) -> float | None: ...

    async def stop(self) -> None:
        return None


class LocalQuota(Quota):
    def __init__(self, limit: int, window: float) -> None:
        super().__init__(limit, window)
        self._events: dict[str, deque[float]] = {}

    async def _take(self, key: str) -> float | None:
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


# One sorted set a key (score: when): drop what left the window, then count, then add if below the
# limit, atomically, so instances racing for the last place cannot both take it. Returns -1 when
# the event was counted, else the score of the oldest event still in the window.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])))
return -1
"""


class RedisQuota(Quota):
    """While Redis cannot be reached, this instance counts alone (in memory), as LocalQuota does."""

    def __init__(self, limit: int, window: float, redis_url: str, name: str, *, prefix: str) -> None:
        import redis.asyncio as aioredis

        super().__init__(limit, window)
        self.name = name
        self.prefix = prefix
        self.redis: Any = aioredis.from_url(redis_url, decode_responses=True)
        self._script = self.redis.register_script(_TAKE)
        self.fallback = LocalQuota(limit, window)

    def redis_key(self, key: str) -> str:
        return f"{self.prefix}quota:{self.name}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"

    async def _take(self, key: str) -> float | None:
        now = time.time()
        try:
            oldest = await self._script(
                keys=[self.redis_key(key)], args=[repr(now), repr(self.window), self.limit, uuid.uuid4().hex]
            )
        except Exception as exc:
            log.warning("quota %s: Redis is unreachable (%s): counting in this instance alone", self.name, exc)
            return await self.fallback.take(key)
        if float(oldest) < 0:
            return None
        return max(0.0, float(oldest) + self.window - now)

    async def stop(self) -> None:
        await self.redis.aclose()
