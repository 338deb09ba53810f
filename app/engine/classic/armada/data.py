"""The Armada expansion's data: shipyards, space benefits, Armada cards, islands, Siracusa.

Loaded from app/engine/data/armada/armada.json and validated like the classic data. Every
number the public sources did not give is marked `provisional` there; none lives in code.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from app.engine.classic.data import (
    CardDef,
    CardModel,
    Cost,
    Effects,
    StageModel,
    WonderDef,
    WonderModel,
    compile_card,
    compile_cost,
    compile_effects,
    compile_wonder,
)
from app.engine.common import data as d
from app.engine.common.resources import Vector, cost_items

ARMADA_FILE = d.DATA_DIR / "armada" / "armada.json"
TRACKS = ("red", "yellow", "blue", "green")
Track = Literal["red", "yellow", "blue", "green"]
STEPS = 6


class NavalStrength(d.Strict):
    type: Literal["naval_strength"]
    amount: Annotated[int, Field(ge=1)]


class CommercialLevel(d.Strict):
    type: Literal["commercial_level"]
    amount: Annotated[int, Field(ge=1)]


class Tax(d.Strict):
    """Every player with a lower commercial level loses this many coins at the end of the turn."""

    type: Literal["tax"]
    amount: Annotated[int, Field(ge=1)]


class Explore(d.Strict):
    type: Literal["explore"]
    level: Annotated[int, Field(ge=1, le=3)]


class TakeIsland(d.Strict):
    """Take the top island of a level (an exploration that draws one)."""

    type: Literal["take_island"]
    level: Annotated[int, Field(ge=1, le=3)]


class ShipMove(d.Strict):
    """Move `count` different ships (of `tracks`, or any) one space up, free."""

    type: Literal["ship_move"]
    count: Annotated[int, Field(ge=1, le=4)]
    tracks: list[Track] | None = None


class Piracy(d.Strict):
    """Every other player loses coins equal to their own commercial level at the end of the turn."""

    type: Literal["piracy"]


class Landing(d.Strict):
    """Give the landing token to the player two seats away: one more ground conflict this Age."""

    type: Literal["landing"]


class FarTrade(d.Strict):
    """Buy from the player two seats away: `limit` units a payment at `price` coins each."""

    type: Literal["far_trade"]
    side: d.Side
    price: Annotated[int, Field(ge=0)]
    limit: Annotated[int, Field(ge=1)]


class PerOwn(d.Strict):
    """Points at the end per commercial level or per island owned, or per card of the best colour."""

    type: Literal["vp_per_commercial_level", "vp_per_island", "vp_per_best_color"]
    amount: Annotated[int, Field(ge=1)]


class CoinsPerShipMove(d.Strict):
    type: Literal["coins_per_ship_move"]
    amount: Annotated[int, Field(ge=1)]


class Flag(d.Strict):
    """A lasting exemption or bonus of an island or card."""

    type: Literal["science_most_common", "coin_loss_immunity", "naval_defeat_immunity", "naval_discount"]


ArmadaEffect = Annotated[
    d.ClassicEffect
    | NavalStrength
    | CommercialLevel
    | Tax
    | Explore
    | TakeIsland
    | ShipMove
    | Piracy
    | Landing
    | FarTrade
    | PerOwn
    | CoinsPerShipMove
    | Flag,
    Field(discriminator="type"),
]


class Provisional(d.Strict):
    """A value the sources lack: marked, with the reason for the project's choice."""

    provisional: bool = False
    reason: str | None = None


class ArmadaCardModel(CardModel, Provisional):
    effects: list[ArmadaEffect] = Field(min_length=1)  # type: ignore[assignment]
    three_players: bool = True
    note: str | None = None
    alternative_names: list[str] = []


class ArmadaStageModel(StageModel):
    effects: list[ArmadaEffect] = Field(min_length=1)  # type: ignore[assignment]


class ArmadaWonderModel(WonderModel, Provisional):
    day: list[ArmadaStageModel] = Field(min_length=1)  # type: ignore[assignment]
    night: list[ArmadaStageModel] = Field(min_length=1)  # type: ignore[assignment]


class IslandModel(Provisional):
    name: str = Field(min_length=1)
    level: Annotated[int, Field(ge=1, le=3)]
    effects: list[ArmadaEffect] = Field(min_length=1)


class ShipyardModel(Provisional):
    name: str = Field(min_length=1)
    wonder_track: Track
    costs: dict[Track, Annotated[list[Cost], Field(min_length=STEPS, max_length=STEPS)]]


class SpaceEffectsModel(Provisional):
    red: Annotated[list[list[ArmadaEffect]], Field(min_length=STEPS, max_length=STEPS)]
    yellow: Annotated[list[list[ArmadaEffect]], Field(min_length=STEPS, max_length=STEPS)]
    blue: Annotated[list[list[ArmadaEffect]], Field(min_length=STEPS, max_length=STEPS)]
    green: Annotated[list[list[ArmadaEffect]], Field(min_length=STEPS, max_length=STEPS)]


class NavalConflictsModel(d.Strict):
    weakest: dict[Literal["1", "2", "3"], int]
    ranks: dict[Literal["1", "2", "3"], list[int]]
    ties: str


class ExplorationModel(d.Strict):
    draw: Annotated[int, Field(ge=1)]
    keep: Literal[1]
    shared: str
    draw_provisional: bool = False
    reason: str | None = None


