"""What the bots know of the box: every card, wonder stage, island and ship space, summed up once
from the engine's public description (`app.engine.describe_components()`) for valuing them.

The description gives each component's effects as dicts in the data's own vocabulary; `Effects`
sorts them the way the bots weigh them: the classic effects summed by type (points, shields,
coins, produced units, ...), each one counting something kept whole (`Per`), and the effects of
an expansion kept as the description gives them (`extra`, read by type in app.bots.armada). The
bots never read an effect's `text`: what an effect is worth is theirs to judge, its words are the
engine's.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.engine import describe_components

VICTORY = {1: 1, 2: 3, 3: 5}  # a military victory's points by Age (the base game's tokens)

EffectDict = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Per:
    """A coins_per or vp_per effect: `amount` per counted `what` in the cities of `whose`."""

    amount: int
    what: str  # card, wonder_stage, military_defeat_token
    whose: tuple[str, ...]  # self, left, right
    colors: tuple[str, ...] | None  # the colours of the counted cards


@dataclass(frozen=True, slots=True)
class Effects:
    """The effects of a card, wonder stage, island or ship space, summed up by type."""

    units: int = 0  # resource units produced every turn
    # those units by resource (not compared: `units` says how many, this only which)
    produced: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    choices: tuple[tuple[str, ...], ...] = ()  # each production of one of several resources
    vp: int = 0
    shields: int = 0
    science: str | None = None  # a science symbol, or "any"
    coins: int = 0
    discounts: int = 0  # how many trade discounts
    coins_per: tuple[Per, ...] = ()
    vp_per: tuple[Per, ...] = ()
    vp_if_wonder_complete: int = 0
    abilities: tuple[str, ...] = ()  # each ability once
    extra: tuple[EffectDict, ...] = ()  # an expansion's effects (Armada's), as described


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    color: str
    age: int  # its first Age (Loom, Glassworks and Press stand in two)
    chain_to_ages: tuple[int, ...]  # the Age of each card its chain makes free
    effects: Effects


@dataclass(frozen=True, slots=True)
class Wonder:
    name: str
    sides: dict[str, tuple[Effects, ...]]  # per side, the effects of stages 1, 2, ...


def summary(effects: Iterable[EffectDict]) -> Effects:
    """The effects of one component (the description's effect dicts) summed up by type."""
    units = vp = shields = coins = discounts = complete = 0
    produced: dict[str, int] = {}
    science: str | None = None
    choices: list[tuple[str, ...]] = []
    coins_per: list[Per] = []
    vp_per: list[Per] = []
    abilities: dict[str, None] = {}
    extra: list[EffectDict] = []
    for e in effects:
        match e["type"]:
            case "produce":
                units += sum(e["resources"].values())
                for resource, n in e["resources"].items():
                    produced[resource] = produced.get(resource, 0) + n
            case "produce_one_of":
                choices.append(tuple(e["options"]))
            case "vp":
                vp += e["amount"]
            case "shields":
                shields += e["amount"]
            case "science":
                science = e["symbol"]
            case "coins":
                coins += e["amount"]
            case "trade_discount":
                discounts += 1
            case "coins_per" | "vp_per":
                colors = e.get("colors")
                per = Per(e["amount"], e["what"], tuple(e["whose"]), None if colors is None else tuple(colors))
                (coins_per if e["type"] == "coins_per" else vp_per).append(per)
            case "vp_if_wonder_complete":
                complete += e["amount"]
            case "ability":
                abilities[e["ability"]] = None
            case _:
                extra.append(e)
    return Effects(
        units=units,
        produced=tuple(produced.items()),
        choices=tuple(choices),
        vp=vp,
        shields=shields,
        science=science,
        coins=coins,
        discounts=discounts,
        coins_per=tuple(coins_per),
        vp_per=tuple(vp_per),
        vp_if_wonder_complete=complete,
        abilities=tuple(abilities),
        extra=tuple(extra),
    )


@cache
def all_cards() -> dict[str, Card]:
    """Every card by name: the classic buildings and guilds, and Armada's cards."""
    box = describe_components()
    described = {**box["classic"]["cards"], **box["armada"]["cards"]}
    return {
        name: Card(
            name=name,
            color=card["color"],
            age=card["age"],
            chain_to_ages=tuple(described[target]["age"] for target in card["chain_to"]),
            effects=summary(card["effects"]),
        )
        for name, card in described.items()
    }


@cache
def all_wonders() -> dict[str, Wonder]:
    """Every wonder by name: the classic ones and Armada's (Siracusa)."""
    box = describe_components()
    wonders = {**box["classic"]["wonders"], **box["armada"]["wonders"]}
    return {
        name: Wonder(name, {side: tuple(summary(s["effects"]) for s in stages) for side, stages in w["sides"].items()})
        for name, w in wonders.items()
    }


@cache
def islands() -> dict[str, Effects]:
    """Every Armada island's effects by name."""
    return {name: summary(island["effects"]) for name, island in describe_components()["armada"]["islands"].items()}


@cache
def ship_spaces() -> dict[str, tuple[Effects, ...]]:
    """Per Armada ship track (red, yellow, blue, green), the effects of its spaces 1, 2, ..."""
    spaces = describe_components()["armada"]["ship_spaces"]
    return {track: tuple(summary(s["effects"]) for s in spaces[track]) for track in ship_tracks()}


@cache
def ship_tracks() -> tuple[str, ...]:
    return tuple(describe_components()["armada"]["ship_tracks"])


@cache
def science_symbols() -> tuple[str, str, str]:
    """The three science symbols of classic 7 Wonders (compass, gear, tablet)."""
    compass, gear, tablet = describe_components()["classic"]["science_symbols"]
    return compass, gear, tablet
