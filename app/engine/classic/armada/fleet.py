"""A player's shipyard (Fleet), the price of a naval step, and what a card does for the fleet."""

from functools import cache
from typing import Any

from app.engine.classic.armada.data import STEPS, TRACKS, ShipMove, StepCost
from app.engine.classic.data import CardDef, Effects, StageDef
from app.engine.classic.player import copy_slots
from app.engine.common.resources import N_RESOURCES, cost_items

TOP = STEPS  # the highest space of each track (ships start at 0)


class Fleet:
    """One player's shipyard: ship positions and what the fleets and islands give."""

    __slots__ = ("board", "ships", "naval", "commerce", "islands", "naval_tokens", "far", "flags", "coins_per_move")

    def __init__(self, board: int) -> None:
        self.board = board  # index into ArmadaData.shipyards
        self.ships = dict.fromkeys(TRACKS, 0)
        self.naval = 0  # naval strength
        self.commerce = 0  # commercial level
        self.islands: list[int] = []  # island ids, in the order kept
        self.naval_tokens: list[int] = []
        self.far: list[Any] = []  # the FarTrade effects of the Emporiums owned
        self.flags: set[str] = set()
        self.coins_per_move = 0

    def copy(self) -> "Fleet":
        return copy_slots(self)


def combined(card_cost: tuple, step: StepCost) -> StepCost:
    """A card's (or stage's) cost plus a naval step, paid with one payment plan."""
    cost, coins = card_cost
    total = tuple(a + b for a, b in zip(cost, step.cost, strict=True))
    return StepCost(total, coins + step.coin_cost, cost_items(total))


@cache
def discounted(step: StepCost) -> StepCost:
    """A naval step with one unit less of its most needed resource (or one coin less)."""
    cost = list(step.cost)
    if any(cost):
        cost[max(range(N_RESOURCES), key=lambda r: (cost[r], -r))] -= 1
        return StepCost(tuple(cost), step.coin_cost, cost_items(tuple(cost)))
    return StepCost(step.cost, max(0, step.coin_cost - 1), step.cost_items)


_COMBINED: dict[tuple[int, int], tuple[Any, StepCost, StepCost]] = {}  # by identity, the objects kept alive


def with_step(price: Any, step: StepCost) -> StepCost:
    """The price of a card or stage (None: free) together with a naval step, cached."""
    if price is None:
        return step
    key = (id(price), id(step))
    found = _COMBINED.get(key)
    if found is None or found[0] is not price or found[1] is not step:
        found = _COMBINED[key] = (price, step, combined((price.cost, price.coin_cost), step))
    return found[2]


WONDER_TRACK = "wonder"  # a stage's naval step: the track its shipyard names for the wonder
_TRAITS: dict[int, tuple[CardDef | StageDef, str | None, ShipMove | None]] = {}  # by identity, kept alive


def naval_traits(source: CardDef | StageDef) -> tuple[CardDef | StageDef, str | None, ShipMove | None]:
    """(source, the track its naval step advances, its free ship move), cached: a card's track is
    its colour's (if it has one), a stage's WONDER_TRACK (its shipyard's wonder track)."""
    found = _TRAITS.get(id(source))
    if found is None or found[0] is not source:
        track = WONDER_TRACK if type(source) is not CardDef else source.color if source.color in TRACKS else None
        found = _TRAITS[id(source)] = (source, track, ship_move_of(source.effects))
    return found


def ship_move_of(effects: Effects) -> ShipMove | None:
    for e in effects.extra:
        if isinstance(e, ShipMove):
            return e
    return None
