"""Sending notifications: the transactional outbox's sender.

Notifications are written to the database with the step or event that causes them (see
app/rooms/notices.py); every instance polls for those that are due and claims a batch for a while
(a lease: SKIP LOCKED on PostgreSQL), so each is sent by one instance. A notification is sent at
most once per channel: a URL it reached is remembered in its row, and a retry (with backoff, after
a channel failed) goes only to the others. Across restarts nothing is lost: what is not marked
sent is claimed again once its lease ends. (A crash between a channel's answer and the row's update
can still repeat that message once; webhooks get an X-Idempotency-Key header to drop it.)

When it is sent, a notification is checked again: not sent once the seat acted (a reminder, a
"your move" overtaken), while a bot plays the seat, or (by default) while the seat's person has the
table open. Each target (a seat's channels, a room's group channel) gets at most NOTIFY_PER_HOUR
(NOTIFY_ROOM_PER_HOUR) messages an hour: beyond that they wait, and go as one merged message. The
notifications of one target that are due together go as one message too.
"""

import asyncio
import json
import logging
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from app import metrics
from app.db.outbox_storage import ROOM_CHANNEL, ChannelRecord, OutboxRecord, Outcome, Target
from app.db.storage import Store
from app.rooms.broadcast import Presence
from app.rooms.channels import apprise, apprise_url, check_public, private_host, scheme_of, url_hash
from app.rooms.errors import Invalid
from app.rooms.periodic import Periodic, RoundLog
from app.settings import Settings

log = logging.getLogger("wonders.notify")
# Apprise logs what failed with the service's address (a webhook's token, a chat id): not in our logs
logging.getLogger("apprise").setLevel(logging.CRITICAL + 1)

LEASE_SECONDS = 120
BATCH = 100
CONCURRENCY = 16  # targets sent to at once (each send mostly waits for a service's answer)
HOUR = timedelta(hours=1)
BACKOFF_SECONDS = 30.0
MAX_BACKOFF_SECONDS = 3600.0
PUSH_KEY = "push"  # how a row remembers that it reached the seat's Web Push subscription

# (url, title, body, key) -> None when delivered, else what went wrong (no secret in it)
Deliver = Callable[[str, str, str, str], Awaitable[str | None]]


