"""7 Wonders Duel data, loaded from app/engine/data/duel and compiled into immutable definitions.

The effects reuse the shared vocabulary (produce, produce_one_of, vp, shields, science, coins,
coins_per, ability) and add only what Duel has of its own: fixed trading prices, guilds that
count the city with the most, destroying a card, the opponent losing coins, progress tokens
from the box, cost reductions, points per progress token, extra shields and chain income.
"""

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from app.engine.common import data as d
from app.engine.common.resources import INDEX, ZERO, CostItems, Vector, add, choice_indices, cost_items, vector

DUEL_DIR = d.DATA_DIR / "duel"
DUEL_RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
ABILITIES = frozenset({"play_again", "build_from_discard", "receive_trade_payments", "wonders_play_again"})
AGES = (1, 2, 3)

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


@dataclass(frozen=True, slots=True)
class Effects:
    """The effects of a card, Wonder or progress token, sorted by what the engine does with them."""

    produce: Vector = ZERO
    trade_produce: Vector = ZERO  # the part that raises the opponent's trading prices
    choices: tuple[tuple[int, ...], ...] = ()
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

    def __post_init__(self) -> None:
        self.age_ids.update((age, tuple(c.id for c in self.cards if c.age == age and not c.guild)) for age in AGES)
        object.__setattr__(self, "guild_ids", tuple(c.id for c in self.cards if c.guild))
        self.card_ids.update((c.name, c.id) for c in self.cards)
        self.wonder_ids.update((w.name, w.id) for w in self.wonders)
        self.token_ids.update((t.name, t.id) for t in self.tokens)

    def card_named(self, name: str) -> CardDef:
        return self.cards[self.card_ids[name]]

    def wonder_named(self, name: str) -> WonderDef:
        return self.wonders[self.wonder_ids[name]]

    def token_named(self, name: str) -> TokenDef:
        return self.tokens[self.token_ids[name]]


def compile_cost(cost: dict[str, int], where: str) -> tuple[Vector, int]:
    resources = {k: v for k, v in cost.items() if k != "coins"}
    _check_resources(resources, where)
    return vector(resources), cost.get("coins", 0)


def _check_resources(names: Any, where: str) -> None:
    for name in names:
        if name not in DUEL_RESOURCES:
            raise d.DataError(f"{where}: '{name}' is not a Duel resource; Duel uses {list(DUEL_RESOURCES)}")


def compile_effects(effects: list, where: str, symbols: tuple[str, ...]) -> Effects:
    out: dict[str, Any] = {"vp": 0, "shields": 0, "coins": 0, "opponent_loses": 0, "box_draw": 0}
    out |= {"vp_per_token": 0, "coins_on_chain": 0, "science": None, "guild": None, "destroy": None}
    produce, trade_produce = ZERO, ZERO
    lists: dict[str, list] = {k: [] for k in ("choices", "coins_per", "fixed_prices", "reductions", "extra_shields")}
    abilities: set[str] = set()
    for e in effects:
        match e:
            case d.Produce():
                _check_resources(e.resources, where)
                produce = add(produce, vector(e.resources))
                if e.tradable:
                    trade_produce = add(trade_produce, vector(e.resources))
            case d.ProduceOneOf():
                _check_resources(e.options, where)
                if e.tradable:
                    raise d.DataError(f"{where}: in Duel, choice production never raises the opponent's prices")
                lists["choices"].append(choice_indices(e.options))
            case d.VictoryPoints() | d.Shields() | d.Coins():
                out[{"vp": "vp", "shields": "shields", "coins": "coins"}[e.type]] += e.amount
            case d.Science():
                if e.symbol not in symbols:
                    raise d.DataError(f"{where}: unknown science symbol '{e.symbol}'; symbols: {list(symbols)}")
                out["science"] = e.symbol
            case d.PerCount():
                _check_per_count(e, where)
                lists["coins_per"].append(e)
            case d.Ability():
                if e.ability not in ABILITIES:
                    raise d.DataError(f"{where}: unknown ability '{e.ability}'; abilities: {sorted(ABILITIES)}")
                abilities.add(e.ability)
            case FixedPrice():
                _check_resources(e.resources, where)
                lists["fixed_prices"].extend((INDEX[r], e.price) for r in e.resources)
            case Guild():
                if (e.what == "card") != bool(e.colors):
                    raise d.DataError(f"{where}: a guild lists colours exactly when it counts cards")
                out["guild"] = e
            case Destroy():
                out["destroy"] = e.color
            case OpponentLosesCoins():
                out["opponent_loses"] += e.amount
            case ProgressFromBox():
                out["box_draw"] = e.draw
            case CostReduction():
                lists["reductions"].append((e.applies_to, e.amount))
            case VpPerProgressToken():
                out["vp_per_token"] += e.amount
            case ExtraShields():
                lists["extra_shields"].extend((color, e.amount) for color in e.colors)
            case CoinsOnChain():
                out["coins_on_chain"] += e.amount
    economic = produce != ZERO or any(lists[k] for k in ("choices", "fixed_prices", "reductions"))
    is_token = bool(lists["reductions"] or lists["extra_shields"] or out["coins_on_chain"] or abilities)
    return Effects(
        produce=produce,
        trade_produce=trade_produce,
        abilities=frozenset(abilities),
        economic=economic,
        raises_prices=trade_produce != ZERO,
        is_token=is_token,
        **{k: tuple(v) for k, v in lists.items()},
        **out,
    )


