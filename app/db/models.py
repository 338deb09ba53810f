"""Tables: rooms, their seats, the games played in them, and each game's append-only action log.

A game's state is never stored: it is what replaying `actions` (ordered by `seq`) on
`games.config` gives. `actions (game_id, seq)` is unique, so when several app instances race
to append the same step, the database lets exactly one win.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.db.names import NAME_KEY_LENGTH
from app.db.storage import now

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER primary keys only


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, playing, finished, closed
    settings: Mapped[dict[str, Any]]
    host_seat: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Seat(Base):
    """An occupied seat: a person (with a hashed token) or a server-side bot. Free seats have no row."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"), UniqueConstraint("room_id", "name_key"))

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_LENGTH))  # names.name_key: names are unique per room
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    bot: Mapped[str | None] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # a person's seat that a bot plays for now: the bot's kind and why ("host", "left", "timeout");
    # the person takes it back by acting (or the host hands it back)
    bot_plays: Mapped[str | None] = mapped_column(String(32))
    bot_reason: Mapped[str | None] = mapped_column(String(16))
    rejoin_hash: Mapped[str | None] = mapped_column(String(64), unique=True)  # a rejoin link's new token
    # the running game's step count when the person last took the seat back from a bot: the seat's
    # timeouts before it no longer count towards handing it to the timeout bot again
    taken_back_at: Mapped[int | None] = mapped_column(Integer)


class Game(Base):
    __tablename__ = "games"
    # (status, wake_at): the poll for due games (`claim_due`) reads the due ones in order of their wake;
    # with wake_at alone SQLite walked every running game's row for it (ix_games_status) and sorted
    __table_args__ = (Index(None, "room_id", "id"), Index(None, "status", "wake_at"))

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]]  # GameConfig, seed included
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[Any]]  # who sat where when the game started: [{"seat", "name", "kind", "bot"}]
    status: Mapped[str] = mapped_column(String(16), index=True)  # running, finished
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the room's clock setting at the start
    # when a server must look at this running game if nobody acts: a person's deadline, or a bot's
    # move another instance should have made by then (NULL: nothing is due); indexed with status
    wake_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GameState(Base):
    """A cache of a running game's state at one of its versions (the log stays the source of truth):
    loading the game replays only the steps after it. `engine` is the fingerprint of the engine that
    saved it; another engine's is ignored."""

    __tablename__ = "game_states"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    engine: Mapped[str] = mapped_column(String(64))
    state: Mapped[bytes] = mapped_column(LargeBinary)  # app.engine.save_state
    frame: Mapped[dict[str, Any]]  # the server's part of that version (markers, clocks, events)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Action(Base):
    """One accepted action. Rows are only ever inserted."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"), UniqueConstraint("game_id", "seat", "action_id"))

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)  # 0-based; the game version the action was made against
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]]
    action_id: Mapped[str | None] = mapped_column(String(64))  # the client's idempotency key, if any
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    by_timeout: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # made by the server


class ChatMessage(Base):
    """A message said in a room's chat (by a seat, its person's name at the time)."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index(None, "room_id", "id"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(500))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    kind: Mapped[str] = mapped_column(String(16), default="say", server_default="say")  # say; hint: a hint used


class NotifyChannel(Base):
    """Where a seat's person (or, seat ROOM_CHANNEL, the room's host for the whole room) is told of
    the game: channel URLs (secrets: never shown again in full), a Web Push subscription, when."""

    __tablename__ = "notify_channels"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)  # -1: the room's group channel
    urls: Mapped[list[Any]]
    push: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # a browser's PushSubscription
    when: Mapped[str] = mapped_column(String(16))  # always, away
    stop_key: Mapped[str] = mapped_column(String(64), unique=True)  # the link in every message that stops them
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class OutboxMessage(Base):
    """A notification to send (the transactional outbox): written with the step or event that causes
    it, sent once by one instance (`key` is unique), retried with backoff."""

    __tablename__ = "outbox"
    __table_args__ = (Index(None, "state", "due_at"), Index(None, "room_id", "seat", "sent_at"))

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(128), unique=True)  # the idempotency key
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)  # -1: the room's group channel
    game_id: Mapped[int | None] = mapped_column(ID)
    kind: Mapped[str] = mapped_column(String(16))  # turn, reminder, end, group
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(String(2000))
    # sent only while the seat has not acted at a step numbered this or later (a reminder, a move)
    unless_acted_from: Mapped[int | None] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16), default="pending")  # pending, sent, merged, skipped, failed
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    delivered: Mapped[list[Any]] = mapped_column(JSON, default=list)  # hashes of the URLs it reached
    last_error: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Review(Base):
    """A finished game's review (the search bot's evaluation of every decision): computed once, in a
    worker process of the instance that holds its lease, and kept."""

    __tablename__ = "reviews"
    __table_args__ = (Index(None, "status", "lease_until"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # pending, done, failed
    budget_ms: Mapped[int] = mapped_column(Integer)  # the search's time per decision
    body: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # {"seats": [...]} once done
    error: Mapped[str | None] = mapped_column(String(300))
    # a pending review is computed by the instance whose lease runs; expired (or None): anyone's
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
