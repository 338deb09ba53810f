"""The classic game's cards and wonders, loaded from app/engine/data/classic and compiled
into fast, immutable definitions."""

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from app.engine.common import data as d
from app.engine.common.resources import ZERO, Choices, Vector, choice_indices, cost_items, vector

CLASSIC_DIR = d.DATA_DIR / "classic"
SCIENCE_SYMBOLS = ("compass", "gear", "tablet")
SIDES = ("day", "night")
ABILITIES = frozenset(
    {
        "build_from_discard",
        "play_last_card_each_age",
        "free_first_card_each_color",
        "free_first_card_each_age",
        "free_last_card_each_age",
    }
)
Cost = dict[Literal["coins", "wood", "stone", "clay", "ore", "glass", "papyrus", "loom"], Annotated[int, Field(ge=1)]]


class Doubt(d.Strict):
    note: str
    alternative: dict | None = None


class CardModel(d.Strict):
    name: str = Field(min_length=1)
    age: int = Field(ge=1, le=3)
    color: d.Color
    cost: Cost = {}
    chain_from: list[str] = []
    copies: list[Annotated[int, Field(ge=3, le=7)]] | None = None
    effects: list[d.Effect] = Field(min_length=1)
    doubt: Doubt | None = None


class StageModel(d.Strict):
    cost: Cost = {}
    effects: list[d.Effect] = Field(min_length=1)


class WonderModel(d.Strict):
    name: str
    starting_resource: d.Resource
    day: list[StageModel] = Field(min_length=1)
    night: list[StageModel] = Field(min_length=1)
    any_order: bool = False
    doubt: Doubt | None = None


class CardFile(d.Strict):
    edition: str
    about: str
    cards: list
    guilds: list


class WonderFile(d.Strict):
    edition: str
    about: str
    abilities: dict[str, str]
    wonders: list


@dataclass(frozen=True, slots=True)
class Effects:
    """The effects of a card or wonder stage, sorted by what the engine does with them."""

    produce: Vector = ZERO
    choices: Choices = ()
    tradable: bool = True
    vp: int = 0
    shields: int = 0
    science: str | None = None
    coins: int = 0
    discounts: tuple[d.TradeDiscount, ...] = ()
    coins_per: tuple[d.PerCount, ...] = ()
    vp_per: tuple[d.PerCount, ...] = ()
    vp_if_wonder_complete: int = 0
    abilities: frozenset[str] = frozenset()
    extra: tuple = ()  # effects of an expansion, handled by that expansion's code
    # derived from the fields above, once: the turn's resolution asks them of every card built
    produces: bool = field(init=False, compare=False, repr=False)  # any fixed production
    # whether it changes what its owner produces or pays neighbours (and so their markets)
    changes_trading: bool = field(init=False, compare=False, repr=False)
    # whether it changes what its owner sells to neighbours (and so their markets too)
    changes_goods: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        produces = any(self.produce)
        object.__setattr__(self, "produces", produces)  # frozen: set once, here
        object.__setattr__(self, "changes_trading", bool(produces or self.choices or self.discounts))
        object.__setattr__(self, "changes_goods", bool(self.tradable and (self.choices or produces)))


@dataclass(frozen=True, slots=True)
class CardDef:
    name: str
    age: int
    color: str
    cost: Vector
    coin_cost: int
    chain_from: frozenset[str]
    copies: tuple[int, ...]
    effects: Effects
    expansion: str | None = None

    cost_items: tuple[tuple[int, int], ...] = ()  # the non-zero entries of cost, for the solver


@dataclass(frozen=True, slots=True)
class StageDef:
    cost: Vector
    coin_cost: int
    effects: Effects
    cost_items: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class WonderDef:
    name: str
    starting_resource: str
    sides: dict[str, tuple[StageDef, ...]] = field(default_factory=dict)
    any_order: bool = False
    expansion: str | None = None


def compile_cost(cost: dict[str, int]) -> tuple[Vector, int]:
    resources = {k: v for k, v in cost.items() if k != "coins"}
    return vector(resources), cost.get("coins", 0)


def compile_effects(effects: list, where: str, extra_types: frozenset[str] = frozenset()) -> Effects:
    produce = ZERO
    choices: list[tuple[int, ...]] = []
    tradable = True
    out: dict = {"vp": 0, "shields": 0, "science": None, "coins": 0, "vp_if_wonder_complete": 0}
    discounts, coins_per, vp_per, abilities, extra = [], [], [], set(), []
    for e in effects:
        match e:
            case d.Produce():
                produce = tuple(a + b for a, b in zip(produce, vector(e.resources), strict=True))
                tradable = tradable and e.tradable
            case d.ProduceOneOf():
                choices.append(choice_indices(e.options))
                tradable = tradable and e.tradable
            case d.VictoryPoints():
                out["vp"] += e.amount
            case d.Shields():
                out["shields"] += e.amount
            case d.Science():
                if e.symbol not in (*SCIENCE_SYMBOLS, "any"):
                    raise d.DataError(f"{where}: unknown science symbol '{e.symbol}'")
                out["science"] = e.symbol
            case d.Coins():
                out["coins"] += e.amount
            case d.TradeDiscount():
                discounts.append(e)
            case d.PerCount() if e.type == "coins_per":
                coins_per.append(e)
            case d.PerCount():
                vp_per.append(e)
            case d.VictoryPointsIfWonderComplete():
                out["vp_if_wonder_complete"] += e.amount
            case d.Ability():
                if e.ability not in ABILITIES | extra_types:
                    raise d.DataError(f"{where}: unknown ability '{e.ability}'")
                abilities.add(e.ability)
            case _:
                extra.append(e)
    return Effects(
        produce=produce,
        choices=tuple(choices),
        tradable=tradable,
        discounts=tuple(discounts),
        coins_per=tuple(coins_per),
        vp_per=tuple(vp_per),
        abilities=frozenset(abilities),
        extra=tuple(extra),
        **out,
    )


