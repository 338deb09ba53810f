"""Every REST body and response, and every websocket message in both directions, as Pydantic models.

Actions are typed by their shapes (app/api/actions.py: a discriminated union per game kind). Views,
events and results are the engine's own JSON objects (they differ by game kind), so they are typed
here as objects; `docs/PROTOCOL.md` shows them.

Every integer a client sends has a range and every string a length, stated in the schema (so in the
OpenAPI document), within what the database holds: a value outside is refused with a 4xx naming the
field and the limit, before anything reaches the database.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.api.actions import GameAction
from app.bots import BOT_NAMES, BOTS, DEFAULT_BOT
from app.engine import game_kinds
from app.rooms.clocks import ClockSetting

JSONObject = dict[str, Any]


def kind_players(kind: dict[str, Any]) -> str:
    """'classic (3-7 players)', 'duel (2 players)'."""
    low, high = kind["players"]["min"], kind["players"]["max"]
    return f"{kind['name']} ({low if low == high else f'{low}-{high}'} players)"


GameKind = Literal[tuple(kind["name"] for kind in game_kinds())]  # type: ignore[misc]
Side = Literal["day", "night", "random"]
RoomStatus = Literal["open", "playing", "finished", "closed"]
Spectators = Literal["off", "live", "after"]
BotReason = Literal["host", "left", "timeout"]
GameStatus = Literal["running", "finished", "abandoned"]  # abandoned: its room was closed unused
ActionId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[^\x00-\x1f\x7f]+$",  # no control characters: PostgreSQL's text holds no NUL
        description="a client nonce, without control characters: a repeat is never applied",
    ),
]
Name = Annotated[str, Field(min_length=1, max_length=64, examples=["Ada"])]

# The ranges of what clients send. The database's integers are 64-bit ids and 32-bit counts; ids and
# seeds stop at 2^53 - 1, the largest integer a JavaScript client (or a JSON Schema read as doubles)
# holds exactly.
MAX_SEATS = 7  # 7 Wonders with 7 players
MAX_ID = 2**53 - 1
MAX_COUNT = 2**31 - 1
SeatNumber = Annotated[int, Field(ge=0, le=MAX_SEATS - 1, description="a seat, 0 to 6 (and below the room's players)")]
PlayerCount = Annotated[int, Field(ge=2, le=MAX_SEATS, description="2 (Duel) or 3 to 7 (7 Wonders)")]
GameId = Annotated[int, Field(ge=1, le=MAX_ID, description="a game's id")]
Version = Annotated[int, Field(ge=0, le=MAX_COUNT, description="a game version: the number of steps applied")]
Seed = Annotated[int, Field(ge=0, le=MAX_ID, description="a game seed, 0 to 2^53-1")]
BotKind = Annotated[str, Field(min_length=1, max_length=32, description="a bot kind or level")]
ShortText = Annotated[str, Field(min_length=1, max_length=64)]
Token = Annotated[str, Field(min_length=1, max_length=128, description="a seat token")]


class Strict(BaseModel):
    """What clients send: no unknown field, and no conversion ("3" is no number, true no seat)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ----- errors --------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, machine-readable", examples=["room_full"])
    message: str = Field(description="for people: what was wrong and what would be right")
    details: Any | None = None


class ErrorOut(BaseModel):
    error: ErrorDetail


# ----- rooms ---------------------------------------------------------------------------------


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
        description='{"mode": "off"} (the default), {"mode": "turn", "seconds": S} (every decision within S seconds) '
        'or {"mode": "bank", "initial_seconds": B, "increment_seconds": I} (a time bank per seat, I seconds added '
        "per decision); when a seat's time runs out, the server decides for it with timeout_bot",
    )
    timeout_bot: BotKind | None = Field(
        None,
        description="the bot that decides on timeout (greedy if left out): " + BOT_DESCRIPTION,
        json_schema_extra=BOT_ENUM,
    )
    timeouts_before_bot: Annotated[int, Field(ge=1, le=10)] | None = Field(
        None, description="after this many timeouts in a row (default 2) the bot plays the seat until its person acts"
    )


class CreateRoomIn(SettingsFields):
    name: Name = Field(description="the host's name")
    seat: SeatNumber = Field(0, description="the host's seat")
    bots: list[BotSeatIn] = Field(default_factory=list, max_length=MAX_SEATS, description="seats for server-side bots")


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


# ----- games ---------------------------------------------------------------------------------


