"""Carrying room changes to every connection, in this process and in other app instances.

A notice is a small dict, e.g. `{"kind": "game", "game_id": 7, "version": 12}` or
`{"kind": "room"}`; it never carries hidden information or state. Receivers pull what they need
(the game's new steps from the database, the room from the database), so a duplicated or late
notice costs a reread; a lost one would leave connections behind until the room's next notice.

`LocalBroadcaster` serves one process. `RedisBroadcaster` (used when REDIS_URL is set) also
publishes on Redis pub/sub and hands other instances' notices to this one. Pub/sub delivers at most
once, so nothing counts on every notice arriving: a publish Redis refuses is tried again until it
goes through, and an instance that lost its subscription hands its own handlers a RESYNC notice
(room code EVERY_ROOM) once subscribed again: every room and game it follows is read again.
`Presence` counts the open connections per seat, for "who is connected", in one process or across
instances, and when each seat's last connection closed (for "away").
"""

import asyncio
import contextlib
import json
import logging
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from typing import Any

log = logging.getLogger("wonders.broadcast")

Handler = Callable[[str, dict[str, Any]], None]
SPECTATOR = "s"
EVERY_ROOM = "*"  # the room code of a RESYNC notice
RESYNC: dict[str, Any] = {"kind": "resync"}