class LandingModel(d.Strict):
    targets: dict[Literal["1", "2", "3"], d.Side]
    note: str


class ArmadaFile(d.Strict):
    edition: str
    about: str
    provisional_notice: str
    hand_size: Annotated[int, Field(ge=2)]
    guild_cap: Annotated[int, Field(ge=1)]
    ship_tracks: dict[Track, Track]
    exploration: ExplorationModel
    naval_conflicts: NavalConflictsModel
    landing: LandingModel
    space_effects: SpaceEffectsModel
    shipyards: list
    cards: list
    islands: list
    wonders: list


@dataclass(frozen=True, slots=True)
class StepCost:
    """The price of one naval construction step (also used for card plus step totals)."""

    cost: Vector
    coin_cost: int
    cost_items: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ShipyardDef:
    name: str
    wonder_track: str
    costs: dict[str, tuple[StepCost, ...]]  # per track, steps 1..6


@dataclass(frozen=True, slots=True)
class IslandDef:
    name: str
    level: int
    effects: Effects


@dataclass(frozen=True, eq=False)
class ArmadaData:
    notice: str
    hand_size: int
    guild_cap: int
    explore_draw: int
    weakest: dict[int, int]
    ranks: dict[int, tuple[int, ...]]
    landing_targets: dict[int, str]
    spaces: dict[str, tuple[Effects, ...]]  # per track, spaces 1..6
    shipyards: tuple[ShipyardDef, ...]
    cards: tuple[CardDef, ...]
    not_at_three: frozenset[str]
    islands: tuple[IslandDef, ...]
    wonders: tuple[WonderDef, ...]


def step_cost(cost: dict[str, int]) -> StepCost:
    vector, coins = compile_cost(cost)
    return StepCost(vector, coins, cost_items(vector))


@dataclass(frozen=True, eq=False)
class ArmadaFiles:
    """armada.json as validated, before compiling: what the compiled definitions leave out (each
    effect as the file gives it, what is provisional and why) for describing them."""

    file: ArmadaFile
    cards: tuple[ArmadaCardModel, ...]
    islands: tuple[IslandModel, ...]
    shipyards: tuple[ShipyardModel, ...]
    wonders: tuple[ArmadaWonderModel, ...]


def read_armada(path: Path = ARMADA_FILE) -> ArmadaFiles:
    """The file and each of its entries validated, names unique, every shipyard costing each track."""
    raw = d.validate_entry(path, "file", d.read_json(path), ArmadaFile)
    cards = d.validate_entries(path, "cards", raw.cards, ArmadaCardModel)
    islands = d.validate_entries(path, "islands", raw.islands, IslandModel)
    shipyards = d.validate_entries(path, "shipyards", raw.shipyards, ShipyardModel)
    wonders = d.validate_entries(path, "wonders", raw.wonders, ArmadaWonderModel)
    _unique(path, "cards", [c.name for c in cards])
    _unique(path, "islands", [i.name for i in islands])
    _unique(path, "shipyards", [s.name for s in shipyards])
    for s in shipyards:
        if set(s.costs) != set(TRACKS):
            raise d.DataError(f"{path}: shipyards entry '{s.name}': costs must list the tracks {list(TRACKS)}")
    return ArmadaFiles(raw, tuple(cards), tuple(islands), tuple(shipyards), tuple(wonders))


def load_armada(path: Path = ARMADA_FILE) -> ArmadaData:
    files = read_armada(path)
    raw, cards, islands, shipyards, wonders = files.file, files.cards, files.islands, files.shipyards, files.wonders
    spaces = {
        track: tuple(
            compile_effects(effects, f"{path}: space_effects.{track}[{i}]")
            for i, effects in enumerate(getattr(raw.space_effects, track), start=1)
        )
        for track in TRACKS
    }
    return ArmadaData(
        notice=raw.provisional_notice,
        hand_size=raw.hand_size,
        guild_cap=raw.guild_cap,
        explore_draw=raw.exploration.draw,
        weakest={int(age): v for age, v in raw.naval_conflicts.weakest.items()},
        ranks={int(age): tuple(v) for age, v in raw.naval_conflicts.ranks.items()},
        landing_targets={int(age): side for age, side in raw.landing.targets.items()},
        spaces=spaces,
        shipyards=tuple(
            ShipyardDef(s.name, s.wonder_track, {t: tuple(step_cost(c) for c in s.costs[t]) for t in TRACKS})
            for s in shipyards
        ),
        cards=tuple(compile_card(c, f"{path}: cards entry '{c.name}'", "armada") for c in cards),
        not_at_three=frozenset(c.name for c in cards if not c.three_players),
        islands=tuple(
            IslandDef(i.name, i.level, compile_effects(i.effects, f"{path}: islands entry '{i.name}'")) for i in islands
        ),
        wonders=tuple(compile_wonder(w, f"{path}: wonders entry '{w.name}'", "armada") for w in wonders),
    )


def _unique(path: Path, section: str, names: list[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise d.DataError(f"{path}: {section} entry '{name}': duplicate name")
        seen.add(name)


@cache
def armada_data() -> ArmadaData:
    return load_armada()


@cache
def armada_files() -> ArmadaFiles:
    armada_data()  # the file passes every check of the compiled data first
    return read_armada()