class OutboxSender:
    """Polls for due notifications and sends them (see the module's docstring)."""

    def __init__(self, store: Store, presence: Presence, settings: Settings, deliver: Deliver | None = None) -> None:
        self.store = store
        self.presence = presence
        self.settings = settings
        self.deliver = deliver or self.through_apprise
        self.every = settings.notify_poll_seconds
        self.base = (settings.public_url or f"http://{settings.host}:{settings.port}").rstrip("/")
        said = RoundLog(log, "sending notifications failed", "notifications wait for the database")
        self._loop = Periodic("outbox", self._round, self.every, wait_first=False, said=said)
        self.sent = 0

    def start(self) -> None:
        if self.every > 0:
            self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def _round(self) -> None:
        while await self.poll() == BATCH:
            continue

    async def poll(self) -> int:
        """Claim the due notifications and send them; how many were claimed."""
        now = datetime.now(UTC)
        claimed = await self.store.claim_notices(now, now + timedelta(seconds=LEASE_SECONDS), BATCH)
        if not claimed:
            return 0
        by_target: dict[tuple[int, int], list[OutboxRecord]] = defaultdict(list)
        for notice in claimed:
            by_target[(notice.room_id, notice.seat)].append(notice)
        targets = await self.store.targets(list(by_target), now - HOUR)
        steps = await self.store.last_steps(
            [n.game_id for n in claimed if n.unless_acted_from is not None and n.game_id]
        )
        outcomes: list[Outcome] = []
        limit = asyncio.Semaphore(CONCURRENCY)

        async def send(key: tuple[int, int], notices: list[OutboxRecord]) -> None:
            async with limit:
                try:
                    outcomes.extend(await self._send(notices, targets[key], steps, now))
                except Exception:  # the claim ends with its lease: tried again then
                    log.exception("could not send the notifications of room %s", notices[0].room_code)

        await asyncio.gather(*(send(key, notices) for key, notices in by_target.items()))
        await self.store.settle(outcomes)
        for outcome in outcomes:
            if outcome.state != "sent":
                metrics.notification(outcome.state if not outcome.due_at else "postponed")
        return len(claimed)

    async def _send(
        self, notices: list[OutboxRecord], target: Target, steps: dict[tuple[int, int], int], now: datetime
    ) -> list[Outcome]:
        """What becomes of one target's claimed notifications: sent (one message for them all), or why not."""
        channel = target.channel
        if channel is None or (not channel.urls and channel.push is None):
            return [Outcome(n.id, "skipped", now, error="no channel") for n in notices]
        overtaken = [n for n in notices if self._overtaken(n, steps)]
        out = [Outcome(n.id, "skipped", now, error="overtaken") for n in overtaken]
        live = [n for n in notices if n not in overtaken]
        if not live:
            return out
        why_not = await self._not_wanted(live[0], target)
        if why_not:
            return out + [Outcome(n.id, "skipped", now, error=why_not) for n in live]
        seat = live[0].seat
        limit = self.settings.notify_room_per_hour if seat == ROOM_CHANNEL else self.settings.notify_per_hour
        if len(target.sent) >= limit:  # wait until the hour's oldest message leaves the window: then merged
            later = target.sent[0] + HOUR + timedelta(seconds=1)
            return out + [Outcome(n.id, "pending", now, due_at=later) for n in live]
        title, body = self._message(live, channel)
        return out + await self._deliver(live, channel, title, body, now)

    @staticmethod
    def _overtaken(notice: OutboxRecord, steps: dict[tuple[int, int], int]) -> bool:
        """Whether the seat acted since the notice was written (news no longer worth sending)."""
        if notice.unless_acted_from is None or notice.game_id is None:
            return False
        return steps.get((notice.game_id, notice.seat), -1) >= notice.unless_acted_from

    async def _not_wanted(self, notice: OutboxRecord, target: Target) -> str | None:
        """Why the seat is not told now (a bot plays it, it left, its person is at the table), if so."""
        if notice.seat == ROOM_CHANNEL or target.channel is None:
            return None
        if notice.kind != "end" and (target.seat_kind != "human" or target.bot_plays is not None):
            return "a bot plays the seat"
        if target.channel.when == "away":
            counts = await self.presence.counts(notice.room_code)
            if counts.get(str(notice.seat), 0) > 0:
                return "at the table"
        return None

    def _message(self, notices: Sequence[OutboxRecord], channel: ChannelRecord) -> tuple[str, str]:
        first = notices[0]
        room = f"{self.base}/room.html?code={first.room_code}"
        stop = f"{self.base}/notify/stop/{channel.stop_key}"
        if len(notices) == 1:
            title, lines = first.title, [first.body]
        else:
            title = f"{len(notices)} updates from room {first.room_code}"
            lines = [f"- {n.body}" for n in notices]
        body = "\n".join([*lines, "", f"Open the table: {room}", f"Stop these messages: {stop}"])
        return title, body

    async def _deliver(
        self, notices: list[OutboxRecord], channel: ChannelRecord, title: str, body: str, now: datetime
    ) -> list[Outcome]:
        first = notices[0]
        done = set(first.delivered)
        errors = []
        targets = [(url_hash(u), u) for u in channel.urls]
        if channel.push is not None:
            targets.append((PUSH_KEY, ""))
        for hashed, url in targets:
            if hashed in done:
                continue
            if hashed == PUSH_KEY:
                error = await self.through_push(channel.push or {}, title, body, first.room_code)
                scheme = "webpush"
            else:
                error = await self.deliver(url, title, body, first.key)
                scheme = scheme_of(url)
            if error is None:
                done.add(hashed)
                metrics.notification("sent", scheme)
            else:
                errors.append(f"{scheme}: {error}")
                metrics.notification("retried", scheme)
        delivered = tuple(sorted(done))
        if not errors:
            self.sent += 1
            return [Outcome(first.id, "sent", now, delivered)] + [Outcome(n.id, "merged", now) for n in notices[1:]]
        error = "; ".join(errors)
        log.warning("a notification of room %s was not delivered: %s", first.room_code, error)
        out = []
        for notice in notices:
            if notice.attempts + 1 >= self.settings.notify_max_attempts:
                out.append(Outcome(notice.id, "failed", now, delivered, error, attempt=True))
            else:
                delay = min(BACKOFF_SECONDS * 2**notice.attempts, MAX_BACKOFF_SECONDS) * random.uniform(0.8, 1.2)
                due = now + timedelta(seconds=delay)
                out.append(Outcome(notice.id, "pending", now, delivered, error[:300], due_at=due, attempt=True))
        return out

    async def through_apprise(self, url: str, title: str, body: str, key: str) -> str | None:
        """Send one message to one channel with Apprise."""
        try:
            await check_public([url], None, self.settings)
        except Invalid:
            return "its address is loopback or private now"
        sender = (await apprise()).Apprise()
        if not sender.add(apprise_url(url, self.settings, key)):
            return "the URL is not understood"
        try:
            ok = await sender.async_notify(body=body, title=title)
        except Exception as exc:  # a service's library failing: said by its type, not its words (may hold the URL)
            return f"failed ({type(exc).__name__})"
        return None if ok else "the service did not accept it"

    async def through_push(self, subscription: dict[str, Any], title: str, body: str, code: str) -> str | None:
        """Send one message to a browser's push subscription (Web Push, VAPID)."""
        if not self.settings.vapid_private_key:
            return "this server has no VAPID keys"
        endpoint = str(subscription.get("endpoint", ""))
        if not self.settings.notify_allow_private and await private_host(endpoint):
            return "its address is loopback or private now"
        from py_vapid import Vapid  # only where Web Push is used
        from pywebpush import WebPushException, webpush

        key = self.settings.vapid_private_key.strip()
        signer = Vapid.from_pem(key.encode()) if "BEGIN" in key else Vapid.from_string(private_key=key)

        data = json.dumps({"title": title, "body": body, "url": f"/room.html?code={code}"})
        claims = {"sub": self.settings.vapid_subject or "mailto:admin@localhost"}
        try:
            await asyncio.to_thread(
                webpush,
                subscription_info=subscription,
                data=data,
                vapid_private_key=signer,
                vapid_claims=claims,
                timeout=10,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            return f"the push service refused it ({status})"
        except Exception as exc:
            return f"failed ({type(exc).__name__})"
        return None
