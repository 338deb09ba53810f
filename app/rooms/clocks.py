"""Turn clocks: a deadline for every seat that owes a decision, and the server deciding on timeout.

A room's `clock` setting is copied onto its game at the start. What a clock says at any step is a
function of the stored log: the game's start time, each action's time and whether it was made on
timeout. So a restart (or another instance loading the game) computes the same deadlines, and
nothing about clocks is kept only in one process's memory.

- `turn`: every decision must come within `seconds` of the moment the seat came to owe it.
- `bank`: each seat has a time bank of `initial_seconds` that drains while it owes a decision;
  each decision it makes adds `increment_seconds` (Fischer).

A clock's pace, in a player's words: `live` (no clock, or less than an hour for a decision: people
at the table together) or `turn_based` (an hour or more: people move when they can, over days; a
turn clock of up to 7 days a decision, a bank of up to 30 days with up to a day added a decision).
A deadline days away needs nothing of a process: a loaded game's timer sleeps until it, and one put
away (app/rooms/idle.py) is woken from its wake in the database (app/rooms/wakes.py).

When a deadline passes, `ClockService` makes the decision with the room's `timeout_bot`, submitted
like any action (`by_timeout`): the database's unique step number lets exactly one instance store
it, and an instance that lost the race checks again whether the seat is still overdue before
retrying. After `timeouts_before_bot` timeouts in a row, the seat is handed to that bot until its
person acts again.
"""

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app import metrics
from app.bots import BOT_NAMES, BOTS, LEVEL_NAMES, make_bot
from app.rooms.errors import RoomError, Unavailable

log = logging.getLogger("wonders.clocks")
RETRY_SECONDS = 1.0  # a decision the database could not take is tried again this much later

HOUR = 3600
DAY = 24 * HOUR
MAX_TURN_SECONDS = 7 * DAY  # a decision within up to 7 days (turn-based rooms)
MAX_BANK_SECONDS = 30 * DAY
MAX_INCREMENT_SECONDS = DAY
TURN_BASED_FROM = HOUR  # a clock giving a decision this long or more is turn-based

Pace = Literal["live", "turn_based"]


# strict, as every body a client sends: "5" is no number of seconds, true no second
class ClockOff(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    mode: Literal["off"] = "off"


class TurnClock(BaseModel):
    """Every decision within `seconds`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    mode: Literal["turn"]
    seconds: Annotated[
        int,
        Field(ge=1, le=MAX_TURN_SECONDS, description="seconds for each decision (1 to 604800: 7 days)"),
    ]


class BankClock(BaseModel):
    """A time bank per seat, with a Fischer increment per decision."""

    model_config = ConfigDict(extra="forbid", strict=True)
    mode: Literal["bank"]
    initial_seconds: Annotated[
        int, Field(ge=1, le=MAX_BANK_SECONDS, description="each seat's bank at the start (1 to 2592000: 30 days)")
    ]
    increment_seconds: Annotated[
        int, Field(ge=0, le=MAX_INCREMENT_SECONDS, description="added to the bank per decision (0 to 86400: a day)")
    ] = 0


ClockSetting = Annotated[ClockOff | TurnClock | BankClock, Field(discriminator="mode")]


def pace_of(clock: dict[str, Any] | None) -> Pace:
    """A clock setting's pace: turn_based when a decision may take an hour or more (a turn clock of
    an hour or more, or a time bank of an hour or more), else live (no clock included)."""
    clock = clock or {}
    mode = clock.get("mode", "off")
    if mode == "turn":
        return "turn_based" if clock.get("seconds", 0) >= TURN_BASED_FROM else "live"
    if mode == "bank":
        return "turn_based" if clock.get("initial_seconds", 0) >= TURN_BASED_FROM else "live"
    return "live"


class ClockSettings(BaseModel):
    """A room's clock settings, as the host chooses them before the start."""

    model_config = ConfigDict(extra="ignore")
    clock: ClockSetting = Field(default_factory=ClockOff)
    timeout_bot: str = Field("greedy", description="the bot that decides for a seat whose time ran out")
    timeouts_before_bot: Annotated[int, Field(ge=1, le=10)] = 2

    @field_validator("timeout_bot")
    @classmethod
    def _known_bot(cls, kind: str) -> str:
        return check_timeout_bot(kind)

    def stored(self) -> dict[str, Any]:
        """What a game keeps of it (games.clock), or None-equivalent when the clock is off."""
        return {
            **self.clock.model_dump(),
            "timeout_bot": self.timeout_bot,
            "timeouts_before_bot": self.timeouts_before_bot,
        }


