"""The compiled Duel definitions the engine plays with: immutable, with no text and no models
but the few the rules read (a guild's counting, the setup and rules numbers)."""

from dataclasses import dataclass, field

from app.engine.common import data as d
from app.engine.common.resources import ZERO, Choices, CostItems, Vector
from app.engine.duel.models import Guild, RulesModel, SetupModel

AGES = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Effects:
    """The effects of a card, Wonder or progress token, sorted by what the engine does with them."""

    produce: Vector = ZERO
    trade_produce: Vector = ZERO  # the part that raises the opponent's trading prices
    choices: Choices = ()
    vp: int = 0
    shields: int = 0
    science: str | None = None
    coins: int = 0
    coins_per: tuple[d.PerCount, ...] = ()
    fixed_prices: tuple[tuple[int, int], ...] = ()  # (resource index, price)
    guild: Guild | None = None
    destroy: str | None = None
    opponent_loses: int = 0
    box_draw: int = 0
    reductions: tuple[tuple[str, int], ...] = ()  # ("wonder" or a colour, resource units waived)
    vp_per_token: int = 0
    extra_shields: tuple[tuple[str, int], ...] = ()  # (colour, shields)
    coins_on_chain: int = 0
    abilities: frozenset[str] = frozenset()
    economic: bool = False  # changes what purchases cost its owner (production, prices or reductions)
    raises_prices: bool = False  # changes what purchases cost the opponent
    is_token: bool = False  # has effects that last only as a progress token's


@dataclass(frozen=True, slots=True)
class CardDef:
    id: int
    name: str
    age: int  # guilds are Age 3
    guild: bool
    color: str
    cost: Vector
    coin_cost: int
    chain_from: frozenset[str]
    effects: Effects
    cost_items: CostItems = ()  # the resource cost as (resource index, units) pairs

    @property
    def back(self) -> str:
        """What the back of the card shows: its Age, or that it is a guild."""
        return "guild" if self.guild else f"age {self.age}"


@dataclass(frozen=True, slots=True)
class WonderDef:
    id: int
    name: str
    cost: Vector
    effects: Effects
    cost_items: CostItems = ()


@dataclass(frozen=True, slots=True)
class TokenDef:
    id: int
    name: str
    effects: Effects
    text: str


@dataclass(frozen=True, slots=True)
class Slot:
    index: int
    row: int
    col: int
    face_up: bool
    covered_by: tuple[int, ...]  # the slots in front that must be taken first
    covers: tuple[int, ...]  # the slots behind that this card covers


@dataclass(frozen=True, slots=True)
class Track:
    capital: int
    vp_zones: tuple[tuple[int, int, int], ...]  # (from, to, vp) by distance from the centre
    loot: tuple[tuple[int, int], ...]  # (from distance, coins), one set on each half


@dataclass(frozen=True)
class DuelData:
    cards: tuple[CardDef, ...]  # Age cards then guilds; a card's id is its index
    wonders: tuple[WonderDef, ...]
    tokens: tuple[TokenDef, ...]
    layouts: dict[int, tuple[Slot, ...]]
    track: Track
    setup: SetupModel
    rules: RulesModel
    science_symbols: tuple[str, ...]

    age_ids: dict[int, tuple[int, ...]] = field(default_factory=dict)  # the Age cards of each Age, guilds apart
    guild_ids: tuple[int, ...] = ()
    card_ids: dict[str, int] = field(default_factory=dict)
    wonder_ids: dict[str, int] = field(default_factory=dict)
    token_ids: dict[str, int] = field(default_factory=dict)
    # rules numbers read on every turn, as plain attributes (a Pydantic model's are slower to read)
    trade_base_price: int = 0
    discard_base_coins: int = 0
    discard_coins_per_color: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "trade_base_price", self.rules.trade_base_price)
        object.__setattr__(self, "discard_base_coins", self.rules.discard_base_coins)
        object.__setattr__(self, "discard_coins_per_color", self.rules.discard_coins_per_color)
        self.age_ids.update((age, tuple(c.id for c in self.cards if c.age == age and not c.guild)) for age in AGES)
        object.__setattr__(self, "guild_ids", tuple(c.id for c in self.cards if c.guild))
        self.card_ids.update((c.name, c.id) for c in self.cards)
        self.wonder_ids.update((w.name, w.id) for w in self.wonders)
        self.token_ids.update((t.name, t.id) for t in self.tokens)

    def card_named(self, name: str) -> CardDef:
        return self.cards[self.card_ids[name]]

    def token_named(self, name: str) -> TokenDef:
        return self.tokens[self.token_ids[name]]
