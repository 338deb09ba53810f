"""The storage interface: everything the rooms layer asks of the database, in its own words.

Nothing above `app/db` opens a session, writes SQL or sees a driver's error: the rooms layer calls a
`Store` (`app.db.open_store(url)` gives the one for a DATABASE_URL: `SqlStore`, on SQLite or
PostgreSQL, app/db/sql_store.py). It takes and returns plain values: frozen records of rooms, seats
and games, dicts of settings and steps.

Rooms and seats change inside a unit of work (`Store.transaction()`, a `RoomTx`): whatever it wrote is
committed when the block ends, or nothing if it raised. An update returns the record as it now is.
A unique key another writer took first comes out as `Taken`; a database that does not answer (or
a disk that refuses to write) as `StorageDown`; any other failure of the database as
`StorageFailure`. No other error of the database's comes out of a Store.

Games: `game(game_id)` reads a game with its room's code and seats and its whole log;
`steps_since(game_id, seq)` what another instance stored meanwhile; `submit(entry)` queues one action
for its (group) commit and `committed(future)` waits for it (False when the step was stored first by
someone else).
"""

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.db.outbox_storage import Notice, OutboxStore
from app.db.review_storage import ReviewStore


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite gives back naive datetimes: they were stored in UTC)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


class Taken(Exception):
    """A unique key (a room code, a seat, a name) that another writer took first."""


class StorageDown(Exception):
    """The database did not answer, or its disk refused to write (`disk`): try again later."""

    def __init__(self, message: str, *, disk: bool = False) -> None:
        super().__init__(message)
        self.disk = disk


class StorageFailure(Exception):
    """The database answered with an error that is no outage: a fault to log and fix."""


@dataclass(frozen=True)
class RoomRecord:
    id: int
    code: str
    status: str  # open, playing, finished, closed
    settings: dict[str, Any]
    host_seat: int | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SeatRecord:
    """An occupied seat: a person (with a hashed token) or a server-side bot. Free seats have none."""

    id: int
    room_id: int
    seat: int
    name: str
    name_key: str
    kind: str  # human or bot
    bot: str | None
    token_hash: str | None
    joined_at: datetime
    # a person's seat that a bot plays for now: the bot's kind and why ("host", "left", "timeout")
    bot_plays: str | None
    bot_reason: str | None
    rejoin_hash: str | None  # a rejoin link's new token
    # the running game's step count when the person last took the seat back from a bot
    taken_back_at: int | None


@dataclass(frozen=True)
class GameRecord:
    id: int
    room_id: int
    kind: str
    config: dict[str, Any]  # GameConfig, seed included
    seed: int
    seats: list[Any]  # who sat where when the game started: [{"seat", "name", "kind", "bot"}]
    status: str  # running, finished, abandoned
    result: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None
    clock: dict[str, Any] | None  # the room's clock setting at the start


@dataclass(frozen=True)
class ChatRecord:
    """A message of a room's chat: who said it (the seat, its person's name then), what, when."""

    id: int
    room_id: int
    seat: int
    name: str
    text: str
    at: datetime
    deleted: bool
    kind: str = "say"  # say: said by the seat; hint: the seat used a hint (the server's words)


@dataclass(frozen=True)
class SavedState:
    """A cache of a game's state at one of its versions (the log stays the source of truth): the
    engine's bytes (app.engine.save_state, with the fingerprint of the engine that saved them) and
    the server's part of that version (`frame`: JSON)."""

    version: int
    engine: str
    state: bytes
    frame: dict[str, Any]


@dataclass(frozen=True)
class HeldSeat:
    """A seat a token holds, with what a list of one's games shows of it (`Store.held_seats`): its
    room and the room's seats now, the room's latest game and, while that game runs, its stored
    step count and the server's part of its kept state (`kept`: SavedState.frame and its version,
    without the engine's bytes), which says whose move it is when it was kept at the last step."""

    token_hash: str
    room: RoomRecord
    seat: SeatRecord
    room_seats: tuple[SeatRecord, ...]
    game: GameRecord | None
    steps: int = 0
    kept_version: int | None = None
    kept: dict[str, Any] | None = None


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its record's fields, its room's code and seats now, and its log."""

    id: int
    room_id: int
    room_code: str
    config: dict[str, Any]
    status: str
    clock: dict[str, Any] | None
    created_at: datetime
    seats: list[Any]  # who sat where at the start ({"seat", "name", "kind", "bot"})
    result: dict[str, Any] | None
    room_seats: Sequence[SeatRecord]  # the room's seats now (who plays each one)
    steps: list[dict[str, Any]]  # {"seq", "seat", "action", "action_id", "by_timeout", "created_at"}
    saved: SavedState | None = None  # its state kept at a version, if any
    notify: frozenset[int] = frozenset()  # its room's seats that have notification channels


class Keep:
    """An Entry's `wake` that leaves the game's as it was."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP = Keep()


