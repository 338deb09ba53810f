"""Loading data files: JSON validated by Pydantic models, with errors that name file and entry."""

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

Resource = Literal["wood", "stone", "clay", "ore", "glass", "papyrus", "loom"]
Side = Literal["left", "right"]
Whose = Literal["self", "left", "right"]
Color = Literal["brown", "grey", "blue", "yellow", "red", "green", "purple"]


class DataError(ValueError):
    """A data file that does not load: the message names the file and the entry."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Produce(Strict):
    type: Literal["produce"]
    resources: dict[Resource, Annotated[int, Field(ge=1)]]
    tradable: bool = True


class ProduceOneOf(Strict):
    type: Literal["produce_one_of"]
    options: list[Resource] = Field(min_length=2)
    tradable: bool


class VictoryPoints(Strict):
    type: Literal["vp"]
    amount: int


class Shields(Strict):
    type: Literal["shields"]
    amount: Annotated[int, Field(ge=1)]


class Science(Strict):
    type: Literal["science"]
    symbol: str


class Coins(Strict):
    type: Literal["coins"]
    amount: Annotated[int, Field(ge=1)]


class TradeDiscount(Strict):
    type: Literal["trade_discount"]
    resources: list[Resource] = Field(min_length=1)
    sides: list[Side] = Field(min_length=1)
    price: Annotated[int, Field(ge=0)]


class PerCount(Strict):
    """Coins now, or points at the end, per counted thing in the named cities."""

    type: Literal["coins_per", "vp_per"]
    amount: Annotated[int, Field(ge=1)]
    what: Literal["card", "wonder_stage", "military_defeat_token"]
    whose: list[Whose] = Field(min_length=1)
    colors: list[Color] | None = None


class VictoryPointsIfWonderComplete(Strict):
    type: Literal["vp_if_wonder_complete"]
    amount: Annotated[int, Field(ge=1)]


class Ability(Strict):
    type: Literal["ability"]
    ability: str


# the classic game's effects; an expansion adds its own to this union
ClassicEffect = (
    Produce
    | ProduceOneOf
    | VictoryPoints
    | Shields
    | Science
    | Coins
    | TradeDiscount
    | PerCount
    | VictoryPointsIfWonderComplete
    | Ability
)
Effect = Annotated[ClassicEffect, Field(discriminator="type")]

Model = TypeVar("Model", bound=BaseModel)


def read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataError(f"{path}: file not found") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON: {exc}") from exc


def validate_entries(path: Path, section: str, entries: Any, model: type[Model]) -> list[Model]:
    """Validate each entry of a list on its own, so an error names the entry that is wrong."""
    if not isinstance(entries, list):
        raise DataError(f"{path}: '{section}' must be a list")
    out = []
    for i, entry in enumerate(entries):
        label = entry.get("name", f"#{i}") if isinstance(entry, dict) else f"#{i}"
        try:
            out.append(model.model_validate(entry))
        except ValidationError as exc:
            raise DataError(f"{path}: {section} entry '{label}': {_short(exc)}") from exc
    return out


def validate_entry(path: Path, label: str, entry: Any, model: type[Model]) -> Model:
    try:
        return model.model_validate(entry)
    except ValidationError as exc:
        raise DataError(f"{path}: {label}: {_short(exc)}") from exc


class Chained(Protocol):
    name: str
    age: int
    chain_from: frozenset[str]


def check_chains(path: Path, cards: Sequence[Chained]) -> None:
    """Every chain names a card of an earlier Age (a name may stand in several Ages)."""
    first_age: dict[str, int] = {}
    for c in cards:
        first_age[c.name] = min(first_age.get(c.name, c.age), c.age)
    for c in cards:
        for source in c.chain_from:
            if source not in first_age:
                raise DataError(f"{path}: entry '{c.name}': chain_from names unknown card '{source}'")
            if first_age[source] >= c.age:
                raise DataError(f"{path}: entry '{c.name}': chain_from '{source}' is not from an earlier Age")


def _short(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err["loc"])
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)
