"""Bots playing people's seats: handing a seat to a bot (the host, a person leaving, repeated
timeouts) and back (the host, the person saying they are back, or acting), and every instance
that runs the game following the change."""

import asyncio
import logging
from typing import Any

from app.db.storage import now
from app.rooms.errors import Conflict, Forbidden, Invalid
from app.rooms.games import Submitted, seat_bots, seats_taken_back
from app.rooms.room_base import RoomServiceBase, SeatAuth
from app.rooms.room_rules import (
    BOT_REASONS,
)
from app.tokens import normalize_code

log = logging.getLogger("wonders.rooms")


class BotHandover(RoomServiceBase):
    """A person's seat played by a bot for them, and given back."""

    async def person_acts(
        self,
        code: str,
        seat: int,
        action: Any,
        *,
        game_id: int,
        version: int,
        action_id: str | None,
        bot_played: bool,
    ) -> Submitted:
        """A person's action, over REST or a websocket: if a bot was playing their seat for them
        (`bot_played`), it stops and the seat is theirs again (even if the action comes too late);
        then the action is submitted."""
        if bot_played:
            await self.hand_seat_back(code, seat)
        return await self.games.submit(game_id, seat, action, version, action_id)

    async def hand_seat_to_bot(
        self, code: str, seat: int, kind: str, reason: str, *, unless_back_after: int | None = None
    ) -> None:
        """A bot of `kind` plays this person's seat for them from now on (`reason`: "host", "left" or
        "timeout"); the seat keeps its name and token. Only while a game runs. Idempotent.
        `unless_back_after`: the step that made the hand-over due (a timeout); nothing happens if the
        person took the seat back after it."""
        await self._hand(code, seat, kind, reason, by=None, unless_back_after=unless_back_after)

    async def hand_seat_back(self, code: str, seat: int) -> None:
        """The person plays their seat again (the bot stops before its next decision). Idempotent."""
        await self._back(code, seat, by=None)

    async def host_hands_seat(self, auth: SeatAuth, seat: int, kind: str) -> dict[str, Any]:
        await self._hand(auth.code, seat, kind, "host", by=auth)
        return await self.get(auth.code)

    async def host_hands_back(self, auth: SeatAuth, seat: int) -> dict[str, Any]:
        await self._back(auth.code, seat, by=auth, host=True)
        return await self.get(auth.code)

    async def back(self, auth: SeatAuth, seat: int) -> dict[str, Any]:
        """The seat's own person says they are back."""
        await self._back(auth.code, seat, by=auth, host=False)
        return await self.get(auth.code)

    async def _hand(
        self,
        code: str,
        seat_no: int,
        kind: str,
        reason: str,
        *,
        by: SeatAuth | None,
        unless_back_after: int | None = None,
    ) -> None:
        self.check_bot(kind)
        if reason not in BOT_REASONS:
            raise Invalid(f"unknown reason {reason!r}; reasons: {list(BOT_REASONS)}", code="bad_reason")
        async with self.store.transaction() as tx:
            room = await self._room(tx, code, lock=True)
            if by is not None:
                self._require_host(room, by)
            if room.status != "playing":
                raise Conflict(
                    f"no game is running in room {room.code}: a bot plays a person's seat only during a game",
                    code="no_game",
                )
            self.check_bot(kind, room.settings["game"])
            seat = await self._person_seat(tx, room, seat_no)
            if unless_back_after is not None and (seat.taken_back_at or 0) > unless_back_after:
                return  # its person came back after the step that made this due
            changed = (seat.bot_plays, seat.bot_reason) != (kind, reason)
            if changed:
                await tx.update_seat(seat, bot_plays=kind, bot_reason=reason)
                await tx.update_room(room, updated_at=now())
            code = room.code
        if changed:
            await self._bots_changed(code)

    async def _back(self, code: str, seat_no: int, *, by: SeatAuth | None, host: bool = False) -> None:
        async with self.store.transaction() as tx:
            room = await self._room(tx, code, lock=True)
            if by is not None and host:
                self._require_host(room, by)
            elif by is not None and by.seat != seat_no:
                raise Forbidden(
                    f"you hold seat {by.seat}, not seat {seat_no}: only its person comes back to it "
                    "(the host may give it back)",
                    code="not_your_seat",
                )
            seat = await self._person_seat(tx, room, seat_no)
            changed = seat.bot_plays is not None
            if changed:
                back: dict[str, Any] = {"bot_plays": None, "bot_reason": None}
                game = await tx.latest_game(room.id) if room.status == "playing" else None
                if game is not None and game.status == "running":  # its timeouts so far stop counting
                    back["taken_back_at"] = await tx.step_count(game.id)
                await tx.update_seat(seat, **back)
                await tx.update_room(room, updated_at=now())
            code = room.code
        if changed:
            await self._bots_changed(code)

    async def _sync_bots(self, code: str) -> None:
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            game = await tx.latest_game(room.id)
            seats = await tx.seats(room.id)
        if game is not None and game.status == "running":
            rt = await self.games.runtime(game.id)
            self.games.set_bots(rt, seat_bots(seats), taken_back=seats_taken_back(seats))

    async def _bots_changed(self, code: str) -> None:
        """A person's seat was handed to a bot or back: the bots play (or stop) here at once, other
        instances that run the game follow (a `bots` notice), and everyone sees the room again."""
        code = normalize_code(code)
        await self._sync_bots(code)
        await self.broadcaster.publish(code, {"kind": "bots", "from": self.settings.instance_id})
        await self._changed(code)

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        if notice.get("kind") != "bots" or notice.get("from") == self.settings.instance_id:
            return
        if any(rt.room_code == code and not rt.over for rt in self.games.runtimes.values()):
            task = asyncio.create_task(self._sync_bots_quietly(code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _sync_bots_quietly(self, code: str) -> None:
        try:
            await self._sync_bots(code)
        except Exception:
            log.exception("could not update the bots of room %s", code)
