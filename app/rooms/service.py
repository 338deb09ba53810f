"""Rooms: settings, seats and tokens, the host's powers, and starting games.

Room states: `open` (waiting for players), `playing`, `finished` (a game ended; seats may change
and the host may start a rematch) and `closed` (every person left). Free seats have no row; the
database's unique `(room_id, seat)` and `(room_id, name_key)` settle two people racing for one
seat or one name, in one instance or several.

During a game a person's seat may be played by a bot for them (`bot_plays`, with `bot_reason`
"host", "left" or "timeout"): the seat keeps its person's name and token, and the person takes it
back by acting or saying they are back. A rejoin link moves a seat to another device: its new token
(kept as `rejoin_hash`) becomes the seat's token when the link is opened, and the old one stops
working.
"""

import asyncio
import logging
import time
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

from pydantic import ValidationError

from app.bots import BOT_NAMES, BOTS, DEFAULT_BOT, LEVEL_NAMES, bot_plays
from app.db.names import NAME_KEY_LENGTH, is_default_ignorable, name_key
from app.db.storage import GameRecord, RoomRecord, RoomTx, SeatRecord, Taken, iso, now
from app.engine import GameConfig, game_kind, game_kinds
from app.rooms.broadcast import Broadcaster, Presence
from app.rooms.clocks import CLOCK_KEYS, ClockSettings
from app.rooms.errors import Conflict, Forbidden, Invalid, NotFound, TooMany, Unauthorized
from app.rooms.games import GameService, new_seed, seat_bots, seats_taken_back
from app.rooms.quota import LocalQuota, Quota
from app.settings import Settings
from app.tokens import hash_token, is_code, new_code, new_token, normalize_code

ZERO_WIDTH_JOINER = "\u200d"

log = logging.getLogger("wonders.rooms")

LOBBY = ("open", "finished")
CONFIG_KEYS = ("game", "players", "expansions", "wonder_side", "wonders")
SPECTATOR_POLICIES = ("off", "live", "after")  # who may watch: nobody, anyone live, anyone once a game is over
BOT_REASONS = ("host", "left", "timeout")
ROOMS_WINDOW_S = 3600.0  # ROOMS_PER_ADDRESS counts the rooms an address created in this many seconds


def notices(expansions: Any) -> list[str]:
    """What players should know about the rules of these expansions (Armada: its provisional values)."""
    described = {e["name"]: e for kind in game_kinds() for e in kind["expansions"]}
    return [notice for name in expansions if name in described for notice in described[name]["notices"]]


@cache
def expansions_by_game() -> dict[str, tuple[str, ...]]:
    """Each registered game kind's expansions (the engine's registry)."""
    return {kind["name"]: tuple(e["name"] for e in kind["expansions"]) for kind in game_kinds()}


@dataclass(frozen=True)
class SeatAuth:
    """Who a seat token belongs to."""

    room_id: int
    code: str
    seat: int
    host: bool
    token_hash: str
    bot_plays: str | None = None  # a bot plays this person's seat for them now


@dataclass(frozen=True)
class Joined:
    room: dict[str, Any]
    seat: int
    token: str


