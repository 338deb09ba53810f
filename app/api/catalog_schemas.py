"""The catalog's answer (app/api/catalog.py): the box's contents as app.engine.describe_components()
gives them, the game kinds, the expansions and the server's limits."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import GameKind, JSONObject


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
