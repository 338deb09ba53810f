"""The commit pipeline: how an action becomes a committed step that everyone hears of.

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
and, at load, rebuilt from the log in app/rooms/frames.py."""

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from app import logs, metrics
from app.db.storage import KEEP, Entry, StorageDown, now
from app.engine import Action, IllegalAction
from app.rooms.errors import (
    Conflict,
    Forbidden,
    Invalid,
    RoomError,
    Unavailable,
    unavailable,
)
from app.rooms.frames import Frame, make_frame
from app.rooms.game_base import GameServiceBase
from app.rooms.runtime import GameRuntime, Pending, Submitted
from app.rooms.wakes import wake_of

log = logging.getLogger("wonders.games")

MAX_ATTEMPTS = 5


class CommitPipeline(GameServiceBase):
    """Checking, applying and committing actions (see the module's docstring)."""

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
                try:
                    game, events = head.game.successor(seat, action)
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
        if rt.notify and rt.notices is not None:  # written with the step, or not at all
            entry.notices = rt.notices.after_step(head, frame, seat, rt.notify, at.timestamp())
        wake = wake_of(rt, frame, self.bot_takeover, at.timestamp())
        last = next((p.entry.wake for p in reversed(rt.chain) if p.entry.wake is not KEEP), rt.wake)
        entry.wake = KEEP if last is not KEEP and last == wake else wake
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
            if entry.wake is not KEEP:
                rt.wake = entry.wake
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
        self.keep_state_if_due(rt)


def spells(sent: Any, canonical: Action) -> bool:
    """Whether a submitted action says at least everything its stored canonical form says (a legal
    action as listed also carries what the engine leaves out of the log, such as its cost): how a
    resubmission of a step that was stored elsewhere, or before a restart, is recognised."""
    return isinstance(sent, dict) and all(k in sent and sent[k] == v for k, v in canonical.items())
