"""What the rooms layer asks of the database for notifications, in its own words: each seat's (and
each room's group) channels, and the outbox of messages to send (app/db/sql_outbox.py keeps them).

A notification is written in the same transaction as the step or event that causes it: with a
step, as its Entry's `notices` (the log writer stores them with the step, or not at all); at a
game's start, by the start's unit of work (`RoomTx.add_notices`). Its `key` is unique, so a notice
written twice (two instances, a step replayed) is stored once.
"""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

ROOM_CHANNEL = -1  # the seat number of a room's group channel (set by its host)


@dataclass(frozen=True)
class ChannelRecord:
    """Where one seat's person (or, seat ROOM_CHANNEL, the whole room) is told of its games."""

    room_id: int
    seat: int
    urls: list[str]  # secrets: never shown again in full
    push: dict[str, Any] | None  # a browser's PushSubscription ({endpoint, keys: {p256dh, auth}})
    when: str  # "always", or "away": only while the seat has no open connection
    stop_key: str  # in every message's link that stops them


@dataclass(frozen=True)
class Notice:
    """A notification to write to the outbox."""

    key: str  # the idempotency key: one message per key, ever
    room_id: int
    seat: int
    game_id: int | None
    kind: str  # turn, reminder, end, group
    title: str
    body: str
    due_at: datetime
    unless_acted_from: int | None = None  # not sent once the seat acted at a step numbered this or later


@dataclass(frozen=True)
class OutboxRecord:
    """A claimed notification, to send now."""

    id: int
    key: str
    room_id: int
    room_code: str
    seat: int
    game_id: int | None
    kind: str
    title: str
    body: str
    unless_acted_from: int | None
    attempts: int
    delivered: list[str] = field(default_factory=list)  # the hashes of the URLs it already reached
    created_at: datetime | None = None


@dataclass(frozen=True)
class Target:
    """Where a claimed notification goes, read when it is sent."""

    channel: ChannelRecord | None
    seat_kind: str | None  # human or bot; None: no one holds the seat (or the room's group channel)
    bot_plays: str | None  # a bot plays the person's seat for them now
    sent: list[datetime]  # when its messages of the last hour went, oldest first


@dataclass(frozen=True)
class Outcome:
    """What became of a claimed notification: `state` sent, merged (inside another's message),
    skipped, failed, or pending again at `due_at` (`attempt`: a failed try, counted)."""

    id: int
    state: str
    at: datetime
    delivered: tuple[str, ...] = ()
    error: str | None = None
    due_at: datetime | None = None
    attempt: bool = False


class OutboxStore(ABC):
    """Channels and the outbox (a part of the Store)."""

    @abstractmethod
    async def set_channels(
        self, room_id: int, seat: int, urls: Sequence[str], push: dict[str, Any] | None, when: str
    ) -> ChannelRecord:
        """Set (replace) where the seat is told; its stop key stays if it had one."""

    @abstractmethod
    async def channels(self, room_id: int, seat: int) -> ChannelRecord | None: ...

    @abstractmethod
    async def channel_seats(self, room_id: int) -> frozenset[int]:
        """The room's seats that have channels (ROOM_CHANNEL for its group channel)."""

    @abstractmethod
    async def delete_channels(self, room_id: int, seat: int) -> bool: ...

    @abstractmethod
    async def channel_by_stop(self, stop_key: str) -> tuple[str, ChannelRecord] | None:
        """The channels a stop link names, with their room's code."""

    @abstractmethod
    async def add_notices(self, notices: Sequence[Notice]) -> None:
        """Write notices outside any step (those already written are left as they are)."""

    @abstractmethod
    async def claim_notices(self, now: datetime, until: datetime, limit: int) -> list[OutboxRecord]:
        """Claim due pending notifications until `until` (another instance passes them over)."""

    @abstractmethod
    async def targets(self, keys: Sequence[tuple[int, int]], since: datetime) -> dict[tuple[int, int], Target]:
        """For each (room id, seat) to send to: its channels, who holds the seat, what it was sent since."""

    @abstractmethod
    async def last_steps(self, game_ids: Sequence[int]) -> dict[tuple[int, int], int]:
        """{(game id, seat): the number of the seat's latest step} in those games."""

    @abstractmethod
    async def settle(self, outcomes: Sequence[Outcome]) -> None:
        """Write what became of claimed notifications (their claims end), in one transaction."""

    @abstractmethod
    async def outbox(self, room_id: int) -> list[dict[str, Any]]:
        """Every notification of a room, oldest first (for tests and operators; never served)."""
