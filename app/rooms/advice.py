"""Hints and game reviews from the search bot (app/bots/advice.py), off the event loop.

Hints: a seat of a room with `hints` on asks for one; the seat's views (replayed from the stored
log: what it was shown, never the real game's hidden parts) go to a thread, HINTS_AT_ONCE at a
time, the search thinks HINT_BUDGET_MS, and the answer is kept for that seat and version (asking
again gives it again). The first hint at a version is told to everyone in the room: a chat message of
kind `hint` in the seat's name, stored (so the replay shows it) and heard by every instance.

Reviews: a finished game's review is claimed in the database with a lease, queued here (at most
REVIEW_QUEUE; more are refused) and computed in one of REVIEW_WORKERS worker processes, then kept:
it is computed once. The leases of queued and running reviews are renewed; on stopping they are
released, so a restarted instance (or another one) takes them over at once; an instance that died
leaves them to whoever finds them expired (every instance looks now and then).
"""

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

from app import metrics
from app.bots.advice import hint_from_log, review_from_log
from app.db.storage import Store
from app.rooms.broadcast import Broadcaster
from app.rooms.errors import Conflict, Forbidden, NotFound, Unavailable, outage_of
from app.rooms.games import GameService
from app.rooms.room_base import SeatAuth
from app.settings import Settings

log = logging.getLogger("wonders.advice")

HINTS_KEPT = 256  # answers kept per instance (seat and version each)
HINT_WORDS = "asked the search bot for a hint"