CLOCK_KEYS = tuple(ClockSettings.model_fields)


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's clock: the room's setting when the game started, and what happens on timeout."""

    mode: str = "off"
    seconds: float = 0.0  # turn
    initial: float = 0.0  # bank
    increment: float = 0.0  # bank
    bot: str = "greedy"
    before_bot: int = 2

    @property
    def on(self) -> bool:
        return self.mode != "off"

    @property
    def pace(self) -> Pace:
        if self.mode == "turn":
            return "turn_based" if self.seconds >= TURN_BASED_FROM else "live"
        if self.mode == "bank":
            return "turn_based" if self.initial >= TURN_BASED_FROM else "live"
        return "live"

    @classmethod
    def of(cls, stored: dict[str, Any] | None) -> "Clock":
        """From a game's stored clock ({"mode", ..., "timeout_bot", "timeouts_before_bot"})."""
        if not stored or stored.get("mode", "off") == "off":
            return OFF
        return cls(
            mode=stored["mode"],
            seconds=float(stored.get("seconds", 0)),
            initial=float(stored.get("initial_seconds", 0)),
            increment=float(stored.get("increment_seconds", 0)),
            bot=stored.get("timeout_bot") or "greedy",
            before_bot=int(stored.get("timeouts_before_bot") or 2),
        )


OFF = Clock()


@dataclass(frozen=True, slots=True)
class SeatClocks:
    """The clocks of every seat after one step. Times are Unix seconds."""

    owes_since: tuple[float | None, ...]  # when the seat came to owe its current decision
    bank: tuple[float, ...]  # bank mode: seconds left when it came to owe it (or now, if it owes none)
    # per seat, the steps (seq) of its latest decisions, all made for it on timeout: its run of timeouts
    timeouts: tuple[tuple[int, ...], ...]

    @classmethod
    def start(cls, clock: Clock, seats: int, to_act: tuple[int, ...], at: float) -> "SeatClocks":
        return cls(
            tuple(at if s in to_act else None for s in range(seats)),
            (clock.initial,) * seats,
            ((),) * seats,
        )

    def timeouts_since(self, seat: int, version: int) -> int:
        """How many of the seat's timeouts in a row came at step `version` or later."""
        return sum(1 for seq in self.timeouts[seat] if seq >= version)

    def after(
        self,
        clock: Clock,
        *,
        seq: int,
        at: float,
        actor: int | None,
        by_timeout: bool,
        before: tuple[int, ...],
        now_to_act: tuple[int, ...],
    ) -> "SeatClocks":
        """The clocks once `actor` made a decision (step `seq`) at `at` and `now_to_act` owe one."""
        owes = list(self.owes_since)
        bank = list(self.bank)
        timeouts = self.timeouts
        for s in range(len(owes)):
            acted = s == actor and s in before
            if owes[s] is not None and (acted or s not in now_to_act):
                bank[s] = max(0.0, bank[s] - (at - owes[s]))  # the decision it owed took this long
                if acted:
                    bank[s] += clock.increment
                owes[s] = None
            if s in now_to_act and owes[s] is None:
                owes[s] = at
        if actor is not None and (by_timeout or timeouts[actor]):
            run = timeouts[actor] + (seq,) if by_timeout else ()
            timeouts = (*timeouts[:actor], run, *timeouts[actor + 1 :])
        return SeatClocks(tuple(owes), tuple(bank), timeouts)

    def deadline(self, clock: Clock, seat: int) -> float | None:
        since = self.owes_since[seat]
        if since is None or not clock.on:
            return None
        return since + (clock.seconds if clock.mode == "turn" else self.bank[seat])

    def public(self, clock: Clock) -> dict[str, Any] | None:
        """What the game messages carry: the deadline of each seat that owes a decision, and since
        when it owes it (at most the server's now: a client's lower bound of the server's time); with
        a time bank, the bank of each seat that owes none."""
        if not clock.on:
            return None
        deadlines, since = {}, {}
        for s, owes in enumerate(self.owes_since):
            at = self.deadline(clock, s)
            if at is not None and owes is not None:
                deadlines[str(s)], since[str(s)] = iso_time(at), iso_time(owes)
        out: dict[str, Any] = {"mode": clock.mode, "pace": clock.pace, "deadlines": deadlines, "since": since}
        if clock.mode == "turn":
            out["seconds"] = clock.seconds
        else:
            out["banks"] = {str(s): round(b, 3) for s, b in enumerate(self.bank) if self.owes_since[s] is None}
            out["increment_seconds"] = clock.increment
        return out


