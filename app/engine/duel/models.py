"""The Duel data files' Pydantic models: Duel's own effects (added to the shared vocabulary:
fixed trading prices, guilds that count the city with the most, destroying a card, the opponent
losing coins, progress tokens from the box, cost reductions, points per progress token, extra
shields and chain income) and each file's shape."""

from typing import Annotated, Any, Literal

from pydantic import Field

from app.engine.common import data as d

DUEL_RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
ABILITIES = frozenset({"play_again", "build_from_discard", "receive_trade_payments", "wonders_play_again"})

Cost = dict[Literal["coins", "wood", "stone", "clay", "ore", "glass", "papyrus", "loom"], Annotated[int, Field(ge=1)]]


Amount = Annotated[int, Field(ge=1)]


class FixedPrice(d.Strict):
    """The owner buys these resources from the bank at this price."""

    type: Literal["fixed_price"]
    resources: list[d.Resource] = Field(min_length=1)
    price: Annotated[int, Field(ge=0)]


class Guild(d.Strict):
    """Coins when built and points at the end, per thing counted in the city that has the most."""

    type: Literal["guild"]
    what: Literal["card", "wonder", "coin_sets"]
    colors: list[d.Color] | None = None
    coins_per: Annotated[int, Field(ge=0)] = 0
    vp_per: Annotated[int, Field(ge=0)] = 0


class Destroy(d.Strict):
    type: Literal["destroy"]
    color: d.Color


class OpponentLosesCoins(d.Strict):
    type: Literal["opponent_loses_coins"]
    amount: Amount


class ProgressFromBox(d.Strict):
    """Draw this many progress tokens from the box, keep one, return the others."""

    type: Literal["progress_from_box"]
    draw: Amount


class CostReduction(d.Strict):
    """Later Wonders (or blue cards) cost this many fewer resource units, the buyer's choice."""

    type: Literal["cost_reduction"]
    applies_to: Literal["wonder", "blue"]
    amount: Amount


class VpPerProgressToken(d.Strict):
    type: Literal["vp_per_progress_token"]
    amount: Amount


class ExtraShields(d.Strict):
    """Cards of these colours built from now on give this many more shields."""

    type: Literal["extra_shields"]
    colors: list[d.Color] = Field(min_length=1)
    amount: Amount


class CoinsOnChain(d.Strict):
    type: Literal["coins_on_chain"]
    amount: Amount


Effect = Annotated[
    d.Produce
    | d.ProduceOneOf
    | d.VictoryPoints
    | d.Shields
    | d.Science
    | d.Coins
    | d.PerCount
    | d.Ability
    | FixedPrice
    | Guild
    | Destroy
    | OpponentLosesCoins
    | ProgressFromBox
    | CostReduction
    | VpPerProgressToken
    | ExtraShields
    | CoinsOnChain,
    Field(discriminator="type"),
]


class Doubt(d.Strict):
    note: str
    alternative: Any = None


class CardModel(d.Strict):
    name: str = Field(min_length=1)
    age: int | None = Field(default=None, ge=1, le=3)
    color: d.Color
    cost: Cost = {}
    chain_from: list[str] = []
    effects: list[Effect] = Field(min_length=1)
    aliases: list[str] = []
    doubt: Doubt | None = None


class WonderModel(d.Strict):
    name: str = Field(min_length=1)
    cost: Cost
    effects: list[Effect] = Field(min_length=1)
    doubt: Doubt | None = None


class TokenModel(d.Strict):
    name: str = Field(min_length=1)
    effects: list[Effect] = Field(min_length=1)
    text: str
    doubt: Doubt | None = None


class CardFile(d.Strict):
    edition: str
    about: str
    science_symbols: list[str] = Field(min_length=1)
    doubts: dict[str, Doubt] = {}
    cards: list
    guilds: list


class WonderFile(d.Strict):
    about: str
    abilities: dict[str, str]
    wonders: list


class TokenFile(d.Strict):
    about: str
    abilities: dict[str, str]
    tokens: list


class SetupModel(d.Strict):
    starting_coins: Annotated[int, Field(ge=0)]
    progress_tokens_on_board: Amount
    wonders_per_round: Annotated[int, Field(ge=2)]
    draft_order: str
    cards_removed_per_age: Annotated[int, Field(ge=0)]
    guilds_in_age_3: Annotated[int, Field(ge=0)]


class RulesModel(d.Strict):
    trade_base_price: Annotated[int, Field(ge=0)]
    discard_base_coins: Annotated[int, Field(ge=0)]
    discard_coins_per_color: d.Color
    max_wonders_built: Amount
    science_symbols_to_win: Amount
    coins_per_treasury_point: Amount
    play_again_at_end_of_age: Literal["lost"]


class RowModel(d.Strict):
    cols: list[Annotated[int, Field(ge=0)]] = Field(min_length=1)
    face_up: bool


class StructureModel(d.Strict):
    note: str = ""
    rows: list[RowModel] = Field(min_length=1)


class VpZone(d.Strict):
    start: Amount = Field(alias="from")
    end: Amount = Field(alias="to")
    vp: Annotated[int, Field(ge=0)]


class LootZone(d.Strict):
    start: Amount = Field(alias="from")
    end: Amount = Field(alias="to")
    coins: Amount


class TrackModel(d.Strict):
    capital: Annotated[int, Field(ge=2)]
    vp_zones: list[VpZone]
    loot_tokens: list[LootZone]
    note: str = ""


class BoardFile(d.Strict):
    about: str
    setup: SetupModel
    rules: RulesModel
    doubts: dict[str, Doubt] = {}
    structures: dict[Literal["1", "2", "3"], StructureModel]
    military_track: TrackModel