def compile_card(model: CardModel, where: str, expansion: str | None = None) -> CardDef:
    cost, coins = compile_cost(model.cost)
    return CardDef(
        name=model.name,
        age=model.age,
        color=model.color,
        cost=cost,
        coin_cost=coins,
        chain_from=frozenset(model.chain_from),
        copies=tuple(model.copies or ()),
        effects=compile_effects(model.effects, where),
        expansion=expansion,
        cost_items=cost_items(cost),
    )


def compile_wonder(model: WonderModel, where: str, expansion: str | None = None) -> WonderDef:
    sides = {}
    for side in SIDES:
        stages = []
        for i, stage in enumerate(getattr(model, side), start=1):
            cost, coins = compile_cost(stage.cost)
            effects = compile_effects(stage.effects, f"{where} {side} stage {i}")
            stages.append(StageDef(cost=cost, coin_cost=coins, effects=effects, cost_items=cost_items(cost)))
        sides[side] = tuple(stages)
    return WonderDef(model.name, model.starting_resource, sides, model.any_order, expansion)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per data set
class ClassicData:
    cards: tuple[CardDef, ...]  # Age I-III buildings, one entry per distinct card
    guilds: tuple[CardDef, ...]
    wonders: tuple[WonderDef, ...]

    def wonder(self, name: str) -> WonderDef:
        for w in self.wonders:
            if w.name == name:
                return w
        raise KeyError(name)


def read_cards(path: Path) -> tuple[list[CardModel], list[CardModel]]:
    """The Age cards and the guilds of a cards file, validated entry by entry (not yet compiled)."""
    raw = d.validate_entry(path, "file", d.read_json(path), CardFile)
    cards = d.validate_entries(path, "cards", raw.cards, CardModel)
    return cards, d.validate_entries(path, "guilds", raw.guilds, CardModel)


def load_cards(path: Path) -> tuple[tuple[CardDef, ...], tuple[CardDef, ...]]:
    cards, guilds = read_cards(path)
    names_by_age: dict[int, set[str]] = {1: set(), 2: set(), 3: set()}
    compiled = []
    for model in cards:
        where = f"{path}: cards entry '{model.name}'"
        if not model.copies:
            raise d.DataError(f"{where}: 'copies' (player-count icons) is required for Age cards")
        if model.name in names_by_age[model.age]:
            raise d.DataError(f"{where}: duplicate name in Age {model.age}")
        names_by_age[model.age].add(model.name)
        compiled.append(compile_card(model, where))
    compiled_guilds = []
    for model in guilds:
        where = f"{path}: guilds entry '{model.name}'"
        if model.color != "purple" or model.age != 3 or model.copies:
            raise d.DataError(f"{where}: a guild is a purple Age 3 card without player-count copies")
        compiled_guilds.append(compile_card(model, where))
    d.check_chains(path, compiled + compiled_guilds)
    return tuple(compiled), tuple(compiled_guilds)


def read_wonders(path: Path) -> tuple[dict[str, str], list[WonderModel]]:
    """The rules text of each ability and the wonders of a wonders file, validated (not yet compiled)."""
    raw = d.validate_entry(path, "file", d.read_json(path), WonderFile)
    return raw.abilities, d.validate_entries(path, "wonders", raw.wonders, WonderModel)


def load_wonders(path: Path) -> tuple[WonderDef, ...]:
    _, models = read_wonders(path)
    seen = set()
    out = []
    for model in models:
        where = f"{path}: wonders entry '{model.name}'"
        if model.name in seen:
            raise d.DataError(f"{where}: duplicate wonder")
        seen.add(model.name)
        out.append(compile_wonder(model, where))
    return tuple(out)


@cache
def classic_data() -> ClassicData:
    cards, guilds = load_cards(CLASSIC_DIR / "cards.json")
    return ClassicData(cards, guilds, load_wonders(CLASSIC_DIR / "wonders.json"))


@dataclass(frozen=True, eq=False)
class ClassicFiles:
    """The classic data files as validated, before compiling: what the compiled definitions leave
    out (each effect as the file gives it, the abilities' rules text) for describing them."""

    cards: tuple[CardModel, ...]  # one entry per Age a name stands in
    guilds: tuple[CardModel, ...]
    abilities: dict[str, str]
    wonders: tuple[WonderModel, ...]


@cache
def classic_files() -> ClassicFiles:
    classic_data()  # the files pass every check of the compiled data first
    cards, guilds = read_cards(CLASSIC_DIR / "cards.json")
    abilities, wonders = read_wonders(CLASSIC_DIR / "wonders.json")
    return ClassicFiles(tuple(cards), tuple(guilds), abilities, tuple(wonders))