class ClockState(BaseModel):
    mode: Literal["turn", "bank"]
    deadlines: dict[str, str] = Field(
        description="seat -> when its decision is due (ISO 8601, UTC), for every seat that owes one; when it "
        "passes, the server decides for that seat with the room's timeout_bot"
    )
    seconds: float | None = Field(None, description="turn mode: the seconds each decision may take")
    banks: dict[str, float] | None = Field(
        None,
        description="bank mode: seat -> seconds left in its time bank, for the seats that owe no decision now "
        "(a seat that owes one has until its deadline)",
    )
    increment_seconds: float | None = Field(None, description="bank mode: seconds added per decision")


class StateOut(BaseModel):
    game_id: int
    status: GameStatus
    version: int = Field(description="steps applied so far: quote it with your next action")
    seat: int | None = Field(description="your seat, or null for a spectator")
    to_act: list[int]
    view: JSONObject = Field(description="what this seat may know (the engine's view)")
    legal_actions: list[GameAction] | None = Field(description="your legal actions now (null for spectators)")
    result: JSONObject | None = None
    clock: ClockState | None = Field(None, description="with a turn clock: deadlines (and time banks)")


class LegalActionsOut(BaseModel):
    game_id: int
    version: int
    seat: int
    legal_actions: list[GameAction]


class ActionIn(Strict):
    action: GameAction = Field(examples=[{"type": "discard", "card": "Baths"}])
    version: Version = Field(description="the game version your choice was made against")
    action_id: ActionId | None = None


class ActionOut(BaseModel):
    game_id: int
    seq: int = Field(description="the step number of your action in the log")
    version: int = Field(description="the game version after it")
    events: list[JSONObject] = Field(description="public events (never another seat's secret)")


class ResultOut(BaseModel):
    game_id: int
    result: JSONObject


class HistoryStep(BaseModel):
    seq: int
    seat: int
    at: str | None
    events: list[JSONObject]
    by_timeout: bool = Field(False, description="the server made this decision for the seat: its clock ran out")
    action: JSONObject | None = Field(None, description="shown once the game is over, in the engine's canonical form")


class HistoryOut(BaseModel):
    game_id: int
    status: str
    version: int
    config: JSONObject
    seats: list[JSONObject]
    steps: list[HistoryStep]
    result: JSONObject | None
    at: int | None = None
    view: JSONObject | None = None


# ----- the catalog: the box's contents as app.engine.describe_components() gives them ----------


