"""Running games: one in-memory runtime per game, built by replaying the stored log.

Applying an action (`GameService.submit`):
1. under the game's asyncio lock, check the seat, the version the action was made against and
   the idempotency key against the game's head: its newest step, committed or not;
2. apply it to a *clone* of the head's state (the engine validates it; a rejection changes nothing);
3. queue it for its commit (`Store.submit`) with `seq` = the head's version, in the engine's
   canonical form (the clone's `log[-1]`: what was built and how it was paid, never a client's
   spelling of it), and release the lock: the game's next action is checked and applied on this
   uncommitted step, so the picks of a turn that arrive together are committed together, in order.
   The unique `(game_id, seq)` lets one writer win if another app instance raced us: the loser
   reads the steps it missed from the database and checks the action again;
4. once it is committed, its frame becomes the current one, and everyone is told (`Broadcaster`).
   Nobody hears of a step before it is committed. A step that is not stored (a conflict, the
   database down) takes the uncommitted steps built on it with it: the log writer stores none of
   them, and their submitters check their actions again on the last committed frame.

A refusal is only final on committed state: an action refused against an uncommitted head waits
for the steps before it to be committed and is checked again.

Each version of a game is a `Frame`: the state (never mutated again), the public events of the
step that made it, every seat's legal actions, and per seat the "marker", the version since which
what that seat may do has not changed. An action made against version v is accepted when
marker <= v <= current version: other seats' steps that do not touch a seat (another seat's secret
pick) do not make its action stale, while a repeated submission always does. Frames are built
and, at load, rebuilt from the log in app/rooms/frames.py.

The server only uses the engine's public face (`Game`), so every game kind is served alike.
"""

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app import logs, metrics
from app.bots import DEFAULT_BOT, LEVELS, Bot, Level, make_bot
from app.db.storage import Entry, SeatRecord, StorageDown, Store, StoredGame, iso, now
from app.engine import Action, Event, Game, GameConfig, IllegalAction, new_game, replay_steps
from app.rooms.broadcast import RESYNC, Broadcaster
from app.rooms.clocks import OFF, Clock, unix
from app.rooms.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    RoomError,
    Unavailable,
    Unreadable,
    outage_of,
    unavailable,
)
from app.rooms.frames import Frame, make_frame, next_frame, rebuild

log = logging.getLogger("wonders.games")

GameFactory = Callable[[GameConfig], Game]
MAX_ATTEMPTS = 5


BOT_TAKEOVER_MARGIN = 5.0  # seconds beyond what the slowest bot takes, before another instance plays it


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


