"""A running game held in memory (`GameRuntime`: its frames, its steps not yet committed, its bots and
clock), and what a submission gives back."""

import asyncio
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from app.bots import DEFAULT_BOT, Bot
from app.db.storage import KEEP, Entry, Keep, SeatRecord
from app.engine import Action, Event, Game, GameConfig
from app.rooms.clocks import OFF, Clock
from app.rooms.frames import Frame
from app.rooms.notices import Notices

GameFactory = Callable[[GameConfig], Game]


@dataclass(eq=False, slots=True)
class Pending:
    """A step applied on the game's head and queued for its commit."""

    entry: Entry
    frame: Frame
    sent: Action
    commit: "asyncio.Future[bool]"


@dataclass
class Submitted:
    seq: int
    version: int
    events: list[Event]


@dataclass(eq=False)
class GameRuntime:
    game_id: int
    room_id: int
    room_code: str
    config: GameConfig
    frame: Frame
    history: deque[Frame]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    action_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    # seat -> (seq, its last action as stored, and as the client sent it when it was sent here)
    last_action: dict[int, tuple[int, Action, Action]] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    abandoned: bool = False  # its room was closed unused (app/rooms/sweep.py): no more actions
    clock: Clock = OFF
    chain: deque[Pending] = field(default_factory=deque)  # steps applied after `frame`, not yet committed
    behind: bool = False  # another instance stored a step we have not read yet
    takeover: asyncio.Task[None] | None = None  # waits to play bots another instance should have moved
    # seat -> the version at which its person last took it back from a bot (seats.taken_back_at)
    taken_back: dict[int, int] = field(default_factory=dict)
    waiters: list["asyncio.Future[None]"] = field(default_factory=list)  # told when a frame is pushed
    moved_at: float = field(default_factory=time.monotonic)  # when it was loaded or last moved on, here
    saved_version: int = -1  # the version of its state kept in the database (see saved_states.py)
    saving: bool = False  # its state is being kept now
    wake: datetime | Keep | None = KEEP  # its wake_at as last written here (see wakes.py); KEEP: unknown
    notices: Notices | None = None  # what its steps tell people (see notices.py)
    notify: frozenset[int] = frozenset()  # the seats (and ROOM_CHANNEL) that have channels

    def player(self, seat: int | None) -> int | None:
        """The seat's place in this game: None for a spectator, and for a seat this game does not have
        (taken after it ended, once the host had added seats): that person watches it."""
        return seat if seat is not None and seat < self.config.seats else None

    @property
    def head(self) -> Frame:
        """The newest frame, committed or not: where the next action is checked and applied."""
        return self.chain[-1].frame if self.chain else self.frame

    @property
    def version(self) -> int:
        return self.frame.version

    @property
    def over(self) -> bool:
        return self.frame.over

    def push(self, frame: Frame) -> None:
        self.frame = frame
        self.moved_at = time.monotonic()
        self.history.append(frame)
        if len(self.history) >= 2:
            self.history[-2].retire()
        if len(self.history) >= 3:
            self.history[-3].strip()
        if self.waiters:
            for waiter in self.waiters:
                if not waiter.done():
                    waiter.set_result(None)
            self.waiters.clear()

    def frames_after(self, version: int) -> list[Frame]:
        """Kept frames newer than `version`, oldest first."""
        out = []
        for frame in reversed(self.history):
            if frame.version <= version:
                break
            out.append(frame)
        out.reverse()
        return out

    def remember(
        self,
        seq: int,
        seat: int,
        action: Action,
        action_id: str | None,
        sent: Action | None = None,
        *,
        by_timeout: bool = False,
    ) -> None:
        if by_timeout:  # the server's choice, not the seat's: the same action sent late is stale, no duplicate
            self.last_action.pop(seat, None)
        else:
            self.last_action[seat] = (seq, action, action if sent is None else sent)
        if action_id:
            self.action_ids[(seat, action_id)] = seq


Listener = Callable[[GameRuntime], None]


def seat_bots(seats: Sequence[SeatRecord]) -> dict[int, str]:
    """{seat: bot kind} of the seats a server-side bot plays: bot seats, and people's seats handed
    to a bot (by the host, on leaving, or after timeouts)."""
    out = {}
    for s in seats:
        if s.kind == "bot":
            out[s.seat] = s.bot or DEFAULT_BOT
        elif s.bot_plays:
            out[s.seat] = s.bot_plays
    return out


def seats_taken_back(seats: Sequence[SeatRecord]) -> dict[int, int]:
    """{seat: the game's version when its person last took it back from a bot}."""
    return {s.seat: s.taken_back_at for s in seats if s.taken_back_at is not None}


def new_seed() -> int:
    return secrets.randbits(62)