class Box(BaseModel):
    """A catalog entry: exactly the keys the engine gives (a new key fails the catalog's test)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Effects = Annotated[
    list[JSONObject],
    Field(
        description="each effect as the data file gives it, in its own vocabulary (the `type` and its "
        'fields), plus `text`: a short phrase, e.g. {"type": "produce", "resources": {"wood": 1}, '
        '"tradable": true, "text": "1 wood"}'
    ),
]
Text = Annotated[str, Field(description="what it does, one English sentence made from the effects")]


class CostInfo(Box):
    coins: int
    resources: dict[str, int] = Field(description="resource -> units; {} when none")


class CardInfo(Box):
    kind: Literal["card"]
    name: str
    game: GameKind
    color: str = Field(description="brown, grey, blue, yellow, red, green or purple")
    age: int = Field(description="the first Age it appears in (a guild: 3)")
    ages: list[int] = Field(description="every Age it appears in: Loom, Glassworks and Press are [1, 2]")
    expansion: str | None = Field(description='"armada" for the Armada cards')
    cost: CostInfo
    chain_from: list[str] = Field(description="the cards whose chain makes this one free")
    chain_to: list[str] = Field(description="the cards this one makes free (the inverse of chain_from)")
    effects: Effects
    text: Text
    guild: bool | None = Field(None, description="Duel only: a guild (purple, Age 3)")
    provisional: bool | None = Field(None, description="Armada only: values the sources lack")
    reason: str | None = Field(None, description="Armada only: why the provisional values were chosen")


class StageInfo(Box):
    kind: Literal["stage"]
    wonder: str
    side: Literal["day", "night"]
    stage: int = Field(description="1-based")
    cost: CostInfo
    effects: Effects
    text: Text


class WonderInfo(Box):
    kind: Literal["wonder"]
    name: str
    game: Literal["classic"]
    expansion: str | None
    starting_resource: str
    any_order: bool = Field(description="its stages may be built in any order (Siracusa)")
    sides: dict[Literal["day", "night"], list[StageInfo]]
    provisional: bool | None = Field(None, description="Armada's Siracusa only")
    reason: str | None = None


class IslandInfo(Box):
    kind: Literal["island"]
    name: str
    level: int = Field(description="1, 2 or 3")
    effects: Effects
    text: Text
    provisional: bool
    reason: str | None


class ShipSpaceInfo(Box):
    kind: Literal["ship_space"]
    track: str
    space: int = Field(description="1 to 6")
    effects: Effects
    text: Text


class ShipyardInfo(Box):
    kind: Literal["shipyard"]
    name: str
    wonder_track: str = Field(description="the track a wonder stage's naval step advances")
    costs: dict[str, list[CostInfo]] = Field(description="per track, the costs of steps 1 to 6")
    provisional: bool
    reason: str | None


class DuelWonderInfo(Box):
    kind: Literal["wonder"]
    name: str
    game: Literal["duel"]
    cost: CostInfo
    effects: Effects
    text: Text


class TokenInfo(Box):
    kind: Literal["progress_token"]
    name: str
    effects: Effects
    text: Text
    rules: str = Field(description="the data file's own, longer text")


class VpZoneInfo(Box):
    start: int = Field(alias="from", description="distance from the centre")
    end: int = Field(alias="to")
    vp: int


class LootZoneInfo(Box):
    start: int = Field(alias="from", description="distance from the centre")
    end: int = Field(alias="to")
    coins: int


class MilitaryTrackInfo(Box):
    capital: int = Field(description="the distance from the centre that wins the game")
    vp_zones: list[VpZoneInfo]
    loot_tokens: list[LootZoneInfo] = Field(description="each half of the track has one of each")


class ClassicBox(Box):
    science_symbols: list[str]
    abilities: dict[str, str] = Field(description="ability -> its rules text")
    cards: dict[str, CardInfo] = Field(description="the Age cards and guilds of the base game, by name")
    wonders: dict[str, WonderInfo]


class NavalConflictsInfo(Box):
    weakest: dict[str, int] = Field(description="per Age, the token of the weakest fleet(s)")
    ranks: dict[str, list[int]] = Field(description="per Age, the tokens of the 1st, 2nd (and 3rd) strongest")
    ties: str = Field(description="how ties are settled, in words")


class LandingInfo(Box):
    targets: dict[str, str] = Field(description="per Age, the side (two seats away) a landing token goes")
    note: str


class ArmadaBox(Box):
    notice: str = Field(description="what players should know: Armada runs on provisional values")
    cards: dict[str, CardInfo] = Field(
        description="Armada's own Age cards; a naval step with a build advances the ship of the card's colour"
    )
    wonders: dict[str, WonderInfo] = Field(description="Siracusa")
    islands: dict[str, IslandInfo] = Field(description="by name (which island lies where is never shown)")
    ship_tracks: list[str]
    naval_conflicts: NavalConflictsInfo
    landing: LandingInfo
    ship_spaces: dict[str, list[ShipSpaceInfo]] = Field(description="per track, spaces 1 to 6")
    shipyards: dict[str, ShipyardInfo]


class DuelBox(Box):
    science_symbols: list[str]
    abilities: dict[str, str] = Field(description="ability -> its rules text (Wonders and progress tokens)")
    cards: dict[str, CardInfo] = Field(description="Age cards and guilds, by name")
    wonders: dict[str, DuelWonderInfo]
    progress_tokens: dict[str, TokenInfo]
    military_track: MilitaryTrackInfo


class ExpansionInfo(BaseModel):
    game: GameKind
    enabled: bool = Field(description="whether rooms on this server may choose it (ENABLED_EXPANSIONS)")
    notices: list[str] = Field(description="what players should know, e.g. that its values are provisional")


class ExpansionKind(Box):
    name: str
    title: str = Field(description="its name for people, e.g. Armada")
    notices: list[str] = Field(description="what players should know, e.g. that its values are provisional")


class PlayerRange(Box):
    min: int
    max: int


class GameKindInfo(Box):
    """A game kind of the engine's registry (app.engine.game_kinds())."""

    name: GameKind = Field(description="what a room's `game` setting names")
    title: str = Field(description="its name for people, e.g. 7 Wonders Duel")
    players: PlayerRange
    wonder_sides: bool = Field(description="its wonders have a day and a night side (the `wonder_side` setting)")
    expansions: list[ExpansionKind] = Field(description="the expansions it may be played with")
    action_types: list[str] = Field(description="the `type`s of its actions")