def _check_per_count(e: d.PerCount, where: str) -> None:
    if e.type != "coins_per" or e.whose != ["self"]:
        raise d.DataError(f"{where}: in Duel, 'coins_per' counts the owner's city only (whose: ['self'])")
    if e.what == "military_defeat_token":
        raise d.DataError(f"{where}: Duel has no military defeat tokens")
    if (e.what == "card") != bool(e.colors):
        raise d.DataError(f"{where}: 'coins_per' lists colours exactly when it counts cards")


@dataclass(frozen=True, eq=False)
class DuelFiles:
    """The Duel data files as validated, before compiling: what the compiled definitions leave out
    (each effect as the file gives it, the abilities' rules text, the loot tokens' zones) for
    describing them."""

    board: BoardFile
    card_file: CardFile
    cards: tuple[CardModel, ...]
    guilds: tuple[CardModel, ...]
    wonder_file: WonderFile
    wonders: tuple[WonderModel, ...]
    token_file: TokenFile
    tokens: tuple[TokenModel, ...]


def read_files(directory: Path = DUEL_DIR) -> DuelFiles:
    """Each file of the directory and each of its entries validated (not yet compiled)."""
    board_path, card_path = directory / "board.json", directory / "cards.json"
    wonder_path, token_path = directory / "wonders.json", directory / "progress.json"
    board = d.validate_entry(board_path, "file", d.read_json(board_path), BoardFile)
    card_file = d.validate_entry(card_path, "file", d.read_json(card_path), CardFile)
    cards = d.validate_entries(card_path, "cards", card_file.cards, CardModel)
    guilds = d.validate_entries(card_path, "guilds", card_file.guilds, CardModel)
    wonder_file = d.validate_entry(wonder_path, "file", d.read_json(wonder_path), WonderFile)
    wonders = d.validate_entries(wonder_path, "wonders", wonder_file.wonders, WonderModel)
    token_file = d.validate_entry(token_path, "file", d.read_json(token_path), TokenFile)
    tokens = d.validate_entries(token_path, "tokens", token_file.tokens, TokenModel)
    return DuelFiles(
        board, card_file, tuple(cards), tuple(guilds), wonder_file, tuple(wonders), token_file, tuple(tokens)
    )


def load_cards(
    path: Path, files: DuelFiles, layouts: dict[int, tuple[Slot, ...]]
) -> tuple[tuple[CardDef, ...], tuple[str, ...]]:
    symbols = tuple(files.card_file.science_symbols)
    models = [(m, False) for m in files.cards] + [(m, True) for m in files.guilds]
    cards: list[CardDef] = []
    for model, guild in models:
        where = f"{path}: {'guilds' if guild else 'cards'} entry '{model.name}'"
        if guild != (model.color == "purple") or guild == (model.age is not None):
            raise d.DataError(f"{where}: guilds (and only they) are purple and have no 'age'")
        if any(c.name == model.name for c in cards):
            raise d.DataError(f"{where}: duplicate card name (Duel card names are unique)")
        cost, coins = compile_cost(model.cost, where)
        effects = compile_effects(model.effects, where, symbols)
        if effects.guild and not guild:
            raise d.DataError(f"{where}: only guilds have a guild effect")
        age = 3 if guild else model.age
        assert age is not None
        chain = frozenset(model.chain_from)
        cards.append(
            CardDef(len(cards), model.name, age, guild, model.color, cost, coins, chain, effects, cost_items(cost))
        )
    d.check_chains(path, cards)
    _check_counts(path, cards, files.board.setup, layouts)
    return tuple(cards), symbols