@dataclass
class Entry:
    """One action to append to a game's log (see Store.submit)."""

    game_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    action_id: str | None
    at: datetime
    result: dict[str, Any] | None = None  # set on a game's last action: it finishes the game and room
    room_id: int | None = None
    by_timeout: bool = False  # made by the server for a seat whose clock ran out
    after: "Entry | None" = None  # the uncommitted step of the same game this one was built on
    outcome: bool | None = None  # once written: stored, or not (a conflict, its predecessor not stored, a failure)
    dropped: bool = False  # not stored because its predecessor was not
    # the game's wake_at from this step on (see Store.claim_due); KEEP: as it was
    wake: datetime | Keep | None = KEEP
    notices: "list[Notice]" = field(default_factory=list)  # notifications it causes (written with it)


@dataclass(frozen=True)
class WriteFailure:
    """The database refused to store actions from `since` to `last` (time.time()s), no batch stored
    between them; `reason`: what it said last."""

    since: float
    last: float
    reason: str


class RoomTx(ABC):
    """One unit of work on rooms, seats and the games they start."""

    @abstractmethod
    async def room(self, code: str, *, lock: bool = False) -> RoomRecord | None:
        """The room of that code (`lock`: until the unit of work ends, other writers wait)."""

    @abstractmethod
    async def seats(self, room_id: int) -> list[SeatRecord]:
        """Its occupied seats, by seat number."""

    @abstractmethod
    async def seat(self, room_id: int, seat: int) -> SeatRecord | None: ...

    @abstractmethod
    async def seat_by_token(self, room_id: int, token_hash: str) -> SeatRecord | None: ...

    @abstractmethod
    async def seat_by_rejoin(self, room_id: int, rejoin_hash: str) -> SeatRecord | None: ...

    @abstractmethod
    async def seats_by_tokens(
        self, token_hashes: Sequence[str], *, lock: bool = False
    ) -> list[tuple[RoomRecord, SeatRecord]]:
        """The seats, in any rooms, that these token hashes hold, each with its room, by room id
        (`lock`: those rooms, until the unit of work ends)."""

    @abstractmethod
    async def seats_by_rejoins(
        self, rejoin_hashes: Sequence[str], *, lock: bool = False
    ) -> list[tuple[RoomRecord, SeatRecord]]:
        """The seats, in any rooms, whose rejoin link has one of these hashes, each with its room, by
        room id (`lock`: those rooms, until the unit of work ends)."""

    @abstractmethod
    async def count_rooms(self, statuses: Sequence[str]) -> int: ...

    @abstractmethod
    async def latest_game(self, room_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def games(self, room_id: int) -> list[GameRecord]:
        """Every game played in the room, oldest first."""

    @abstractmethod
    async def game(self, game_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def step_count(self, game_id: int) -> int:
        """The game's version as stored: how many steps its log holds."""

    @abstractmethod
    async def add_room(self, code: str, settings: dict[str, Any], host_seat: int) -> RoomRecord:
        """A new open room (Taken if its code is)."""

    @abstractmethod
    async def add_person(self, room_id: int, seat: int, name: str, token_hash: str) -> None:
        """A person sits down (Taken if the seat or the name is)."""

    @abstractmethod
    async def add_bot(self, room_id: int, seat: int, kind: str) -> None:
        """A bot of that kind sits down, named after its kind and seat."""

    @abstractmethod
    async def remove_seat(self, seat: SeatRecord) -> None: ...

    @abstractmethod
    async def update_room(self, room: RoomRecord, **changes: Any) -> RoomRecord:
        """Change these fields of the room; the room as it now is."""

    @abstractmethod
    async def update_seat(self, seat: SeatRecord, **changes: Any) -> SeatRecord:
        """Change these fields of the seat; the seat as it now is (Taken if a unique one is taken)."""

    @abstractmethod
    async def claim_room(self, room_id: int, statuses: Sequence[str], status: str) -> bool:
        """Move the room to `status` if it still is in one of `statuses` (one writer wins a race)."""

    @abstractmethod
    async def add_game(
        self,
        *,
        room_id: int,
        kind: str,
        config: dict[str, Any],
        seed: int,
        seats: list[Any],
        clock: dict[str, Any] | None,
    ) -> int:
        """A new running game; its id."""

    @abstractmethod
    async def channel_seats(self, room_id: int) -> frozenset[int]:
        """The room's seats that have notification channels (ROOM_CHANNEL: its group channel)."""

    @abstractmethod
    async def add_notices(self, notices: Sequence[Notice]) -> None:
        """Write notifications with this unit of work (those already written are left alone)."""


class Store(OutboxStore, ReviewStore):
    """Where rooms, seats, games and their action logs are kept."""

    dialect: str  # the database's kind ("sqlite", "postgresql"), for what is said about it

    @abstractmethod
    def start(self) -> None:
        """Start writing actions (the log writer)."""

    @abstractmethod
    async def stop_writing(self) -> None:
        """Write what is pending, then stop the log writer."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def writes_failing(self) -> WriteFailure | None:
        """Since when and why the database refuses to store actions (None: the last batch was stored,
        or the last refusal is over 30 s old)."""

    @abstractmethod
    async def ping(self) -> None:
        """Return if the database answers (StorageDown if not)."""

    # ----- rooms ---------------------------------------------------------------------------------

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[RoomTx]:
        """A unit of work: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[RoomTx]:
        """Reads only: nothing is committed."""

    @abstractmethod
    async def status_counts(self) -> list[tuple[str, int]]:
        """(room status, rooms) pairs, and ("games_running", games)."""

    # ----- games ---------------------------------------------------------------------------------

    @abstractmethod
    async def game(self, game_id: int) -> StoredGame | None: ...

    @abstractmethod
    async def held_seats(self, token_hashes: Sequence[str]) -> list[HeldSeat]:
        """The seats these token hashes hold (a hash that holds none is left out), with their rooms,
        the rooms' seats, each room's latest game and, for a running one, its step count and kept
        frame: a few queries, however many hashes."""

    @abstractmethod
    async def steps_since(self, game_id: int, seq: int) -> list[dict[str, Any]]:
        """The game's steps from `seq` on."""

    @abstractmethod
    async def save_state(self, game_id: int, saved: SavedState) -> None:
        """Keep the game's state at this version, unless one of a later version is kept already."""

    @abstractmethod
    async def set_wake(self, game_id: int, at: datetime | None, *, version: int | None = None) -> bool:
        """When a server must look at this running game if nobody acts (None: nothing is due). With
        `version` (the game's version the wake was computed at), only while no step of that number or
        later is stored: a step writes its own wake with it, and an older one must not overwrite it.
        Whether it was written."""

    @abstractmethod
    async def claim_due(self, now: datetime, until: datetime, limit: int) -> list[int]:
        """Running games whose wake_at has come, at most `limit`, each claimed by this caller: its
        wake_at moves to `until`, so no other instance takes it meanwhile (another one, polling at
        the same moment, gets other games)."""

    @abstractmethod
    def submit(self, entry: Entry) -> "asyncio.Future[bool]":
        """Queue one action for its commit; `committed` awaits the answer."""

    @abstractmethod
    async def committed(self, commit: "asyncio.Future[bool]") -> bool:
        """Whether a submitted action was stored (False: its step or idempotency key was stored
        first by someone else); StorageDown if the database did not answer."""

    async def append(self, entry: Entry) -> bool:
        """Commit one action (and, with its `result`, finish its game and room)."""
        return await self.committed(self.submit(entry))

    # ----- a room's chat ------------------------------------------------------------------------

    @abstractmethod
    async def add_chat(self, room_id: int, seat: int, name: str, text: str, kind: str = "say") -> ChatRecord:
        """Store a message said in the room (`kind` hint: a hint the seat used, in the server's words)."""

    @abstractmethod
    async def chat(
        self,
        room_id: int,
        *,
        after: int = 0,
        limit: int = 100,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[ChatRecord]:
        """The room's messages after the one of id `after`, oldest first, at most `limit` (the
        newest ones when there are more); with `since` and `until`, only those said from `since`
        and before `until` (a replay's chat: what was said while its game was played)."""

    @abstractmethod
    async def delete_chat(self, room_id: int, message_id: int) -> ChatRecord | None:
        """Mark a message of the room deleted (its text is no longer shown); None if there is none."""

    # ----- unused rooms (app/rooms/sweep.py) -----------------------------------------------------

    @abstractmethod
    async def touch_room(self, code: str) -> None:
        """The room was used just now."""

    @abstractmethod
    async def idle_rooms(self, cutoff: datetime, limit: int) -> list[tuple[int, str]]:
        """(id, code) of the rooms in use with no change and no action since the cutoff, and no
        running game with a wake (one its clock or bots move on by themselves)."""

    @abstractmethod
    async def close_idle_room(self, room_id: int, cutoff: datetime) -> tuple[int, ...] | None:
        """Close the room if it is still unused since the cutoff, and abandon its running game, at
        once: the abandoned games' ids, or None if it was used meanwhile or closed by another."""

    @abstractmethod
    async def abandoned_among(self, game_ids: Sequence[int]) -> list[int]: ...