def unix(moment: datetime) -> float:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def iso_time(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def check_timeout_bot(kind: str) -> str:
    if kind not in BOT_NAMES:
        raise ValueError(f"unknown timeout_bot {kind!r}; bots: {sorted(BOTS)}, levels: {list(LEVEL_NAMES)}")
    return kind


# ----- firing deadlines ---------------------------------------------------------------------------

Submit = Callable[..., Awaitable[Any]]
# (room code, seat, bot kind, reason, unless_back_after=the step that made it due)
HandOver = Callable[..., Awaitable[None]]


class ClockService:
    """Watches every loaded game of this process and decides for seats whose deadline passed."""

    def __init__(self, games: Any, hand_to_bot: HandOver) -> None:
        self.games = games
        self.hand_to_bot = hand_to_bot
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._deciding: set[tuple[int, int]] = set()  # (game, seat) whose timeout bot is choosing now
        self._handing: set[tuple[int, int]] = set()  # (game, seat) being handed to the timeout bot now
        # per game runtime: for each seat, the timeout whose hand-over was last tried (tried once:
        # one that did nothing, or failed, is not tried again before the seat's next timeout)
        self._tried: WeakKeyDictionary[Any, dict[int, int]] = WeakKeyDictionary()
        self.fired = 0
        games.listeners.append(self.watch)
        games.load_listeners.append(self.watch)
        games.bots_listeners.append(self.watch)  # a seat given back to its person owes again
        games.unload_listeners.append(self.forget)

    def watch(self, rt: Any) -> None:
        """Hand to the timeout bot every seat whose timeouts in a row call for it (just now, or before
        a restart that came in between), then (re)arm the game's timer for the earliest deadline of a
        seat a person plays (a server-side bot is not timed: it moves at once, or another instance
        takes it over, see GameService)."""
        old = self.timers.pop(rt.game_id, None)
        if old is not None:
            old.cancel()
        if not rt.clock.on or rt.over or rt.abandoned:
            return
        for seat in self.due_for_bot(rt):
            self._handing.add((rt.game_id, seat))  # now: the seat is not timed meanwhile
            self._spawn(self._hand_over(rt, seat), f"hand-over-{rt.game_id}-{seat}")
        frame = rt.frame
        due = [
            (frame.clocks.deadline(rt.clock, s), s)
            for s in frame.to_act
            if s not in rt.bots and (rt.game_id, s) not in self._deciding and (rt.game_id, s) not in self._handing
        ]
        due = [(at, s) for at, s in due if at is not None]
        if not due:
            return
        at, _ = min(due)
        loop = asyncio.get_running_loop()
        delay = max(0.0, at - time.time())
        self.timers[rt.game_id] = loop.call_later(delay + 0.005, self._due, rt)

    def forget(self, rt: Any) -> None:
        """The game is no longer held here: its timer goes (its wake, in the database, stays)."""
        timer = self.timers.pop(rt.game_id, None)
        if timer is not None:
            timer.cancel()

    def timeouts_in_a_row(self, rt: Any, seat: int) -> int:
        """The seat's timeouts in a row that count towards handing it to the bot: those since its
        person last acted, or took it back from the bot (POST .../back, or an action it sent)."""
        return rt.frame.clocks.timeouts_since(seat, rt.taken_back.get(seat, 0))

    def due_for_bot(self, rt: Any) -> list[int]:
        """The seats people play whose counted timeouts reached the clock's `timeouts_before_bot`
        (and whose last timeout's hand-over was not tried yet)."""
        timeouts = rt.frame.clocks.timeouts
        tried = self._tried.get(rt, {})
        return [
            s
            for s, run in enumerate(timeouts)
            if run
            and s not in rt.bots
            and tried.get(s) != run[-1]
            and (rt.game_id, s) not in self._handing
            and self.timeouts_in_a_row(rt, s) >= rt.clock.before_bot
        ]

    async def _hand_over(self, rt: Any, seat: int) -> None:
        """Hand the seat to the timeout bot (unless its person came back after the timeout that made
        it due); meanwhile the seat is not timed."""
        key = (rt.game_id, seat)
        try:
            last_timeout = rt.frame.clocks.timeouts[seat][-1]
            self._tried.setdefault(rt, {})[seat] = last_timeout
            await self.hand_to_bot(rt.room_code, seat, rt.clock.bot, "timeout", unless_back_after=last_timeout)
        except Unavailable as exc:  # its next timeout tries again
            log.warning("could not hand seat %s of game %s to the timeout bot: %s", seat, rt.game_id, exc.message)
        except RoomError as exc:  # the game ended meanwhile, say
            log.info("seat %s of game %s not handed to the timeout bot: %s", seat, rt.game_id, exc.message)
        except Exception:
            log.exception("could not hand seat %s of game %s to the timeout bot", seat, rt.game_id)
        finally:
            self._handing.discard(key)
            if self.games.runtimes.get(rt.game_id) is rt:
                self.watch(rt)  # handed over (no timer for it), or not (timed again)

    def _spawn(self, coro: Any, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _due(self, rt: Any) -> None:
        self.timers.pop(rt.game_id, None)
        if self.games.runtimes.get(rt.game_id) is not rt:
            return  # unloaded meanwhile (abandoned, or read again from the log when needed)
        self._spawn(self.fire(rt), f"clock-{rt.game_id}")

    def overdue(self, rt: Any, frame: Any) -> list[int]:
        now = time.time()
        out = []
        for s in frame.to_act:
            at = frame.clocks.deadline(rt.clock, s)
            if at is not None and at <= now and s not in rt.bots and (rt.game_id, s) not in self._handing:
                out.append(s)
        return out

    async def fire(self, rt: Any) -> None:
        """Decide for every seat whose deadline has passed, then arm the timer again (while the
        database is down, for another try a little later)."""
        retry_in = 0.0
        try:
            # every overdue seat at once, each timeout bot in its own thread (as server-side bots play)
            seats = [s for s in self.overdue(rt, rt.frame) if (rt.game_id, s) not in self._deciding]
            outcomes = await asyncio.gather(*(self._deciding_for(rt, s) for s in seats), return_exceptions=True)
            for outcome in outcomes:
                if isinstance(outcome, BaseException):
                    raise outcome
        except Unavailable as exc:
            retry_in = RETRY_SECONDS
            log.warning("the clock of game %s tries again in %.0f s: %s", rt.game_id, retry_in, exc.message)
        except Exception:
            log.exception("the clock of game %s failed", rt.game_id)
        finally:
            if self.games.runtimes.get(rt.game_id) is rt:
                if retry_in:
                    self.timers[rt.game_id] = asyncio.get_running_loop().call_later(retry_in, self._due, rt)
                else:
                    self.watch(rt)

    async def _deciding_for(self, rt: Any, seat: int) -> None:
        """_decide, the seat marked meanwhile: a new step (another seat's decision) re-arms the timer,
        and its firing must not start a second bot for a seat whose bot is still choosing."""
        key = (rt.game_id, seat)
        self._deciding.add(key)
        try:
            await self._decide(rt, seat)
        finally:
            self._deciding.discard(key)

    async def _decide(self, rt: Any, seat: int) -> None:
        frame = rt.frame
        if seat not in self.overdue(rt, frame):
            return
        legal = frame.legal(seat)
        if not legal:
            return
        bot = make_bot(rt.clock.bot, seed=random.getrandbits(32), level_table=self.games.bot_levels)
        try:
            action = await asyncio.to_thread(bot.choose, frame.view(seat), legal)  # a search bot may think long
        except Exception:
            log.exception("the timeout bot of game %s failed; it plays the first legal action", rt.game_id)
            action = legal[0]
        done = await self.games.submit_on_timeout(
            rt.game_id, seat, action, frame.version, lambda current: seat in self.overdue(rt, current)
        )
        if done is None:
            return  # another instance decided first, or the seat acted meanwhile
        self.fired += 1
        metrics.timeout_fired()
        log.info("seat %s of game %s timed out: decided by the %s bot", seat, rt.game_id, rt.clock.bot)
        # the new step reaches watch, which hands the seat to the bot if this timeout made it due

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for task in self._tasks:
            task.cancel()
