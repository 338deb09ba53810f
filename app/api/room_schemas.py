"""The rooms router's bodies and answers (app/api/rooms.py): creating, joining and changing rooms,
their seats and settings."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.api.schemas import (
    MAX_SEATS,
    BotKind,
    BotReason,
    GameKind,
    GameStatus,
    JSONObject,
    Name,
    PlayerCount,
    RoomStatus,
    SeatNumber,
    Seed,
    ShortText,
    Side,
    Spectators,
    Strict,
    kind_players,
)
from app.bots import BOT_NAMES, BOTS, DEFAULT_BOT
from app.engine import game_kinds
from app.rooms.clocks import ClockSetting, Pace

# A bot by kind or by level, as the API accepts it (every name listed in the schema's enum)
BOT_DESCRIPTION = (
    "a bot level: easy (the greedy bot), medium (the heuristic bot) or hard (the strongest bot there is: the "
    "search bot, with BOT_HARD_BUDGET_MS to think per decision, where the server has it); or a bot kind: "
    + ", ".join(BOTS)
)
BOT_ENUM = {"enum": list(BOT_NAMES)}


class BotSeatIn(Strict):
    kind: BotKind = Field(DEFAULT_BOT, description=BOT_DESCRIPTION, json_schema_extra=BOT_ENUM)
    seat: SeatNumber | None = Field(None, description="the seat; the first free one if left out")


class SettingsFields(Strict):
    game: GameKind | None = Field(None, description=" or ".join(map(kind_players, game_kinds())))
    players: PlayerCount | None = Field(None, description="defaults to the game's minimum")
    expansions: Annotated[list[ShortText], Field(max_length=4)] | None = Field(
        None,
        description='["armada"] for 7 Wonders with the Armada expansion (provisional values; see the room\'s '
        "settings.notices), if the server enables it (ENABLED_EXPANSIONS); none if left out",
    )
    wonder_side: Side | Annotated[list[Side], Field(max_length=MAX_SEATS)] | None = Field(
        None, description="one side for all, or one per seat"
    )
    wonders: Annotated[list[ShortText], Field(max_length=MAX_SEATS)] | None = Field(
        None, description="one wonder name per seat (classic); random if left out"
    )
    seed: Seed | None = Field(None, description="fixed seed; only on servers started with ALLOW_SEED=true")
    spectators: Spectators | None = Field(
        None,
        description="who may watch without a seat: off (nobody), live (anyone, as the game runs; the default) or "
        "after (anyone, once a game is over)",
    )
    clock: ClockSetting | None = Field(
        None,
        description='{"mode": "off"} (the default), {"mode": "turn", "seconds": S} (every decision within S seconds, '
        '1 to 604800: up to 7 days) or {"mode": "bank", "initial_seconds": B, "increment_seconds": I} (a time bank '
        "per seat of up to 30 days, I seconds added per decision, up to a day); when a seat's time runs out, the "
        "server decides for it with timeout_bot. A clock of an hour or more a decision makes the room turn-based "
        "(the room's settings.pace)",
    )
    timeout_bot: BotKind | None = Field(
        None,
        description="the bot that decides on timeout (greedy if left out): " + BOT_DESCRIPTION,
        json_schema_extra=BOT_ENUM,
    )
    timeouts_before_bot: Annotated[int, Field(ge=1, le=10)] | None = Field(
        None, description="after this many timeouts in a row (default 2) the bot plays the seat until its person acts"
    )
    hints: bool | None = Field(
        None,
        description="seats may ask the search bot for a hint (GET /api/rooms/{code}/game/hint); everyone in the room "
        "sees each hint used, in the chat and the log. Off by default",
    )


class CreateRoomIn(SettingsFields):
    name: Name = Field(description="the host's name")
    seat: SeatNumber = Field(0, description="the host's seat")
    bots: list[BotSeatIn] = Field(default_factory=list, max_length=MAX_SEATS, description="seats for server-side bots")
    learn: bool = Field(
        False,
        description="a learning game (a lesson): the server deals a known game of its choosing (its own fixed seed, "
        "whatever ALLOW_SEED says), seats easy bots in the other seats, turns hints on and marks the room a lesson "
        "(settings.lesson), whose browser page explains each idea of the game as it first matters. Only `game`, "
        "`name` and `spectators` may be given with it (422 `bad_lesson` names what may not); its settings cannot "
        "be changed afterwards",
    )


class SettingsPatch(SettingsFields):
    pass


class JoinIn(Strict):
    name: Name
    seat: SeatNumber | None = Field(None, description="a free seat; the first free one if left out")


class AddBotIn(BotSeatIn):
    pass


class HandSeatIn(Strict):
    kind: BotKind = Field(
        DEFAULT_BOT, description="the bot that plays the seat: " + BOT_DESCRIPTION, json_schema_extra=BOT_ENUM
    )


class RejoinLinkOut(BaseModel):
    url: str = Field(description="the page that takes the seat on another device: share it with that device only")
    token: str = Field(description="the link's secret (the seat's token once the link is opened)")
    seat: int


class RejoinIn(Strict):
    token: str = Field(min_length=1, max_length=128, description="the rejoin link's token (its `rejoin` parameter)")


class RoomSettingsOut(BaseModel):
    game: GameKind
    players: int
    expansions: list[str] = Field(description='"armada" when the room plays 7 Wonders with the Armada expansion')
    wonder_side: Side | list[Side]
    wonders: list[str] | None
    seed_fixed: bool = Field(description="the room fixed its seed (only on servers with ALLOW_SEED=true)")
    clock: ClockSetting = Field(description="the turn clock the game runs on (see SettingsFields.clock)")
    pace: Pace = Field(
        "live",
        description="the clock in a player's words: live (no clock, or under an hour for a decision: players at "
        "the table together) or turn_based (an hour or more for a decision, up to 7 days, or a time bank of an hour "
        "or more: players move when they can, over days). Derived from clock; not a setting of its own",
    )
    timeout_bot: str
    timeouts_before_bot: int
    notices: list[str] = Field(
        default_factory=list,
        description="what players should know about these rules, one sentence each; with Armada, that it runs on "
        "provisional shipyard, island and Armada card values (the engine data's provisional notice)",
        examples=[["Armada runs on provisional values: the shipyard costs and benefits, ..."]],
    )
    spectators: Spectators = Field(
        "live", description="who may watch without a seat: off, live (as the game runs) or after (once it is over)"
    )
    hints: bool = Field(False, description="seats may ask for hints (everyone sees each one used)")
    lesson: bool = Field(False, description="a learning game, created with learn: true (a deal the server chose)")


class SeatOut(BaseModel):
    seat: int
    kind: Literal["human", "bot", "free"]
    name: str | None
    bot: str | None
    host: bool
    connected: bool
    away: bool = Field(False, description="a person with no connection for over AWAY_GRACE_SECONDS (never a bot)")
    away_since: str | None = Field(None, description="when an away person's last connection closed")
    bot_plays: str | None = Field(None, description="the bot kind playing this person's seat for them now")
    bot_reason: BotReason | None = Field(
        None, description="why a bot plays it: the host handed it over, the person left, or their time ran out"
    )


class GameSummary(BaseModel):
    id: int
    status: GameStatus
    kind: str


class RoomOut(BaseModel):
    code: str
    status: RoomStatus
    host_seat: int | None
    settings: RoomSettingsOut
    seats: list[SeatOut]
    spectators: int
    game: GameSummary | None
    created_at: str


class JoinedOut(BaseModel):
    code: str
    seat: int
    token: str = Field(description="the seat's secret: shown once, send it as 'Authorization: Bearer <token>'")
    room: RoomOut


class GameListItem(BaseModel):
    id: int
    status: str
    kind: str
    seats: list[JSONObject]
    created_at: str
    finished_at: str | None
    winners: list[int] | None


ChatText = Annotated[str, Field(min_length=1, max_length=500, description="1 to 500 characters")]


class ChatIn(Strict):
    text: ChatText


class ChatOut(BaseModel):
    id: int = Field(description="the message's number in the room: later ones have larger ones")
    seat: int
    name: str = Field(description="the seat's name when it was said")
    text: str = Field(description="what was said (empty once the host deleted it)")
    at: str = Field(description="when (ISO 8601, UTC)")
    deleted: bool
    kind: Literal["say", "hint"] = Field(
        "say", description="say: the seat said it; hint: the seat asked for a hint (the text is the server's words)"
    )


class ChatListOut(BaseModel):
    messages: list[ChatOut] = Field(description="oldest first: the room's latest 100 at most, after `after`")