class LimitsInfo(BaseModel):
    max_name_length: int = Field(description="the longest player name this server accepts")
    room_code_length: int = Field(description="the length of the room codes it makes")


class CatalogOut(Box):
    resources: list[str] = Field(description="every resource any game uses, in the engine's order")
    classic: ClassicBox
    armada: ArmadaBox
    duel: DuelBox
    games: list[GameKindInfo] = Field(description="the game kinds the engine plays, in the order to offer them")
    expansions: dict[str, ExpansionInfo] = Field(description="the expansions the engine plays, by name")
    limits: LimitsInfo


class HealthOut(BaseModel):
    status: Literal["ok"]
    database: str
    instance: str
    games_loaded: int
    connections: int


# ----- websocket: client -> server ---------------------------------------------------------------


class HelloMsg(Strict):
    """First message when no Authorization header was sent: a seat token, or none to watch."""

    type: Literal["hello"]
    token: Token | None = None


class ActionMsg(Strict):
    type: Literal["action"]
    action: GameAction
    version: Version
    action_id: ActionId | None = None


class PingMsg(Strict):
    type: Literal["ping"]
    data: Any | None = None


class SyncMsg(Strict):
    """Ask for the room and the current state again."""

    type: Literal["sync"]


ClientMessage = Annotated[HelloMsg | ActionMsg | PingMsg | SyncMsg, Field(discriminator="type")]
client_message = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "action", "ping", "sync")


# ----- websocket: server -> client ---------------------------------------------------------------


class Limits(BaseModel):
    max_message_bytes: int
    rate_per_second: float
    burst: int
    max_json_depth: int = Field(32, description="deeper JSON is refused (too_deep)")


class WelcomeMsg(BaseModel):
    type: Literal["welcome"] = "welcome"
    seat: int | None = Field(description="your seat, or null for a spectator")
    room: RoomOut
    limits: Limits
    server_time: str | None = Field(
        None, description="the server's clock (ISO 8601, UTC): clients measure turn-clock deadlines against it"
    )


class RoomMsg(BaseModel):
    type: Literal["room"] = "room"
    room: RoomOut


class StateMsg(StateOut):
    type: Literal["state"] = "state"


class ChosenMsg(BaseModel):
    """A seat has made (or changed) its secret choice; the choice itself is never sent."""

    type: Literal["chosen"] = "chosen"
    game_id: int
    version: int
    seat: int
    changed: bool


class RevealMsg(BaseModel):
    """Every seat had chosen: the choices are shown and resolved together."""

    type: Literal["reveal"] = "reveal"
    game_id: int
    version: int
    reveal: JSONObject


class EventMsg(BaseModel):
    """Any other public event of the game (military, age_started, decision, ...)."""

    type: Literal["event"] = "event"
    game_id: int
    version: int
    event: JSONObject


class GameOverMsg(BaseModel):
    type: Literal["game_over"] = "game_over"
    game_id: int
    version: int
    result: JSONObject


class AcceptedMsg(BaseModel):
    type: Literal["accepted"] = "accepted"
    game_id: int
    seq: int
    version: int
    action_id: str | None


class ErrorMsg(BaseModel):
    type: Literal["error"] = "error"
    code: str
    message: str
    details: Any | None = None
    action_id: str | None = None


class TimeoutMsg(BaseModel):
    """The seat's clock ran out: the server decided for it with a bot (the step's own messages follow)."""

    type: Literal["timeout"] = "timeout"
    game_id: int
    version: int = Field(description="the step the decision made")
    seat: int
    bot: str = Field(description="the bot that decided (the room's timeout_bot)")


class PongMsg(BaseModel):
    type: Literal["pong"] = "pong"
    data: Any | None = None


ServerMessage = Annotated[
    WelcomeMsg
    | RoomMsg
    | StateMsg
    | ChosenMsg
    | RevealMsg
    | EventMsg
    | GameOverMsg
    | AcceptedMsg
    | ErrorMsg
    | PongMsg
    | TimeoutMsg,
    Field(discriminator="type"),
]
server_message = TypeAdapter(ServerMessage)


class ProtocolOut(BaseModel):
    client: JSONObject = Field(description="JSON Schema of ClientMessage: what a client may send")
    server: JSONObject = Field(description="JSON Schema of ServerMessage: what the server sends")
    limits: dict[str, int | float] = Field(
        description="max_message_bytes, max_frame_bytes, max_json_depth, rate_per_second, burst"
    )