def _check_counts(path: Path, cards: list[CardDef], setup: SetupModel, layouts: dict[int, tuple[Slot, ...]]) -> None:
    guilds = sum(c.guild for c in cards)
    if guilds < setup.guilds_in_age_3:
        raise d.DataError(f"{path}: {guilds} guilds, but {setup.guilds_in_age_3} go into Age III")
    for age in AGES:
        dealt = sum(1 for c in cards if c.age == age and not c.guild) - setup.cards_removed_per_age
        if age == 3:
            dealt += setup.guilds_in_age_3
        if dealt != len(layouts[age]):
            raise d.DataError(f"{path}: Age {age} deals {dealt} cards but its structure has {len(layouts[age])} slots")


def load_named(
    path: Path, section: str, models: tuple[WonderModel, ...] | tuple[TokenModel, ...], symbols: tuple[str, ...]
) -> list:
    out: list = []
    for m in models:
        where = f"{path}: {section} entry '{m.name}'"
        if any(o.name == m.name for o in out):
            raise d.DataError(f"{where}: duplicate name")
        effects = compile_effects(m.effects, where, symbols)
        if effects.guild or effects.coins_per or effects.fixed_prices:
            raise d.DataError(f"{where}: guild, coins_per and fixed_price effects belong on cards")
        if isinstance(m, WonderModel):
            cost, coins = compile_cost(m.cost, where)
            if coins:
                raise d.DataError(f"{where}: Wonders cost resources only")
            out.append(WonderDef(len(out), m.name, cost, effects, cost_items(cost)))
        else:
            out.append(TokenDef(len(out), m.name, effects, m.text))
    return out


def compile_layout(path: Path, age: int, model: StructureModel) -> tuple[Slot, ...]:
    cells = [(r, c, row.face_up) for r, row in enumerate(model.rows) for c in row.cols]
    if len({(r, c) for r, c, _ in cells}) != len(cells):
        raise d.DataError(f"{path}: structure {age}: two slots share a row and column")
    slots = []
    for i, (r, c, up) in enumerate(cells):
        covered_by = tuple(j for j, (r2, c2, _) in enumerate(cells) if r2 == r + 1 and abs(c2 - c) == 1)
        covers = tuple(j for j, (r2, c2, _) in enumerate(cells) if r2 == r - 1 and abs(c2 - c) == 1)
        slots.append(Slot(i, r, c, up, covered_by, covers))
    if not any(not s.covered_by and s.face_up for s in slots):
        raise d.DataError(f"{path}: structure {age}: no card is accessible at the start")
    if any(not s.covered_by and not s.face_up for s in slots):
        raise d.DataError(f"{path}: structure {age}: a card nothing covers must be face up")
    return tuple(slots)


def compile_track(path: Path, model: TrackModel) -> Track:
    for zone in (*model.vp_zones, *model.loot_tokens):
        if not zone.start <= zone.end < model.capital:
            raise d.DataError(f"{path}: military_track zone {zone.start}-{zone.end} must lie before the capital")
    vp = tuple((z.start, z.end, z.vp) for z in model.vp_zones)
    return Track(model.capital, vp, tuple((z.start, z.coins) for z in model.loot_tokens))


def load(directory: Path = DUEL_DIR) -> DuelData:
    files = read_files(directory)
    board_path, board = directory / "board.json", files.board
    if set(board.structures) != {"1", "2", "3"}:
        raise d.DataError(f"{board_path}: structures must be given for Ages 1, 2 and 3")
    layouts = {age: compile_layout(board_path, age, board.structures[str(age)]) for age in AGES}
    cards, symbols = load_cards(directory / "cards.json", files, layouts)
    wonder_path, token_path = directory / "wonders.json", directory / "progress.json"
    wonders = load_named(wonder_path, "wonders", files.wonders, symbols)
    tokens = load_named(token_path, "tokens", files.tokens, symbols)
    if len(wonders) < 2 * board.setup.wonders_per_round:
        raise d.DataError(f"{wonder_path}: {len(wonders)} Wonders cannot fill two draft rounds")
    if len(tokens) < board.setup.progress_tokens_on_board:
        raise d.DataError(f"{token_path}: fewer progress tokens than board spaces")
    return DuelData(
        cards=cards,
        wonders=tuple(wonders),
        tokens=tuple(tokens),
        layouts=layouts,
        track=compile_track(board_path, board.military_track),
        setup=board.setup,
        rules=board.rules,
        science_symbols=symbols,
    )


@cache
def duel_data() -> DuelData:
    return load()


@cache
def duel_files() -> DuelFiles:
    duel_data()  # the files pass every check of the compiled data first
    return read_files()
