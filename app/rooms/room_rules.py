"""What rooms accept and how they behave: their settings, names and bots checked (each refused with
what is wrong), who may watch, who becomes host, which seat is free."""

import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from pydantic import ValidationError

from app.bots import BOT_NAMES, BOTS, LEVEL_NAMES, bot_plays
from app.db.names import NAME_KEY_LENGTH, is_default_ignorable, name_key
from app.db.storage import RoomRecord
from app.engine import GameConfig, game_kind, game_kinds
from app.rooms.clocks import CLOCK_KEYS, ClockSettings
from app.rooms.errors import Conflict, Forbidden, Invalid, RoomError
from app.rooms.room_base import RoomServiceBase

ZERO_WIDTH_JOINER = "\u200d"

LOBBY = ("open", "finished")
CONFIG_KEYS = ("game", "players", "expansions", "wonder_side", "wonders")
SPECTATOR_POLICIES = ("off", "live", "after")  # who may watch: nobody, anyone live, anyone once a game is over
BOT_REASONS = ("host", "left", "timeout")
# A learning game's deal, chosen by the server (never by a client): each idea the browser's coach
# explains comes up early in these games (seat 0 can buy from a neighbour on turn one, and so on).
LESSON_SEEDS = {"classic": 1, "duel": 1}
LESSON_BOT = "easy"


def notices(expansions: Any) -> list[str]:
    """What players should know about the rules of these expansions (Armada: its provisional values)."""
    by_name = notices_by_expansion()
    return [notice for name in expansions for notice in by_name.get(name, ())]


@cache
def notices_by_expansion() -> dict[str, tuple[str, ...]]:
    """Each registered expansion's notices, read once: every room read asks for them, and describing
    the game kinds each time (their action types from the action shapes' type hints) cost 2.5% of the
    server's CPU in a run of 200 rooms."""
    return {e["name"]: tuple(e["notices"]) for kind in game_kinds() for e in kind["expansions"]}


@cache
def expansions_by_game() -> dict[str, tuple[str, ...]]:
    """Each registered game kind's expansions (the engine's registry)."""
    return {kind["name"]: tuple(e["name"] for e in kind["expansions"]) for kind in game_kinds()}


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


def room_full(code: str) -> Callable[[], RoomError]:
    return lambda: Conflict(f"room {code} is full", code="room_full")


def seat_held(seat: int) -> RoomError:
    return Conflict(f"seat {seat} is taken", code="seat_taken")


def first_free_seat(players: int, taken: set[int]) -> int | None:
    """The lowest seat number nobody holds, or None when every seat is taken."""
    return next((seat for seat in range(players) if seat not in taken), None)


def seat_for(
    players: int,
    taken: set[int],
    wanted: int | None,
    *,
    full: Callable[[], RoomError],
    held: Callable[[int], RoomError],
) -> int:
    """The seat someone (or a bot) sits down at: the one wanted, or the first free one. `full()` is
    raised when none is free, `held(seat)` when the wanted one is taken, bad_seat when it does not
    exist."""
    if wanted is None:
        seat = first_free_seat(players, taken)
        if seat is None:
            raise full()
        return seat
    if not 0 <= wanted < players:
        raise Invalid(f"there is no seat {wanted}: seats are 0 to {players - 1}", code="bad_seat")
    if wanted in taken:
        raise held(wanted)
    return wanted


class RoomChecks(RoomServiceBase):
    """What a room accepts: settings, clocks, names and bots, each refused with what is wrong."""

    def check_settings(self, values: dict[str, Any]) -> dict[str, Any]:
        """Normalised room settings, or Invalid saying what is wrong with them."""
        lesson = values.get("lesson") is True  # set by lesson_settings only: no client sends it
        seed = None if lesson else values.get("seed")
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
        hints = values.get("hints")
        if hints is not None and not isinstance(hints, bool):
            raise Invalid(f"hints must be true or false, not {hints!r}", code="bad_settings")
        out["hints"] = bool(hints)
        if lesson:
            out["seed"] = LESSON_SEEDS[config.game]
            out["hints"] = out["lesson"] = True
        out.update(self.check_clock(values))
        return out

    @staticmethod
    def lesson_settings(values: dict[str, Any], given: list[str]) -> dict[str, Any]:
        """A learning game's settings (POST /api/rooms with learn: true): the game kind and who may
        watch are the creator's; the deal (the server's own seed), the player count, the bots and hints
        are the lesson's. `given`: the other fields the creator sent, each refused by name."""
        if given:
            raise Invalid(
                f"a learning game chooses its own {', '.join(given)}: send only game, name and spectators with "
                "learn: true",
                code="bad_lesson",
            )
        game = values.get("game") or "classic"
        if game not in LESSON_SEEDS:
            raise Invalid(f"there is no learning game of {game!r}; lessons: {sorted(LESSON_SEEDS)}", code="bad_lesson")
        players = game_kind(game).players[0]  # the fewest: the player and easy bots
        return {"game": game, "players": players, "spectators": values.get("spectators"), "lesson": True}

    @staticmethod
    def lesson_bots(settings: dict[str, Any]) -> list[tuple[int | None, str]]:
        """Easy bots in every seat but the host's (seat 0)."""
        return [(seat, LESSON_BOT) for seat in range(1, settings["players"])]

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
