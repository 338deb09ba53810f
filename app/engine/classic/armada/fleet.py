"""A player's shipyard (Fleet), the price of a naval step, and what a card does for the fleet."""

from functools import cache
from typing import Any

from app.engine.classic.armada.data import STEPS, TRACKS, ShipMove, StepCost
from app.engine.classic.data import CardDef, Effects
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


_TRAITS: dict[int, tuple[CardDef, str | None, ShipMove | None]] = {}  # by identity, the card kept alive


def naval_traits(card: CardDef) -> tuple[str | None, ShipMove | None]:
    """The track a card's naval step advances (its colour's, if it has one) and its free ship move."""
    found = _TRAITS.get(id(card))
    if found is None or found[0] is not card:
        track = card.color if card.color in TRACKS else None
        found = _TRAITS[id(card)] = (card, track, ship_move_of(card.effects))
    return found[1], found[2]


def ship_move_of(effects: Effects) -> ShipMove | None:
    for e in effects.extra:
        if isinstance(e, ShipMove):
            return e
    return None
