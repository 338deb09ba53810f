"""The host's powers between games: the settings, bots in free seats, and starting a game."""

import logging
import time
from typing import Any

from app.db.storage import Taken, now
from app.engine import GameConfig
from app.rooms.clocks import CLOCK_KEYS, Clock, ClockSettings
from app.rooms.errors import Conflict, Invalid
from app.rooms.games import new_seed
from app.rooms.notices import Notices
from app.rooms.room_base import RoomServiceBase, SeatAuth
from app.rooms.room_rules import CONFIG_KEYS, LOBBY, room_full, seat_for, seat_held

log = logging.getLogger("wonders.rooms")


class HostPowers(RoomServiceBase):
    """What only the host does."""

    async def update_settings(self, auth: SeatAuth, changes: dict[str, Any]) -> dict[str, Any]:
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            self._require_host(room, auth)
            self._require_lobby(room, "change the settings")
            if room.settings.get("lesson"):
                raise Conflict(
                    "a learning game's settings are the lesson's: create a room of your own to choose them",
                    code="lesson",
                )
            merged = {**room.settings, **changes}
            if "game" in changes and changes["game"] != room.settings["game"] and "players" not in changes:
                merged["players"] = None  # the new game's default
            settings = self.check_settings(merged)
            occupied = [s.seat for s in await tx.seats(room.id) if s.seat >= settings["players"]]
            if occupied:
                raise Conflict(
                    f"seat(s) {occupied} are taken: free them before playing with {settings['players']} players",
                    code="seats_taken",
                )
            await tx.update_room(room, settings=settings, updated_at=now())
        await self._changed(auth.code)
        return await self.get(auth.code)

    async def add_bot(self, auth: SeatAuth, kind: str, seat_no: int | None) -> dict[str, Any]:
        self.check_bot(kind)
        try:
            async with self.store.transaction() as tx:
                room = await self._room(tx, auth.code, lock=True)
                self._require_host(room, auth)
                self._require_lobby(room, "add a bot")
                self.check_bot(kind, room.settings["game"])
                taken = {s.seat for s in await tx.seats(room.id)}
                players = room.settings["players"]
                seat_no = seat_for(players, taken, seat_no, full=room_full(room.code), held=seat_held)
                await tx.add_bot(room.id, seat_no, kind)
                await tx.update_room(room, updated_at=now())
        except Taken:
            raise Conflict("that seat was just taken", code="seat_taken") from None
        await self._changed(auth.code)
        return await self.get(auth.code)

    async def start(self, auth: SeatAuth) -> dict[str, Any]:
        """Start a game (or a rematch) once every seat is taken."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            self._require_host(room, auth)
            self._require_lobby(room, "start")
            seats = await tx.seats(room.id)
            players = room.settings["players"]
            free = sorted(set(range(players)) - {s.seat for s in seats})
            if free:
                raise Conflict(f"seats {free} are free: fill them (people or bots) first", code="room_not_full")
            disabled = sorted(set(room.settings["expansions"]) - set(self.settings.enabled_expansions))
            if disabled:  # the server was restarted with fewer expansions since the room was set up
                raise Invalid(
                    f"expansion(s) {disabled} are turned off on this server (ENABLED_EXPANSIONS): change the settings",
                    code="expansion_unavailable",
                )
            for s in seats:  # the game kind may have changed since the bots sat down
                for kind in (s.bot, s.bot_plays):
                    if kind is not None:
                        self.check_bot(kind, room.settings["game"])
            for s in seats:  # a new game: people play their seats again, unless they left
                again: dict[str, Any] = {"taken_back_at": None}
                if s.bot_plays and s.bot_reason != "left":
                    again.update(bot_plays=None, bot_reason=None)
                await tx.update_seat(s, **again)
            seed = room.settings.get("seed")
            config = GameConfig(**{k: room.settings[k] for k in CONFIG_KEYS}, seed=new_seed() if seed is None else seed)
            if not await tx.claim_room(room.id, LOBBY, "playing"):
                raise Conflict("the game has just been started", code="game_started")
            game_id = await tx.add_game(
                room_id=room.id,
                kind=config.game,
                config=config.model_dump(mode="json"),
                seed=config.seed,
                seats=[{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot} for s in seats],
                clock=self.game_clock(room.settings),
            )
            targets = await tx.channel_seats(room.id)
            if targets:  # "your move" to those who owe the first decision, written with the start
                names = [s.name for s in seats]
                bots = [s.seat for s in seats if s.kind == "bot"]
                notices = Notices(
                    game_id, room.id, room.code, names, Clock.of(self.game_clock(room.settings)), bots=bots
                )
                await tx.add_notices(notices.at_start(self.games.factory(config), targets, time.time()))
        log.info("game %s started", game_id, extra={"room": auth.code, "game_id": game_id})
        rt = await self.games.runtime(game_id)
        await self.games.write_wake(rt)  # its first deadline, or a bot's first move
        self.games.schedule_bots(rt)
        await self._changed(auth.code)
        return await self.get(auth.code)

    @staticmethod
    def game_clock(settings: dict[str, Any]) -> dict[str, Any] | None:
        """What a new game keeps of the room's clock settings (None: no clock)."""
        clock = ClockSettings.model_validate({k: settings[k] for k in CLOCK_KEYS if k in settings})
        return None if clock.clock.mode == "off" else clock.stored()