class GameService:
    def __init__(
        self,
        store: Store,
        broadcaster: Broadcaster,
        *,
        factory: GameFactory = new_game,
        bot_delay: float = 0.0,
        events_kept: int = 512,
        finished_cached: int = 64,
        bot_levels: Mapping[str, Level] = LEVELS,
        bot_takeover: float = 10.0,
    ) -> None:
        self.store = store
        self.broadcaster = broadcaster
        self.factory = factory
        self.bot_delay = bot_delay
        self.events_kept = events_kept
        self.finished_cached = finished_cached
        self.bot_levels = bot_levels  # easy, medium, hard: the kinds they play (the hard one's budget)
        # a bot that owes a move in a game whose last step another instance stored is that instance's
        # to play; after this many seconds without a new step, this instance plays it (that one died)
        self.bot_takeover = bot_takeover
        self.runtimes: dict[int, GameRuntime] = {}
        self.stopping = False  # long polls answer at once (see stop_waiting)
        self._loading: dict[int, asyncio.Future[GameRuntime]] = {}
        self._finished_order: deque[int] = deque()
        self.listeners: list[Listener] = []  # told of every new frame in this process
        self.load_listeners: list[Listener] = []  # told of every game loaded from its log
        self.bots_listeners: list[Listener] = []  # told when the seats played by bots change
        broadcaster.subscribe(self._on_notice)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.conflicts = 0  # steps another instance stored first (we caught up and checked again)
        self._unreadable: set[int] = set()  # games whose log does not replay (said once in the log)

    # ----- loading ---------------------------------------------------------------------------

    async def runtime(self, game_id: int, stored: StoredGame | None = None) -> GameRuntime:
        """The game's runtime, loaded from its log if it is not held here (`stored`: already read)."""
        rt = self.runtimes.get(game_id)
        if rt is not None:
            return rt
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[GameRuntime] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            rt = await self._load(game_id, stored)
            self.runtimes[game_id] = rt
            if rt.over or rt.abandoned:
                self._cache_finished(game_id)
            for listener in self.load_listeners:
                listener(rt)
            self._arm_takeover(rt)
            future.set_result(rt)
            return rt
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # retrieved: no "never retrieved" warning if nobody else waited
            raise
        finally:
            del self._loading[game_id]

    async def _load(self, game_id: int, stored: StoredGame | None = None) -> GameRuntime:
        if stored is None:
            stored = await self.store.game(game_id)
        if stored is None:
            raise NotFound(f"there is no game {game_id}", code="game_not_found")
        config = GameConfig.model_validate(stored.config)
        clock = Clock.of(stored.clock)
        try:
            frames = rebuild(self.factory(config), stored.steps, clock=clock, started_at=unix(stored.created_at))
        except Exception as exc:
            raise self._unreadable_game(game_id, exc) from None
        history: deque[Frame] = deque(maxlen=self.events_kept)
        rt = GameRuntime(game_id, stored.room_id, stored.room_code, config, frames[0], history)
        for frame in frames:
            rt.push(frame)
        rt.abandoned = stored.status == "abandoned"
        rt.clock = clock
        for step in stored.steps:
            rt.remember(
                step["seq"], step["seat"], step["action"], step["action_id"], by_timeout=bool(step.get("by_timeout"))
            )
        self.set_bots(rt, seat_bots(stored.room_seats), taken_back=seats_taken_back(stored.room_seats), schedule=False)
        return rt

    def _unreadable_game(self, game_id: int, exc: Exception) -> Unreadable:
        """The error for a game whose stored steps this engine refuses; logged the first time only."""
        if game_id not in self._unreadable:
            self._unreadable.add(game_id)
            log.error("game %s cannot be replayed from its log: %s", game_id, exc, exc_info=exc)
        # the engine's words stay in the server's log: they may name a seat's hidden hand
        return Unreadable(
            f"game {game_id} cannot be read: its stored steps do not replay on this version of the server "
            "(it was probably played on a much older version); the server's log says which step"
        )

    def _apply_stored(self, rt: GameRuntime, entry: dict[str, Any]) -> None:
        """Apply a step another instance stored (catching up with it)."""
        if entry["seq"] != rt.version:
            raise RuntimeError(f"game {rt.game_id}: log step {entry['seq']} does not follow version {rt.version}")
        rt.push(next_frame(rt.frame, entry, rt.clock))
        rt.remember(
            entry["seq"], entry["seat"], entry["action"], entry["action_id"], by_timeout=bool(entry.get("by_timeout"))
        )

    async def moved_past(self, rt: GameRuntime, version: int, seconds: float) -> None:
        """Return once the game's committed version is above `version` (a step stored here or by
        another instance), the game is over, `seconds` have passed (a long poll), or the server
        stops (see stop_waiting)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        metrics.long_poll_waiting(+1)
        try:
            while rt.version <= version and not rt.over and not rt.abandoned and not self.stopping:
                left = deadline - loop.time()
                if left <= 0:
                    return
                waiter: asyncio.Future[None] = loop.create_future()
                rt.waiters.append(waiter)
                try:
                    await asyncio.wait_for(waiter, left)
                except TimeoutError:
                    return
                finally:
                    with contextlib.suppress(ValueError):
                        rt.waiters.remove(waiter)
        finally:
            metrics.long_poll_waiting(-1)

    def stop_waiting(self) -> None:
        """The server is stopping: every long poll answers now (the server waits for requests in
        flight before it stops), and none waits from now on."""
        self.stopping = True
        for rt in self.runtimes.values():
            for waiter in rt.waiters:
                if not waiter.done():
                    waiter.set_result(None)

    async def catch_up(self, rt: GameRuntime) -> bool:
        """Apply the steps other instances stored since our version. True if any."""
        async with rt.lock:
            return await self._catch_up_locked(rt)

    async def _catch_up_locked(self, rt: GameRuntime) -> bool:
        await self._drain(rt)
        rt.behind = False
        entries = await self.store.steps_since(rt.game_id, rt.version)
        for entry in entries:
            self._apply_stored(rt, entry)
        if entries:
            if rt.over:
                self._cache_finished(rt.game_id)
            self._tell(rt)  # whoever caught up, this process's connections hear of the new steps
            self._arm_takeover(rt)
        return bool(entries)

    def _cache_finished(self, game_id: int) -> None:
        if game_id in self._finished_order:
            return
        self._finished_order.append(game_id)
        while len(self._finished_order) > self.finished_cached:
            old = self._finished_order.popleft()
            self.runtimes.pop(old, None)

    async def restore_running(self) -> list[int]:
        """Load every running game from its log and let bots that owe a move play it. Each game is
        loaded as one step of the event loop, so requests are answered meanwhile (a game asked for
        before its turn here is loaded at once, by `runtime`)."""
        ids = []
        async for games in self.store.running_games():
            for stored in games:
                ids.append(stored.id)
                try:
                    rt = await self.runtime(stored.id, stored)
                except Unreadable:
                    continue  # said in the log once
                except Exception:
                    log.exception("could not restore game %s", stored.id, extra={"game_id": stored.id})
                    continue
                self.schedule_bots(rt)
                await asyncio.sleep(0)
        return ids

    # ----- acting ----------------------------------------------------------------------------

    async def submit(
        self, game_id: int, seat: int, action: Any, version: int, action_id: str | None = None
    ) -> Submitted:
        """Apply and store one action, or raise a RoomError saying why not (nothing changes then)."""
        done = await self._counted(game_id, seat, action, version, action_id, by_timeout=False, still_due=None)
        assert done is not None
        return done

    async def submit_on_timeout(
        self, game_id: int, seat: int, action: Any, version: int, still_due: Callable[[Frame], bool]
    ) -> Submitted | None:
        """The server's decision for a seat whose clock ran out. `still_due` is checked under the
        game's lock before each attempt: when another instance stored a step first, or the seat
        acted meanwhile, and it is no longer overdue, nothing is done (None)."""
        return await self._counted(game_id, seat, action, version, None, by_timeout=True, still_due=still_due)

    async def _counted(
        self,
        game_id: int,
        seat: int,
        action: Any,
        version: int,
        action_id: str | None,
        *,
        by_timeout: bool,
        still_due: Callable[[Frame], bool] | None,
    ) -> Submitted | None:
        received = time.perf_counter()
        rt = await self.runtime(game_id)
        try:
            done = await self._submit(rt, seat, action, version, action_id, by_timeout=by_timeout, still_due=still_due)
        except RoomError as exc:  # REST and websocket alike
            metrics.submission_refused(exc.code)
            raise
        if done is not None:
            metrics.submission_accepted(received)
        return done

    async def _submit(
        self,
        rt: GameRuntime,
        seat: int,
        action: Any,
        version: int,
        action_id: str | None,
        *,
        by_timeout: bool = False,
        still_due: Callable[[Frame], bool] | None = None,
    ) -> Submitted | None:
        logs.bind(room=rt.room_code, game_id=rt.game_id)  # this task's log lines name the game
        for _ in range(MAX_ATTEMPTS):
            async with rt.lock:
                pending = await self._stage(
                    rt,
                    seat=seat,
                    action=action,
                    version=version,
                    action_id=action_id,
                    by_timeout=by_timeout,
                    still_due=still_due,
                )
            if pending is None:
                return None
            try:
                stored = await self.store.committed(pending.commit)
            except asyncio.CancelledError:
                # the caller went away (its connection closed): the commit goes on regardless, and
                # everyone else must still hear of it
                self._spawn(self._finish_detached(rt, pending))
                raise
            except StorageDown as exc:
                log.error("could not store an action of game %s: %s", rt.game_id, exc)
                raise unavailable(exc) from None
            finally:
                self._settle(rt)
            if stored:
                break
            if not pending.entry.dropped:
                # Another instance stored this step first: read what we missed and check again.
                self.conflicts += 1
                rt.behind = True
        else:
            raise Unavailable("the game is too busy right now; try again", code="busy")
        try:
            await self.announce(rt)
        except asyncio.CancelledError:
            self._spawn(self._finish_detached(rt, pending))
            raise
        self.schedule_bots(rt)
        return Submitted(pending.entry.seq, pending.frame.version, pending.frame.events)

    async def _finish_detached(self, rt: GameRuntime, pending: Pending) -> None:
        """What a submission whose caller went away still owes once its step is committed."""
        await asyncio.wait([pending.commit])
        self._settle(rt)
        if pending.entry.outcome:
            await self.announce(rt)
            self.schedule_bots(rt)

    async def _stage(
        self,
        rt: GameRuntime,
        *,
        seat: int,
        action: Any,
        version: int,
        action_id: str | None,
        by_timeout: bool,
        still_due: Callable[[Frame], bool] | None,
    ) -> Pending | None:
        """Under the game's lock: check the action on the head, apply it and queue its commit.
        None: a timeout's action is no longer due."""
        if still_due is not None:
            await self._drain(rt)  # a timeout is decided on what is committed
        while True:
            if not rt.chain and (rt.behind or version > rt.version):  # the client saw steps stored elsewhere
                await self._catch_up_locked(rt)
            head = rt.head
            if still_due is not None and not still_due(head):
                return None
            try:
                self._check(rt, head, seat, action, version, action_id=action_id)
                game = head.game.clone()
                try:
                    events = game.apply(seat, action)
                except IllegalAction as exc:
                    raise Invalid(str(exc), code="illegal_action") from None
            except RoomError:
                if not rt.chain:
                    raise
                # refused on an uncommitted step: decide on what is committed (we hold the lock, so
                # once drained the chain stays empty and the next check is final)
                await self._drain(rt)
                continue
            break
        at = now()
        canonical = game.log[-1]["action"]  # what the engine made of it: the form that is stored
        entry = Entry(rt.game_id, head.version, seat, canonical, action_id, at, by_timeout=by_timeout)
        entry.after = rt.chain[-1].entry if rt.chain else None
        if game.is_over:
            entry.result, entry.room_id = game.result(), rt.room_id
        frame = make_frame(head, game, events, seat, clock=rt.clock, at=at.timestamp(), by_timeout=by_timeout)
        pending = Pending(entry, frame, action, self.store.submit(entry))
        rt.chain.append(pending)
        pending.commit.add_done_callback(lambda _: self._settle(rt))
        return pending

    def _settle(self, rt: GameRuntime) -> None:
        """Make the committed steps at the front of the chain current, in order; a step that was
        not stored takes the steps built on it with it (the writer does not store them)."""
        while rt.chain and rt.chain[0].entry.outcome is not None:
            pending = rt.chain.popleft()
            entry = pending.entry
            if not entry.outcome:
                rt.chain.clear()
                return
            rt.push(pending.frame)
            rt.remember(
                entry.seq, entry.seat, entry.action, entry.action_id, sent=pending.sent, by_timeout=entry.by_timeout
            )
            if rt.over:
                self._cache_finished(rt.game_id)
                log.info("game %s finished", rt.game_id)

    async def _drain(self, rt: GameRuntime) -> None:
        """Wait until every uncommitted step of the game is committed or dropped (under its lock,
        so no new one is added meanwhile)."""
        while rt.chain:
            await asyncio.wait([rt.chain[0].commit])  # the oldest step not yet decided
            self._settle(rt)

    def _check(
        self, rt: GameRuntime, frame: Frame, seat: int, action: Any, version: int, *, action_id: str | None
    ) -> None:
        if frame.over:
            raise Conflict("the game is over: no more actions", code="game_over")
        if rt.abandoned:
            raise Conflict("the game was abandoned (its room was closed unused)", code="game_abandoned")
        if not 0 <= seat < rt.config.seats:
            raise Forbidden(f"there is no seat {seat} in this game")
        if action_id is not None and (seat, action_id) in rt.action_ids:
            seq = rt.action_ids[(seat, action_id)]
            raise Conflict(
                f"action_id {action_id!r} was already applied as step {seq}; it is not applied again",
                code="duplicate",
                details={"seq": seq, "version": frame.version},
            )
        if version > frame.version:
            raise Invalid(
                f"version {version} is ahead of the game, which is at version {frame.version}",
                code="bad_version",
                details={"version": frame.version},
            )
        if version < frame.markers[seat]:
            last = rt.last_action.get(seat)
            if last is not None and last[0] >= version and (action == last[2] or spells(action, last[1])):
                raise Conflict(
                    f"this action was already applied as step {last[0]}; it is not applied again",
                    code="duplicate",
                    details={"seq": last[0], "version": frame.version},
                )
            raise Conflict(
                f"stale action: it was made against version {version}, but your situation changed at "
                f"version {frame.markers[seat]} (the game is now at version {frame.version}); "
                "look at the new state and choose again",
                code="stale",
                details={"version": frame.version},
            )
        if not frame.can_act(seat):
            raise Conflict(
                f"not your turn: seat {seat} has nothing to decide now; waiting for seats {list(frame.to_act)}",
                code="not_your_turn",
                details={"to_act": list(frame.to_act)},
            )

    async def announce(self, rt: GameRuntime) -> None:
        """Tell this process's listeners and every other instance that the game moved on (and, at
        its end, that its room changed: the last action also finished the room)."""
        await self.broadcaster.publish(rt.room_code, {"kind": "game", "game_id": rt.game_id, "version": rt.version})
        if rt.over:
            await self.broadcaster.publish(rt.room_code, {"kind": "room"})

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        if notice.get("kind") == RESYNC["kind"]:
            for rt in list(self.runtimes.values()):
                if not rt.over and not rt.abandoned:
                    self._spawn(self._follow(rt))
            return
        if notice.get("kind") != "game":
            return
        game_id = notice.get("game_id")
        if not isinstance(game_id, int):
            return
        rt = self.runtimes.get(game_id)
        if rt is None:
            return  # nobody here follows this game; it is loaded from the log when needed
        version = notice.get("version")
        if isinstance(version, int) and version <= rt.version:
            self._tell(rt)
            return
        self._spawn(self._follow(rt))

    async def _follow(self, rt: GameRuntime) -> bool:
        """Catch up with the steps another instance stored; while the database is down, again later
        (else this instance's connections would wait for the game's next notice). False: it could
        not (unloaded meanwhile, or a failure that is no outage, logged)."""
        delay = 0.5
        while self.runtimes.get(rt.game_id) is rt:
            try:
                await self.catch_up(rt)
                return True
            except Exception as exc:
                if outage_of(exc) is None:
                    log.exception("could not catch up with game %s", rt.game_id)
                    return False
                log.warning("game %s catches up again in %.1f s: %r", rt.game_id, delay, exc)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
        return False

    def _tell(self, rt: GameRuntime) -> None:
        for listener in self.listeners:
            listener(rt)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- bots ------------------------------------------------------------------------------

    def set_bots(
        self, rt: GameRuntime, bots: dict[int, str], *, taken_back: dict[int, int] | None = None, schedule: bool = True
    ) -> None:
        """The seats played by server-side bots ({seat: bot kind}), and when people took theirs back
        (seats_taken_back)."""
        before = set(rt.bots)
        if taken_back is not None:
            rt.taken_back = taken_back
        for seat in list(rt.bots):
            if seat not in bots:
                del rt.bots[seat]
        for seat, kind in bots.items():
            if seat not in rt.bots or rt.bots[seat].name != kind:
                seed = (rt.config.seed * 100 + seat) % 2**32
                rt.bots[seat] = make_bot(kind, seed=seed, level_table=self.bot_levels)
        if schedule:
            self.schedule_bots(rt)
        if set(rt.bots) != before:
            for listener in self.bots_listeners:
                listener(rt)

    def _arm_takeover(self, rt: GameRuntime) -> None:
        """A step stored elsewhere (or read from the log) leaves a bot owing a move that no task here
        plays: wait for the instance that stored it to play it, and play it if none does."""
        old = rt.takeover
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        rt.takeover = None
        if rt.over or rt.abandoned or not self._bots_owing(rt):
            return
        rt.takeover = asyncio.get_running_loop().create_task(self._take_over(rt, rt.version))
        self._tasks.add(rt.takeover)
        rt.takeover.add_done_callback(self._tasks.discard)

    @staticmethod
    def _bots_owing(rt: GameRuntime) -> list[int]:
        return [s for s in rt.frame.to_act if s in rt.bots and s not in rt.bot_tasks]

    def _stalled(self, rt: GameRuntime, version: int) -> bool:
        """Still at `version`, loaded, running, and a bot owing a move that no task here plays."""
        loaded = self.runtimes.get(rt.game_id) is rt and not rt.over and not rt.abandoned
        return loaded and rt.version == version and bool(self._bots_owing(rt))

    async def _take_over(self, rt: GameRuntime, version: int) -> None:
        await asyncio.sleep(self.bot_takeover)
        # the usual case asks nothing of the database: the game moved on, or bots here play it (a
        # game restored at start has its bots scheduled right after it was loaded)
        if not self._stalled(rt, version):
            return
        # the step may be stored and its notice lost (catching up arms this again)
        if await self._follow(rt) and self._stalled(rt, version):
            log.warning(
                "game %s: no step stored for %.0f s while the bots of seats %s owe a move; they play here",
                rt.game_id,
                self.bot_takeover,
                self._bots_owing(rt),
            )
            self.schedule_bots(rt)

    def schedule_bots(self, rt: GameRuntime) -> None:
        frame = rt.frame
        if frame.over or rt.abandoned:
            return
        for seat in frame.to_act:
            if seat in rt.bots and seat not in rt.bot_tasks:
                task = asyncio.create_task(self._bot_turns(rt, seat), name=f"bot-{rt.game_id}-{seat}")
                rt.bot_tasks[seat] = task

    async def _bot_turns(self, rt: GameRuntime, seat: int) -> None:
        logs.bind(room=rt.room_code, game_id=rt.game_id)
        try:
            await asyncio.sleep(self.bot_delay)
            for _ in range(1000):
                frame = rt.frame
                bot = rt.bots.get(seat)
                if frame.over or bot is None or seat not in frame.to_act:
                    return
                legal = frame.legal(seat)
                try:
                    # in a thread: a search bot thinks for its whole budget, and the server goes on
                    action = await asyncio.to_thread(bot.choose, frame.view(seat), legal)
                except Exception:
                    log.exception("bot %s of game %s failed; it plays its first legal action", seat, rt.game_id)
                    action = legal[0]
                try:
                    await self._bot_submit(rt, seat, action, frame.version)
                except (Conflict, Invalid) as exc:
                    if exc.code == "illegal_action":
                        log.error("bot %s of game %s chose an illegal action: %s", seat, rt.game_id, exc)
                        await self._bot_submit(rt, seat, legal[0], frame.version)
                    # otherwise the game moved on meanwhile: look again
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s of game %s stopped", seat, rt.game_id)
        finally:
            if rt.bot_tasks.get(seat) is asyncio.current_task():
                del rt.bot_tasks[seat]

    async def _bot_submit(self, rt: GameRuntime, seat: int, action: Any, version: int) -> None:
        """Submit a bot's action; while the database is down (or the game too busy), try again later
        rather than leave the game waiting for this seat for good."""
        delay = 0.5
        while True:
            try:
                await self.submit(rt.game_id, seat, action, version)
                return
            except Unavailable as exc:
                log.warning("bot %s of game %s tries again in %.1f s: %s", seat, rt.game_id, delay, exc.message)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                if rt.over or rt.abandoned or seat not in rt.bots:
                    return

    def unload(self, game_id: int, *, abandoned: bool = False) -> GameRuntime | None:
        """Forget a loaded game (it is read again from the log when needed) and stop its bots;
        `abandoned`: its room was closed, so whoever still holds the runtime can act no more."""
        rt = self.runtimes.pop(game_id, None)
        if rt is None:
            return None
        with contextlib.suppress(ValueError):
            self._finished_order.remove(game_id)
        rt.abandoned = rt.abandoned or abandoned
        for task in rt.bot_tasks.values():
            task.cancel()
        if rt.takeover is not None:
            rt.takeover.cancel()
        return rt

    # ----- reading ---------------------------------------------------------------------------

    async def history(self, game_id: int, *, at: int | None, seat: int | None, full: bool) -> dict[str, Any]:
        """The log and, with `at`, the view after `at` steps. `full` (finished games): the actions
        themselves and any seat's view; otherwise only public information (who acted, public events,
        the spectator view)."""
        stored = await self.store.game(game_id)
        if stored is None:
            raise NotFound(f"there is no game {game_id}", code="game_not_found")
        entries = stored.steps
        config = GameConfig.model_validate(stored.config)
        if at is not None and not 0 <= at <= len(entries):
            raise Invalid(f"at must be between 0 and {len(entries)} (the number of steps)", code="bad_step")
        if seat is not None and not full:
            raise Forbidden("a seat's own view of past steps is shown once the game is over", code="game_running")
        if seat is not None and seat >= config.seats:
            raise Invalid(f"game {game_id} has seats 0 to {config.seats - 1}, not {seat}", code="bad_seat")
        game = self.factory(config)
        view = game.view(seat) if at == 0 else None
        steps = []
        try:
            for i, (entry, events) in enumerate(zip(entries, replay_steps(game, entries), strict=True)):
                steps.append(_history_step(entry, events, full))
                if at == i + 1:
                    view = game.view(seat)
        except Exception as exc:
            raise self._unreadable_game(game_id, exc) from None
        out: dict[str, Any] = {
            "game_id": game_id,
            "status": stored.status,
            "version": len(entries),
            "config": config.model_dump(mode="json") if full else _public_config(config),
            "seats": stored.seats,
            "steps": steps,
            "result": stored.result,
        }
        if at is not None:
            out["at"] = at
            out["view"] = view
        return out

    def start(self) -> None:
        self.store.start()

    async def close(self) -> None:
        for rt in self.runtimes.values():
            for task in rt.bot_tasks.values():
                task.cancel()
        for task in list(self._tasks):
            task.cancel()
        tasks = [t for rt in self.runtimes.values() for t in rt.bot_tasks.values()] + list(self._tasks)
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.store.stop_writing()


def spells(sent: Any, canonical: Action) -> bool:
    """Whether a submitted action says at least everything its stored canonical form says (a legal
    action as listed also carries what the engine leaves out of the log, such as its cost): how a
    resubmission of a step that was stored elsewhere, or before a restart, is recognised."""
    return isinstance(sent, dict) and all(k in sent and sent[k] == v for k, v in canonical.items())


def _history_step(entry: dict[str, Any], events: list[Event], full: bool) -> dict[str, Any]:
    step: dict[str, Any] = {
        "seq": entry["seq"],
        "seat": entry["seat"],
        "at": iso(entry["created_at"]),
        "events": events,
        "by_timeout": entry["by_timeout"],
    }
    if full:
        step["action"] = entry["action"]
    return step


def _public_config(config: GameConfig) -> dict[str, Any]:
    """The rules options without the seed, which would give away every hidden card."""
    return config.model_dump(mode="json", exclude={"seed"})


def new_seed() -> int:
    return secrets.randbits(62)