class Broadcaster(ABC):
    def __init__(self) -> None:
        self._handlers: list[Handler] = []

    def subscribe(self, handler: Handler) -> None:
        """`handler(room_code, notice)` is called, in the event loop, for every notice."""
        self._handlers.append(handler)

    def deliver_local(self, code: str, notice: dict[str, Any]) -> None:
        for handler in self._handlers:
            try:
                handler(code, notice)
            except Exception:
                log.exception("notice handler failed for room %s", code)

    @abstractmethod
    async def publish(self, code: str, notice: dict[str, Any]) -> None:
        """Deliver to this process at once and to every other instance."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class LocalBroadcaster(Broadcaster):
    async def publish(self, code: str, notice: dict[str, Any]) -> None:
        self.deliver_local(code, notice)


class RedisBroadcaster(Broadcaster):
    """Redis pub/sub: one channel per room (`<prefix>room:<code>`, the prefix `wonders:` by default), one
    pattern subscription per process."""

    def __init__(self, redis_url: str, instance_id: str, *, prefix: str) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self.instance_id = instance_id
        self.channel_prefix = prefix + "room:"
        # named, so that Redis's CLIENT LIST tells which instance holds which connection
        self.redis = aioredis.from_url(redis_url, decode_responses=True, client_name=f"wonders-broadcast-{instance_id}")
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._unsent: dict[tuple[str, Any], str] = {}  # (room code, notice kind): the payload Redis refused
        self._resend: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.redis.ping()
        self._task = asyncio.create_task(self._listen(), name="redis-broadcast")
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def stop(self) -> None:
        for task in (self._task, self._resend):
            if task is None:
                continue
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()

    async def publish(self, code: str, notice: dict[str, Any]) -> None:
        self.deliver_local(code, notice)
        payload = json.dumps({"from": self.instance_id, "notice": notice}, separators=(",", ":"))
        try:
            await self.redis.publish(self.channel_prefix + code, payload)
        except Exception as exc:  # what it announces is committed: the other instances must hear of it
            self._unsent[(code, notice.get("kind"))] = payload  # a newer notice of a kind supersedes an older
            if self._resend is None or self._resend.done():
                log.warning("could not publish to Redis (%s): trying again in the background", exc)
                self._resend = asyncio.create_task(self._publish_unsent(), name="redis-publish-again")

    async def _publish_unsent(self) -> None:
        """Publish the notices Redis refused until it takes them: a late or doubled notice costs a
        reread, a lost one a stall. At most one per room and kind waits."""
        delay = 0.1
        while self._unsent:
            await asyncio.sleep(delay)
            (code, kind), payload = next(iter(self._unsent.items()))
            try:
                await self.redis.publish(self.channel_prefix + code, payload)
            except Exception:
                delay = min(delay * 2, 5.0)
                continue
            if self._unsent.get((code, kind)) == payload:  # not superseded meanwhile
                del self._unsent[(code, kind)]
            delay = 0.0

    async def _listen(self) -> None:
        delay = 0.1
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(self.channel_prefix + "*")
                await self._confirmed(pubsub)
                if self._subscribed.is_set():  # subscribed again: notices may have been missed meanwhile
                    self.deliver_local(EVERY_ROOM, RESYNC)
                self._subscribed.set()
                delay = 0.1
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    self._receive(message["channel"], message["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as exc:
                log.warning("Redis subscription lost (%s); retrying in %.1fs", exc, delay)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    @staticmethod
    async def _confirmed(pubsub: Any) -> None:
        """Wait for Redis to confirm the subscription: until then another instance's notice
        could reach Redis first and be missed (`psubscribe` only sends the command)."""
        while True:
            message = await pubsub.get_message(timeout=10)
            if message is None:
                raise TimeoutError("Redis did not confirm the subscription")
            if message.get("type") == "psubscribe":
                return

    def _receive(self, channel: str, data: str) -> None:
        try:
            payload = json.loads(data)
        except ValueError:
            return
        if not isinstance(payload, dict) or payload.get("from") == self.instance_id:
            return
        notice = payload.get("notice")
        if isinstance(notice, dict):
            self.deliver_local(channel[len(self.channel_prefix) :], notice)


class Presence(ABC):
    """How many connections each seat of a room has open (spectators counted apart)."""

    @abstractmethod
    async def join(self, code: str, seat: int | None) -> None: ...

    @abstractmethod
    async def leave(self, code: str, seat: int | None) -> None: ...

    @abstractmethod
    async def counts(self, code: str) -> dict[str, int]:
        """{"0": 1, "2": 2, "s": 5}: connections per seat, "s" for spectators."""

    async def gone(self, code: str) -> dict[str, float]:
        """{"1": 1733040000.5}: for seats whose last connection closed, when (Unix time); a seat that
        connects again is dropped from it."""
        return {}

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


def _key(seat: int | None) -> str:
    return SPECTATOR if seat is None else str(seat)


GONE_KEPT = 2 * 24 * 3600  # seconds a seat's disconnection time is remembered


class LocalPresence(Presence):
    def __init__(self) -> None:
        self.rooms: dict[str, Counter[str]] = {}
        self.left_at: dict[str, dict[str, float]] = {}  # room -> seat -> when its last connection closed

    async def join(self, code: str, seat: int | None) -> None:
        self.rooms.setdefault(code, Counter())[_key(seat)] += 1
        if seat is not None:
            self._forget(code, _key(seat))

    def _forget(self, code: str, key: str) -> None:
        room = self.left_at.get(code)
        if room is not None:
            room.pop(key, None)
            if not room:
                del self.left_at[code]

    async def leave(self, code: str, seat: int | None) -> None:
        room = self.rooms.get(code)
        if room is None:
            return
        room[_key(seat)] -= 1
        if room[_key(seat)] <= 0:
            del room[_key(seat)]
            if seat is not None:
                self._gone(code, _key(seat))
        if not room:
            del self.rooms[code]

    def _gone(self, code: str, key: str) -> None:
        moment = time.time()
        if len(self.left_at) > 10_000:  # forget rooms nobody came back to
            for old in [c for c, seats in self.left_at.items() if max(seats.values()) < moment - GONE_KEPT]:
                del self.left_at[old]
        self.left_at.setdefault(code, {})[key] = moment

    async def counts(self, code: str) -> dict[str, int]:
        return dict(self.rooms.get(code, {}))

    async def gone(self, code: str) -> dict[str, float]:
        return dict(self.left_at.get(code, {}))


class RedisPresence(Presence):
    """A hash per room (`<prefix>presence:<code>`, field `<instance>:<seat>`), and a heartbeat key per
    instance: counts of an instance whose heartbeat expired (it died) are ignored and swept. When a
    seat's last connection (on any instance) closes, the time goes into `<prefix>gone:<code>` (field
    `<seat>`), so every instance tells the same seats away. The prefix is `wonders:` by default.

    While Redis cannot be reached, connections still open and close and rooms are still shown: this
    instance answers with what it counts itself (its own connections), and once Redis answers its
    heartbeat again, it writes its counts of the rooms that changed meanwhile back."""

    TTL = 30
    # a room's hash expires this long after the last heartbeat of an instance with connections in
    # it: a room whose instances all died (no clean stop to delete their counts) leaves nothing behind
    ROOM_TTL = 600

    def __init__(self, redis_url: str, instance_id: str, *, prefix: str) -> None:
        import redis.asyncio as aioredis

        self.instance_id = instance_id
        self.prefix = prefix
        self.redis = aioredis.from_url(redis_url, decode_responses=True)
        self.local = LocalPresence()
        self._task: asyncio.Task[None] | None = None
        self._unsynced: set[str] = set()  # rooms whose counts here changed while Redis was unreachable

    def _alive_key(self, instance: str) -> str:
        return f"{self.prefix}instance:{instance}"

    def presence_key(self, code: str) -> str:
        return f"{self.prefix}presence:{code}"

    def gone_key(self, code: str) -> str:
        return f"{self.prefix}gone:{code}"

    async def start(self) -> None:
        await self.redis.set(self._alive_key(self.instance_id), "1", ex=self.TTL)
        self._task = asyncio.create_task(self._heartbeat(), name="redis-presence")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            for code, counter in self.local.rooms.items():
                fields = [f"{self.instance_id}:{k}" for k in counter]
                if fields:
                    await self.redis.hdel(self.presence_key(code), *fields)
            await self.redis.delete(self._alive_key(self.instance_id))
        await self.redis.aclose()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.TTL / 3)
            try:
                await self.redis.set(self._alive_key(self.instance_id), "1", ex=self.TTL)
                await self._write_back()
                await self._keep_rooms()
            except Exception as exc:
                log.warning("presence heartbeat failed: %s", exc)

    async def _write_back(self) -> None:
        """Replace this instance's counts in Redis with its own, for the rooms that changed while
        Redis was unreachable."""
        for code in list(self._unsynced):
            key, mine = self.presence_key(code), f"{self.instance_id}:"
            stale = [field for field in await self.redis.hkeys(key) if field.startswith(mine)]
            if stale:
                await self.redis.hdel(key, *stale)
            counted = await self.local.counts(code)
            if counted:
                await self.redis.hset(key, mapping={mine + seat: n for seat, n in counted.items()})
            self._unsynced.discard(code)

    async def _keep_rooms(self) -> None:
        """Push back the expiry of the hash of every room this instance has connections in."""
        codes = [code for code, counter in self.local.rooms.items() if counter]
        if codes:
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.expire(self.presence_key(code), self.ROOM_TTL)
                await pipe.execute()

    def _unreachable(self, code: str, exc: Exception) -> None:
        if not self._unsynced:
            log.warning("presence: Redis is unreachable (%s): counting this instance's connections only", exc)
        self._unsynced.add(code)

    async def join(self, code: str, seat: int | None) -> None:
        await self.local.join(code, seat)
        key = self.presence_key(code)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hincrby(key, f"{self.instance_id}:{_key(seat)}", 1)
                pipe.expire(key, self.ROOM_TTL)
                await pipe.execute()
            if seat is not None:
                await self.redis.hdel(self.gone_key(code), _key(seat))
        except Exception as exc:
            self._unreachable(code, exc)

    async def leave(self, code: str, seat: int | None) -> None:
        await self.local.leave(code, seat)
        key, field = self.presence_key(code), f"{self.instance_id}:{_key(seat)}"
        try:
            if await self.redis.hincrby(key, field, -1) <= 0:
                await self.redis.hdel(key, field)
                if seat is not None and (await self._counts(code)).get(_key(seat), 0) == 0:
                    gone = self.gone_key(code)
                    await self.redis.hset(gone, _key(seat), repr(time.time()))
                    await self.redis.expire(gone, GONE_KEPT)
        except Exception as exc:
            self._unreachable(code, exc)

    async def gone(self, code: str) -> dict[str, float]:
        try:
            found = await self.redis.hgetall(self.gone_key(code))
        except Exception:
            return await self.local.gone(code)
        return {seat: float(moment) for seat, moment in found.items()}

    async def counts(self, code: str) -> dict[str, int]:
        try:
            return await self._counts(code)
        except Exception:
            return await self.local.counts(code)

    async def _counts(self, code: str) -> dict[str, int]:
        key = self.presence_key(code)
        fields = await self.redis.hgetall(key)
        instances = sorted({f.split(":", 1)[0] for f in fields})
        alive = (
            dict(zip(instances, await self.redis.mget([self._alive_key(i) for i in instances]), strict=True))
            if instances
            else {}
        )
        out: Counter[str] = Counter()
        dead = []
        for field, value in fields.items():
            instance, seat = field.split(":", 1)
            if alive.get(instance) is None:
                dead.append(field)
            elif int(value) > 0:
                out[seat] += int(value)
        if dead:
            await self.redis.hdel(key, *dead)
        return dict(out)