def hints_on(settings: dict[str, Any]) -> bool:
    return bool(settings.get("hints"))


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Advice:
    """Hints for seats, reviews of finished games."""

    def __init__(self, settings: Settings, store: Store, games: GameService, rooms: Any, broadcaster: Broadcaster):
        self.settings = settings
        self.store = store
        self.games = games
        self.rooms = rooms
        self.broadcaster = broadcaster
        self.hint_slots = asyncio.Semaphore(settings.hints_at_once)
        self.hints: OrderedDict[tuple[int, int, int], asyncio.Future[dict[str, Any]]] = OrderedDict()
        self.queue: asyncio.Queue[int] = asyncio.Queue(settings.review_queue)
        self.held: set[int] = set()  # reviews this instance holds the lease of (queued or running)
        self.pool: ProcessPoolExecutor | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.computed = 0  # reviews computed here

    # ----- hints -----------------------------------------------------------------------------------

    async def hint(self, auth: SeatAuth) -> dict[str, Any]:
        """Up to three of the seat's legal actions with their points and why (see app/bots/advice.py)."""
        room = await self.rooms.get(auth.code)
        if not hints_on(room["settings"]):
            raise Forbidden(f"room {room['code']} gives no hints (its host may turn them on)", code="hints_off")
        if room["game"] is None or room["game"]["status"] != "running":
            raise Conflict("hints are for a game being played", code="no_game")
        game_id = room["game"]["id"]
        rt = await self.games.runtime(game_id)
        await self.games.catch_up(rt)
        frame = rt.frame
        player = rt.player(auth.seat)
        if frame.over or player is None or not frame.can_act(player):
            raise Conflict("you have nothing to decide now: a hint comes with your decision", code="not_your_turn")
        key = (game_id, player, frame.version)
        future = self.hints.get(key)
        first = future is None
        if future is None:
            future = self.hints[key] = asyncio.get_running_loop().create_future()
            while len(self.hints) > HINTS_KEPT:
                self.hints.popitem(last=False)
            try:
                actions = await self._compute_hint(game_id, player, frame.version)
            except BaseException as exc:
                self.hints.pop(key, None)
                future.set_exception(exc)
                future.exception()  # (retrieved: nobody else may wait for it)
                raise
            future.set_result({"game_id": game_id, "version": frame.version, "seat": player, "actions": actions})
        out = await asyncio.shield(future)
        if first:
            metrics.hint_given()
            name = next((s["name"] for s in room["seats"] if s["seat"] == player), None) or f"seat {player}"
            message = await self.store.add_chat(rt.room_id, player, name, HINT_WORDS, kind="hint")
            await self.broadcaster.publish(rt.room_code, {"kind": "chat", "id": message.id})
        return out

    async def _compute_hint(self, game_id: int, seat: int, version: int) -> list[dict[str, Any]]:
        stored = await self.store.game(game_id)
        if stored is None:
            raise NotFound(f"there is no game {game_id}", code="game_not_found")
        if len(stored.steps) < version:
            raise Conflict("the game moved on while the hint was asked: ask again", code="stale")
        steps = [{"seat": e["seat"], "action": e["action"]} for e in stored.steps[:version]]
        seed = (game_id * 7919 + seat * 104729 + version) % 2**32  # public numbers: never the game's seed
        async with self.hint_slots:
            return await asyncio.to_thread(
                hint_from_log, stored.config, steps, seat, seed=seed, budget_ms=self.settings.hint_budget_ms
            )

    # ----- reviews ---------------------------------------------------------------------------------

    async def review(self, game_id: int) -> dict[str, Any]:
        """The game's review: done (stored), or pending (queued or computing; started now if it was
        never asked for or its instance stopped)."""
        record = await self.store.review(game_id)
        if record is not None and record.status == "done":
            return {"game_id": game_id, "status": "done", "budget_ms": record.budget_ms, **(record.body or {})}
        if record is not None and record.status == "failed":
            return {"game_id": game_id, "status": "failed", "budget_ms": record.budget_ms, "error": record.error}
        if game_id not in self.held:
            if self.settings.review_workers == 0:
                if record is None or not self._leased(record.lease_until):
                    raise Unavailable("this server computes no reviews (REVIEW_WORKERS=0)", code="reviews_off")
            elif self.queue.full():
                raise Unavailable(
                    f"{self.queue.qsize()} reviews wait already: ask again in a minute",
                    code="review_queue_full",
                    details={"retry_after_seconds": 60},
                )
            else:
                now = _utcnow()
                if await self.store.claim_review(game_id, self.settings.review_budget_ms, now, self._lease(now)):
                    self._enqueue(game_id)
        return {"game_id": game_id, "status": "pending", "budget_ms": self.settings.review_budget_ms}

    @staticmethod
    def _leased(until: datetime | None) -> bool:
        if until is None:
            return False
        until = until if until.tzinfo is not None else until.replace(tzinfo=UTC)
        return until > _utcnow()

    def _lease(self, now: datetime) -> datetime:
        return now + timedelta(seconds=self.settings.review_lease_seconds)

    def _enqueue(self, game_id: int) -> None:
        self.held.add(game_id)
        self.queue.put_nowait(game_id)
        metrics.review_queue(self.queue.qsize())

    def start(self) -> None:
        if self.settings.review_workers <= 0:
            return
        for n in range(self.settings.review_workers):
            self.tasks.append(asyncio.create_task(self._work(), name=f"review-worker-{n}"))
        self.tasks.append(asyncio.create_task(self._leases(), name="review-leases"))

    async def _leases(self) -> None:
        """Renew the leases held here; take over expired ones (at the start: those given back)."""
        period = self.settings.review_lease_seconds / 3
        while True:
            try:
                now = _utcnow()
                await self.store.renew_reviews(sorted(self.held), self._lease(now))
                room = self.queue.maxsize - self.queue.qsize()
                if room > 0:
                    for game_id in await self.store.claim_stale_reviews(now, self._lease(now), room):
                        if game_id not in self.held:
                            self._enqueue(game_id)
            except Exception as exc:
                if outage_of(exc) is None:
                    log.exception("review leases")
                else:
                    log.warning("review leases wait for the database: %s", exc)
            await asyncio.sleep(period)

    def _executor(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawn: a fresh interpreter (forking a process with threads and an event loop is unsafe)
            self.pool = ProcessPoolExecutor(
                self.settings.review_workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self.pool

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            game_id = await self.queue.get()
            metrics.review_queue(self.queue.qsize())
            try:
                stored = await self.store.game(game_id)
                if stored is None or stored.status != "finished":
                    await self.store.finish_review(game_id, None, "the game is not finished")
                    continue
                steps = [{"seat": e["seat"], "action": e["action"]} for e in stored.steps]
                started = time.monotonic()
                try:
                    body = await loop.run_in_executor(
                        self._executor(),
                        _review_job,
                        stored.config,
                        steps,
                        game_id % 2**32,
                        self.settings.review_budget_ms,
                    )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.exception("the review of game %s failed", game_id)
                    await self.store.finish_review(game_id, None, f"{type(exc).__name__}: {exc}")
                    if self.pool is not None and getattr(self.pool, "_broken", False):
                        self.pool = None  # a worker died: a new pool for the next one
                    continue
                metrics.review_done(time.monotonic() - started, body.get("cpu_seconds", 0.0))
                await self.store.finish_review(game_id, body)
                self.computed += 1
                log.info("game %s reviewed in %.1f CPU s", game_id, body.get("cpu_seconds", 0.0))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if outage_of(exc) is None:
                    log.exception("review of game %s", game_id)
                else:  # the database is away: the lease runs out and it is done again
                    log.warning("review of game %s waits for the database: %s", game_id, exc)
            finally:
                self.held.discard(game_id)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                await task
        self.tasks.clear()
        if self.held:
            with contextlib.suppress(Exception):
                await self.store.release_reviews(sorted(self.held))  # another start takes them at once
            self.held.clear()
        pool, self.pool = self.pool, None
        if pool is not None:
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a review half done is done again by whoever takes it over
                with contextlib.suppress(Exception):
                    process.terminate()


def _review_job(config: dict[str, Any], steps: list[dict[str, Any]], seed: int, budget_ms: int) -> dict[str, Any]:
    """In a worker process: the review (a module-level function, so that the worker can import it)."""
    return review_from_log(config, steps, seed=seed, budget_ms=budget_ms)
