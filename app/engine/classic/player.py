"""One city of the classic game: its cards, wonder, coins and what they produce."""

from collections.abc import Callable
from typing import Any, TypeVar

from app.engine.classic.data import CardDef, Effects, StageDef, WonderDef
from app.engine.common.payment import masks_of, supply_of
from app.engine.common.resources import INDEX, N_RESOURCES, ZERO, Choices, Vector, add

LEFT, RIGHT = 0, 1
SIDE_NAMES = ("left", "right")
TRADE_PRICE = 2
SYMBOLS = {"compass": 0, "gear": 1, "tablet": 2, "any": 3}
T = TypeVar("T")


class Player:
    __slots__ = (
        "seat",
        "wonder",
        "side",
        "stages",
        "coins",
        "city",
        "names",
        "colors",
        "stages_built",
        "built_stages",
        "tucked",
        "tokens",
        "shields",
        "science",
        "fixed",
        "choices",
        "trade_fixed",
        "trade_choices",
        "supply",
        "masks",
        "trade_supply",
        "trade_masks",
        "prices",
        "abilities",
    )

    def __init__(self, seat: int, wonder: WonderDef, side: str, coins: int) -> None:
        self.seat = seat
        self.wonder = wonder
        self.side = side
        self.stages: tuple[StageDef, ...] = wonder.sides[side]
        self.coins = coins
        self.city: list[int] = []  # card instance ids, in build order
        self.names: set[str] = set()
        self.colors: dict[str, int] = {}
        self.stages_built = 0
        self.built_stages: list[int] = []  # stage indexes in build order (any-order wonders)
        self.tucked: list[int] = []
        self.tokens: list[int] = []  # military conflict tokens
        self.shields = 0
        self.science = [0, 0, 0, 0]  # compass, gear, tablet, any
        start = [0] * N_RESOURCES
        start[INDEX[wonder.starting_resource]] = 1
        self.fixed: Vector = tuple(start)
        self.choices: Choices = ()
        self.trade_fixed: Vector = tuple(start)  # what neighbours may buy
        self.trade_choices: Choices = ()
        # derived from the choice cards, kept for the payment solver (see payment.Seller)
        self.supply: Vector = ZERO
        self.masks: tuple[int, ...] = ()
        self.trade_supply: Vector = self.trade_fixed
        self.trade_masks: tuple[int, ...] = ()
        self.prices: list[Vector] = [(TRADE_PRICE,) * N_RESOURCES, (TRADE_PRICE,) * N_RESOURCES]
        self.abilities: set[str] = set()

    def copy(self) -> "Player":
        return copy_slots(self)

    def add_card(self, card_id: int, card: CardDef) -> None:
        self.city.append(card_id)
        self.names.add(card.name)
        self.colors[card.color] = self.colors.get(card.color, 0) + 1
        self.gain(card.effects)

    def add_stage(self, index: int, card_id: int) -> None:
        self.tucked.append(card_id)
        self.stages_built += 1
        self.built_stages.append(index)
        self.gain(self.stages[index].effects)

    def gain(self, effects: Effects) -> None:
        """Add the lasting effects of a card or stage (production, shields, science, discounts)."""
        if effects.produces:
            self.fixed = add(self.fixed, effects.produce)
            if effects.tradable:
                self.trade_fixed = add(self.trade_fixed, effects.produce)
                self.trade_supply = add(self.trade_supply, effects.produce)
        if effects.choices:
            self.choices = self.choices + effects.choices
            self.supply = supply_of(self.supply, effects.choices)
            self.masks = self.masks + masks_of(effects.choices)
            if effects.tradable:
                self.trade_choices = self.trade_choices + effects.choices
                self.trade_supply = supply_of(self.trade_supply, effects.choices)
                self.trade_masks = self.trade_masks + masks_of(effects.choices)
        self.shields += effects.shields
        if effects.science:
            self.science[SYMBOLS[effects.science]] += 1
        for discount in effects.discounts:
            for side_name in discount.sides:
                side = SIDE_NAMES.index(side_name)
                prices = list(self.prices[side])
                for r in discount.resources:
                    prices[INDEX[r]] = min(prices[INDEX[r]], discount.price)
                self.prices[side] = tuple(prices)
        if effects.abilities:
            self.abilities |= effects.abilities

    def next_stage(self) -> int | None:
        """Index of the next stage to build, or None when the wonder is complete."""
        return self.stages_built if self.stages_built < len(self.stages) else None

    @property
    def wonder_complete(self) -> bool:
        return self.stages_built == len(self.stages)


def copy_slots(state: T) -> T:
    """A copy of a __slots__ object whose lists, sets and dicts are copies too (their items,
    and every other value, are immutable or shared on purpose)."""
    copier = _COPIERS.get(type(state))
    if copier is None:
        copier = _COPIERS[type(state)] = _copier(state)
    return copier(state)


_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copier(state: object) -> Callable[[Any], Any]:
    """A copy function written out for the class's slots, as dataclasses write their methods: one
    attribute store per slot runs several times faster than a loop of getattr and setattr. A slot
    keeps the kind of value its constructor gives it: lists, sets and dicts are copied."""
    cls = type(state)
    lines = ["def copy(state):", "    other = new(cls)"]
    for name in cls.__slots__:  # type: ignore[attr-defined]
        if type(getattr(state, name)) in (list, set, dict):
            lines.append(f"    other.{name} = state.{name}.copy()")
        else:
            lines.append(f"    other.{name} = state.{name}")
    lines.append("    return other")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # the source names only the class's own slots
    return namespace["copy"]
