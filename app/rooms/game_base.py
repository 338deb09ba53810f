"""The state and tasks every part of the game service shares (app/rooms/games.py puts the parts
together)."""

import asyncio
import contextlib
from collections import deque
from collections.abc import Mapping
from typing import Any

from app.bots import LEVELS, Level
from app.db.storage import Store
from app.engine import new_game
from app.rooms.broadcast import Broadcaster
from app.rooms.runtime import GameFactory, GameRuntime, Listener


class GameServiceBase:
    """What every part of the GameService shares: the store, the broadcaster, the runtimes held here,
    the listeners, and the service's background tasks."""

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
        snapshot_every: int = 100,
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
        # a running game's state is kept in the database every this many steps (and when it is
        # unloaded), so that loading it replays only the steps after (0: only when unloaded)
        self.snapshot_every = snapshot_every
        self.runtimes: dict[int, GameRuntime] = {}
        self.stopping = False  # long polls answer at once (see stop_waiting)
        self._loading: dict[int, asyncio.Future[GameRuntime]] = {}
        self._finished_order: deque[int] = deque()
        self.listeners: list[Listener] = []  # told of every new frame in this process
        self.load_listeners: list[Listener] = []  # told of every game loaded from its log
        self.bots_listeners: list[Listener] = []  # told when the seats played by bots change
        self.unload_listeners: list[Listener] = []  # told when a game is no longer held here
        broadcaster.subscribe(self._on_notice)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.conflicts = 0  # steps another instance stored first (we caught up and checked again)
        self._unreadable: set[int] = set()  # games whose log does not replay (said once in the log)

    def _tell(self, rt: GameRuntime) -> None:
        for listener in self.listeners:
            listener(rt)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