class RoomService:
    def __init__(
        self,
        settings: Settings,
        games: GameService,
        broadcaster: Broadcaster,
        presence: Presence,
        created_by: Quota | None = None,
    ) -> None:
        self.settings = settings
        self.games = games
        self.store = games.store
        self.broadcaster = broadcaster
        self.presence = presence
        # rooms each client address created in the last hour
        self.created_by = created_by or LocalQuota(settings.rooms_per_address, ROOMS_WINDOW_S)
        self._tasks: set[asyncio.Task[None]] = set()
        broadcaster.subscribe(self._on_notice)

    # ----- validation --------------------------------------------------------------------------

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """Normalised room settings, or Invalid saying what is wrong with them."""
        seed = values.get("seed")
        if seed is not None and not self.settings.allow_seed:
            raise Invalid("this server does not let rooms fix the seed (ALLOW_SEED is off)", code="seed_not_allowed")
        try:
            config = GameConfig(**{k: values[k] for k in CONFIG_KEYS if values.get(k) is not None}, seed=seed or 0)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            message = first.get("msg", "invalid settings").removeprefix("Value error, ")
            raise Invalid(f"{where}: {message}" if where else message, code="bad_settings") from None
        disabled = sorted(set(config.expansions) - set(self.settings.enabled_expansions))
        if disabled:
            raise Invalid(
                f"expansion(s) {disabled} are turned off on this server (ENABLED_EXPANSIONS)",
                code="expansion_unavailable",
            )
        try:
            self.games.factory(config)
        except ValueError as exc:
            raise Invalid(str(exc), code="bad_settings") from None
        out = config.model_dump(mode="json", include=set(CONFIG_KEYS))
        if seed is not None:
            out["seed"] = seed
        spectators = values.get("spectators") or "live"
        if spectators not in SPECTATOR_POLICIES:
            raise Invalid(
                f"spectators must be 'off' (nobody watches), 'live' (anyone watches the game as it runs) or "
                f"'after' (anyone sees a game once it is over), not {spectators!r}",
                code="bad_settings",
            )
        out["spectators"] = spectators
        out.update(self.check_clock(values))
        return out

    @staticmethod
    def check_clock(values: dict[str, Any]) -> dict[str, Any]:
        """The room's clock, timeout bot and timeouts before the bot takes over, with defaults."""
        try:
            clock = ClockSettings.model_validate({k: values[k] for k in CLOCK_KEYS if values.get(k) is not None})
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()) if not str(p).startswith("function-"))
            message = first.get("msg", "invalid clock").removeprefix("Value error, ")
            raise Invalid(f"{where}: {message}" if where else message, code="bad_clock") from None
        return clock.model_dump(mode="json")

    def check_name(self, name: str) -> str:
        """The name as it will show (NFC, single spaces), or Invalid saying what is wrong with it."""
        name = unicodedata.normalize("NFC", " ".join(name.split()))
        if not name:
            raise Invalid("a name must not be empty", code="bad_name")
        if len(name) > self.settings.max_name_length:
            raise Invalid(f"a name has at most {self.settings.max_name_length} characters", code="bad_name")
        for c in name:
            if c == ZERO_WIDTH_JOINER:  # joins emoji (a family, a flag with a sign), shows nothing
                continue
            if not c.isprintable():
                raise Invalid(f"a name must be printable text, not U+{ord(c):04X}", code="bad_name")
            if is_default_ignorable(c) and unicodedata.category(c) != "Mn":  # Hangul fillers
                raise Invalid(f"a name must not hold a character that shows nothing (U+{ord(c):04X})", code="bad_name")
        key = name_key(name)
        if not key:
            raise Invalid("a name needs at least one character that shows", code="bad_name")
        if len(key) > NAME_KEY_LENGTH:
            raise Invalid(
                f"a name spelled out (ligatures and the like) has at most {NAME_KEY_LENGTH} characters", code="bad_name"
            )
        return name

    @staticmethod
    def check_bot(kind: str, game: str | None = None) -> str:
        """A bot kind (app.bots.BOTS) or level (easy, medium, hard), which plays this game kind."""
        if kind not in BOT_NAMES:
            raise Invalid(f"unknown bot {kind!r}; bots: {sorted(BOTS)}, levels: {list(LEVEL_NAMES)}", code="bad_bot")
        if game is not None and not bot_plays(kind, game):
            raise Invalid(f"the {kind} bot does not play {game_kind(game).title}", code="bad_bot")
        return kind

    # ----- reading -----------------------------------------------------------------------------

    async def _room(self, tx: RoomTx, code: str, *, lock: bool = False) -> RoomRecord:
        code = normalize_code(code)
        room = await tx.room(code, lock=lock) if is_code(code) else None
        if room is None:
            raise NotFound(f"there is no room {code!r}", code="room_not_found")
        return room

    async def get(self, code: str) -> dict[str, Any]:
        return (await self.load(code))[0]

    async def load(self, code: str) -> tuple[dict[str, Any], dict[int, str]]:
        """The room as everyone may see it, and (for the server only) each person's token hash by seat."""
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            seats = await tx.seats(room.id)
            game = await tx.latest_game(room.id)
        hashes = {s.seat: s.token_hash for s in seats if s.token_hash}
        return await self._info(room, seats, game), hashes

    async def _info(self, room: RoomRecord, seats: Any, game: GameRecord | None) -> dict[str, Any]:
        counts = await self.presence.counts(room.code)
        gone = await self.presence.gone(room.code)
        moment = time.time()
        by_seat = {s.seat: s for s in seats}
        settings = {
            **ClockSettings().model_dump(mode="json"),
            **{k: v for k, v in room.settings.items() if k != "seed"},
        }
        settings["seed_fixed"] = room.settings.get("seed") is not None
        settings["notices"] = notices(settings.get("expansions", ()))
        settings.setdefault("spectators", "live")
        out_seats = []
        for i in range(room.settings["players"]):
            s = by_seat.get(i)
            kind = s.kind if s else "free"
            out_seats.append(
                {
                    "seat": i,
                    "kind": kind,
                    "name": s.name if s else None,
                    "bot": s.bot if s else None,
                    "host": room.host_seat == i,
                    **self._presence_of(kind, i, counts, gone, moment),
                    "bot_plays": s.bot_plays if s and kind == "human" else None,
                    "bot_reason": s.bot_reason if s and kind == "human" and s.bot_plays else None,
                }
            )
        return {
            "code": room.code,
            "status": room.status,
            "host_seat": room.host_seat,
            "settings": settings,
            "seats": out_seats,
            "spectators": counts.get("s", 0),
            "game": None if game is None else {"id": game.id, "status": game.status, "kind": game.kind},
            "created_at": iso(room.created_at),
        }

    async def with_presence(self, room: dict[str, Any]) -> dict[str, Any]:
        """The room with who is connected (and who is away) brought up to date (no database read)."""
        counts = await self.presence.counts(room["code"])
        gone = await self.presence.gone(room["code"])
        moment = time.time()
        seats = [{**s, **self._presence_of(s["kind"], s["seat"], counts, gone, moment)} for s in room["seats"]]
        return {**room, "seats": seats, "spectators": counts.get("s", 0)}

    def _presence_of(
        self, kind: str, seat: int, counts: dict[str, int], gone: dict[str, float], moment: float
    ) -> dict[str, Any]:
        """connected, and away: a person's seat whose last connection closed over AWAY_GRACE_SECONDS
        ago (with when it closed). Bots are always connected, never away."""
        connected = kind == "bot" or (kind == "human" and counts.get(str(seat), 0) > 0)
        left = gone.get(str(seat)) if kind == "human" and not connected else None
        away = left is not None and moment - left >= self.settings.away_grace_seconds
        since = iso(datetime.fromtimestamp(left, UTC)) if away and left is not None else None
        return {"connected": connected, "away": away, "away_since": since}

    async def current_game(self, code: str, game_id: int | None = None, *, spectator: bool = False) -> tuple[int, str]:
        """(game id, status) of the room's latest game, or of `game_id` if it was played in this room.
        `spectator` (no seat token): refused unless the room's `spectators` policy lets them see it."""
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            if game_id is None:
                game = await tx.latest_game(room.id)
                if game is None:
                    raise NotFound(f"room {room.code} has not started a game yet", code="no_game")
            else:
                game = await tx.game(game_id)
                if game is None or game.room_id != room.id:
                    raise NotFound(f"room {room.code} has no game {game_id}", code="game_not_found")
            if spectator:
                check_spectator(room, game.status)
            return game.id, game.status

    async def games_of(self, code: str) -> list[dict[str, Any]]:
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            games = await tx.games(room.id)
        return [
            {
                "id": g.id,
                "status": g.status,
                "kind": g.kind,
                "seats": g.seats,
                "created_at": iso(g.created_at),
                "finished_at": iso(g.finished_at),
                "winners": (g.result or {}).get("winners"),
            }
            for g in games
        ]

    async def authenticate(self, code: str, token: str | None) -> SeatAuth:
        if not token:
            raise Unauthorized("this needs a seat token: send 'Authorization: Bearer <token>'", code="missing_token")
        async with self.store.reading() as tx:
            room = await self._room(tx, code)
            seat = await tx.seat_by_token(room.id, hash_token(token))
        if seat is None:
            log.info("refused a seat token that holds no seat", extra={"room": room.code})
            raise Unauthorized(f"that token holds no seat in room {room.code}", code="bad_token")
        return SeatAuth(
            room.id, room.code, seat.seat, room.host_seat == seat.seat, seat.token_hash or "", seat.bot_plays
        )

    # ----- changing rooms ------------------------------------------------------------------------

    async def create(
        self,
        values: dict[str, Any],
        host_name: str,
        *,
        host_seat: int = 0,
        bots: list[tuple[int | None, str]] = (),
        address: str | None = None,
    ) -> Joined:
        settings = self.check_settings(values)
        name = self.check_name(host_name)
        players = settings["players"]
        if not 0 <= host_seat < players:
            raise Invalid(f"the host's seat must be 0 to {players - 1}", code="bad_seat")
        taken = {host_seat}
        bot_seats: list[tuple[int, str]] = []
        for wanted, kind in bots:
            self.check_bot(kind, settings["game"])
            seat = wanted
            if seat is None:
                seat = first_free_seat(players, taken)
                if seat is None:
                    raise Invalid(f"too many bots for {players} seats", code="too_many_bots")
            if not 0 <= seat < players:
                raise Invalid(f"bot seat {seat} does not exist: seats are 0 to {players - 1}", code="bad_seat")
            if seat in taken:
                raise Invalid(f"seat {seat} is given twice", code="seat_taken")
            taken.add(seat)
            bot_seats.append((seat, kind))
        wait = None if address is None else await self.created_by.take(address)
        if wait is not None:
            raise TooMany(
                f"this address created its maximum of {self.settings.rooms_per_address} rooms in an hour "
                f"(ROOMS_PER_ADDRESS); try again in {max(1, round(wait / 60))} minutes",
                code="too_many_rooms",
                details={"limit": self.settings.rooms_per_address, "retry_after_seconds": round(wait)},
            )
        token = new_token()
        for _ in range(10):
            code = new_code(self.settings.room_code_length)
            try:
                async with self.store.transaction() as tx:
                    active = await tx.count_rooms(("open", "playing"))
                    if active >= self.settings.max_rooms:
                        raise TooMany(
                            f"the server holds its maximum of {self.settings.max_rooms} active rooms; try later",
                            code="too_many_rooms",
                        )
                    room = await tx.add_room(code, settings, host_seat)
                    await tx.add_person(room.id, host_seat, name, hash_token(token))
                    for seat, kind in bot_seats:
                        await tx.add_bot(room.id, seat, kind)
                break
            except Taken:
                continue  # a code collision: draw another
        else:
            raise Conflict("could not allocate a room code; try again", code="busy")
        log.info("room %s created", code, extra={"room": code})
        return Joined(await self.get(code), host_seat, token)

    async def join(self, code: str, name: str, seat: int | None = None) -> Joined:
        name = self.check_name(name)
        token = new_token()
        for attempt in range(3):
            try:
                async with self.store.transaction() as tx:
                    room = await self._room(tx, code, lock=True)
                    self._require_lobby(room, "join")
                    seats = await tx.seats(room.id)
                    players = room.settings["players"]
                    key = name_key(name)
                    holder = next((s for s in seats if s.name_key == key), None)
                    if holder is not None:
                        alike = "" if holder.name == name else f" ({holder.name!r} reads the same)"
                        raise Conflict(f"the name {name!r} is taken in this room{alike}", code="name_taken")
                    taken = {s.seat for s in seats}
                    if seat is None:
                        target = first_free_seat(players, taken)
                        if target is None:
                            raise Conflict(f"room {room.code} is full", code="room_full")
                    else:
                        if not 0 <= seat < players:
                            raise Invalid(f"there is no seat {seat}: seats are 0 to {players - 1}", code="bad_seat")
                        if seat in taken:
                            raise Conflict(f"seat {seat} is taken", code="seat_taken")
                        target = seat
                    await tx.add_person(room.id, target, name, hash_token(token))
                    await tx.update_room(room, updated_at=now())
                    code = room.code
                break
            except Taken:
                if attempt == 2:
                    raise Conflict("that seat or name was just taken; try again", code="seat_taken") from None
        log.info("seat %s joined", target, extra={"room": code})
        await self._changed(code)
        return Joined(await self.get(code), target, token)

    def _require_lobby(self, room: RoomRecord, what: str) -> None:
        if room.status == "playing":
            raise Conflict(f"cannot {what}: the game in room {room.code} has started", code="game_started")
        if room.status == "closed":
            raise Conflict(f"cannot {what}: room {room.code} is closed", code="room_closed")

    async def leave(self, auth: SeatAuth) -> dict[str, Any]:
        """A person leaves. Between games the seat is freed. In a running game a bot plays it for
        them (reason "left"), so the others play on, and their token keeps working: they may come
        back while the game runs. When the host leaves, the next person present becomes host."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            seat = await self._seat_row(tx, room, auth.seat)
            if room.status == "playing":
                seat = await tx.update_seat(seat, bot_plays=seat.bot_plays or DEFAULT_BOT, bot_reason="left")
                host_seat = room.host_seat
                if host_seat == seat.seat:
                    host_seat = next_host([s for s in await tx.seats(room.id) if s.seat != seat.seat], seat.seat)
                room = await tx.update_room(room, host_seat=host_seat, updated_at=now())
            else:
                room = await self._vacate(tx, room, seat)
        if room.status == "playing":
            await self._bots_changed(room.code)
        else:
            await self._after_vacate(room)
        return await self.get(auth.code)

    async def remove_seat(self, auth: SeatAuth, seat_no: int) -> dict[str, Any]:
        """The host removes a bot (between games) or a person (a bot plays on for them in a game)."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            self._require_host(room, auth)
            if seat_no == auth.seat:
                raise Invalid("to leave your own seat, use leave", code="bad_seat")
            seat = await self._seat_row(tx, room, seat_no)
            if room.status == "playing" and seat.kind == "bot":
                raise Conflict("a bot cannot leave a running game: it plays the seat to the end", code="game_started")
            room = await self._vacate(tx, room, seat)
        await self._after_vacate(room)
        return await self.get(auth.code)

    async def _seat_row(self, tx: RoomTx, room: RoomRecord, seat_no: int) -> SeatRecord:
        row = await tx.seat(room.id, seat_no)
        if row is None:
            raise NotFound(f"seat {seat_no} of room {room.code} is free", code="seat_free")
        return row

    async def _vacate(self, tx: RoomTx, room: RoomRecord, seat: SeatRecord) -> RoomRecord:
        """The seat is left for good; the room as it now is."""
        if room.status == "playing":
            await tx.update_seat(
                seat,
                kind="bot",
                bot=seat.bot_plays or DEFAULT_BOT,
                token_hash=None,
                bot_plays=None,
                bot_reason=None,
                rejoin_hash=None,
            )
        else:
            await tx.remove_seat(seat)
        host_seat, status = room.host_seat, room.status
        if host_seat == seat.seat:
            host_seat = next_host(await tx.seats(room.id))
        if host_seat is None and status in LOBBY:
            status = "closed"
        return await tx.update_room(room, host_seat=host_seat, status=status, updated_at=now())

    async def _after_vacate(self, room: RoomRecord) -> None:
        if room.status == "playing":
            await self._sync_bots(room.code)
        await self._changed(room.code)

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

    # ----- bots playing people's seats ---------------------------------------------------------

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

    async def _person_seat(self, tx: RoomTx, room: RoomRecord, seat_no: int) -> SeatRecord:
        seat = await self._seat_row(tx, room, seat_no)
        if seat.kind != "human":
            raise Conflict(f"seat {seat_no} is played by a bot of its own, not by a person", code="bot_seat")
        return seat

    # ----- rejoin links ------------------------------------------------------------------------

    async def rejoin_link(self, auth: SeatAuth, seat_no: int) -> dict[str, Any]:
        """A link that moves a person's seat to another device (the seat's person, or the host for
        anyone's seat). It replaces an unused older one; only the hash of its token is kept."""
        token = new_token()
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            if auth.seat not in (seat_no, room.host_seat):
                raise Forbidden(
                    f"you hold seat {auth.seat}: a link for seat {seat_no} is made by its person or the host",
                    code="not_your_seat",
                )
            seat = await self._person_seat(tx, room, seat_no)
            await tx.update_seat(seat, rejoin_hash=hash_token(token))
            code = room.code
        return {"url": f"/room.html?code={code}&rejoin={token}", "token": token, "seat": seat_no}

    async def rejoin(self, code: str, token: str) -> Joined:
        """Open a rejoin link: its token becomes the seat's token, and the old one stops working
        (its websockets lose the seat)."""
        async with self.store.transaction() as tx:
            room = await self._room(tx, code, lock=True)
            seat = await tx.seat_by_rejoin(room.id, hash_token(token))
            if seat is None or seat.kind != "human":
                raise NotFound(
                    f"this link opens no seat of room {room.code}: it is unknown, was already used or was replaced "
                    "by a newer one; ask for a new link",
                    code="unknown_link",
                )
            await tx.update_seat(seat, token_hash=seat.rejoin_hash, rejoin_hash=None)
            await tx.update_room(room, updated_at=now())
            code, seat_no = room.code, seat.seat
        await self._changed(code)
        return Joined(await self.get(code), seat_no, token)

    def _require_host(self, room: RoomRecord, auth: SeatAuth) -> None:
        if room.host_seat != auth.seat:
            raise Forbidden("only the host may do this", code="not_host")

    async def update_settings(self, auth: SeatAuth, changes: dict[str, Any]) -> dict[str, Any]:
        async with self.store.transaction() as tx:
            room = await self._room(tx, auth.code, lock=True)
            self._require_host(room, auth)
            self._require_lobby(room, "change the settings")
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
                if seat_no is None:
                    seat_no = first_free_seat(players, taken)
                    if seat_no is None:
                        raise Conflict(f"room {room.code} is full", code="room_full")
                elif not 0 <= seat_no < players:
                    raise Invalid(f"there is no seat {seat_no}: seats are 0 to {players - 1}", code="bad_seat")
                elif seat_no in taken:
                    raise Conflict(f"seat {seat_no} is taken", code="seat_taken")
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
        log.info("game %s started", game_id, extra={"room": auth.code, "game_id": game_id})
        rt = await self.games.runtime(game_id)
        self.games.schedule_bots(rt)
        await self._changed(auth.code)
        return await self.get(auth.code)

    @staticmethod
    def game_clock(settings: dict[str, Any]) -> dict[str, Any] | None:
        """What a new game keeps of the room's clock settings (None: no clock)."""
        clock = ClockSettings.model_validate({k: settings[k] for k in CLOCK_KEYS if k in settings})
        return None if clock.clock.mode == "off" else clock.stored()

    async def _changed(self, code: str) -> None:
        await self.broadcaster.publish(normalize_code(code), {"kind": "room"})


def next_host(seats: Any, leaving: int | None = None) -> int | None:
    """Who becomes host: the first person still at the table (not left); if there is none, the host
    leaving a running game (`leaving`) stays host, else the first person who left (or nobody)."""
    people = [s for s in seats if s.kind == "human"]
    present = [s.seat for s in people if s.bot_reason != "left"]
    if present:
        return min(present)
    if leaving is not None:
        return leaving
    return min(s.seat for s in people) if people else None


def check_spectator(room: RoomRecord, game_status: str) -> None:
    """Raise Forbidden unless the room lets spectators see a game in this status."""
    policy = spectator_policy(room.settings)
    if policy == "off":
        raise Forbidden(f"room {room.code} allows no spectators: only its players see its games", code="spectators_off")
    if policy == "after" and game_status != "finished":
        raise Forbidden(
            f"room {room.code} shows its games to spectators only once they are over", code="spectators_after"
        )


def spectator_policy(settings: dict[str, Any]) -> str:
    return settings.get("spectators") or "live"


def first_free_seat(players: int, taken: set[int]) -> int | None:
    """The lowest seat number nobody holds, or None when every seat is taken."""
    return next((seat for seat in range(players) if seat not in taken), None)
