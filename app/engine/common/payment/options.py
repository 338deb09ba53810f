"""What the payment solver is asked (sellers) and answers (payment options)."""

from collections.abc import Callable
from functools import partial
from operator import mul
from typing import Any, NamedTuple

from app.engine.common.resources import RESOURCES, ZERO, Choices, Vector


class Seller(NamedTuple):
    fixed: Vector
    choices: Choices
    prices: Vector
    limit: int | None = None  # most units this seller may sell for one payment
    # derived from fixed and choices; a caller that keeps them up to date may pass them in
    supply: Vector | None = None  # fixed plus one unit of every option of every choice card
    masks: tuple[int, ...] | None = None  # bit masks of the choice cards with several options


class Plan(NamedTuple):
    """A way to buy what is missing: coins paid to and resources bought from each seller."""

    coins: tuple[int, ...]
    buys: tuple[Vector, ...]


class PaymentOption(NamedTuple):
    coins: tuple[int, ...]  # coins paid to each seller, in the sellers' order
    buys: tuple[Vector, ...]  # resources bought from each seller
    # the buys as {resource: count}, in resource order: shared by every option buying the same,
    # so read-only (an action copies it with {**named[i]}, several times faster than dict(pairs))
    named: tuple[dict[str, int], ...]
    total: int  # all coins paid


# PaymentOption(coins, buys, named, total) without the namedtuple's Python-level __new__ (the
# solver's hot path: a call from C into Python costs more than the tuple itself)
new_option: Callable[[tuple[Any, ...]], PaymentOption] = partial(tuple.__new__, PaymentOption)

# the fields' indexes, for the hot paths: reading a NamedTuple's field by name is a slower descriptor lookup
COINS, BUYS, NAMED, TOTAL = range(4)


def make_option(coins: tuple[int, ...], buys: tuple[Vector, ...]) -> PaymentOption:
    return new_option((coins, buys, tuple([_named(buy) for buy in buys]), sum(coins)))


NAMES: dict[Vector, dict[str, int]] = {}


def _named(buy: Vector) -> dict[str, int]:
    """The resource vector as {name: count}, in resource order (shared: never change it)."""
    found = NAMES.get(buy)
    if found is None:
        found = NAMES[buy] = {RESOURCES[r]: n for r, n in enumerate(buy) if n}
    return found


def affordable(options: tuple[PaymentOption, ...], budget: int) -> tuple[PaymentOption, ...]:
    """The options costing at most budget (options come cheapest first)."""
    if not options or options[-1].total <= budget:
        return options
    for i, option in enumerate(options):
        if option.total > budget:
            return options[:i]
    return options


def free_option(sellers: int) -> PaymentOption:
    """Paying nothing to anyone."""
    return free_options(sellers)[0]


FREE_OPTIONS: dict[int, tuple[PaymentOption, ...]] = {}  # free_options' answers, by number of sellers


def free_options(sellers: int) -> tuple[PaymentOption, ...]:
    found = FREE_OPTIONS.get(sellers)
    if found is None:
        found = FREE_OPTIONS[sellers] = (make_option((0,) * sellers, (ZERO,) * sellers),)
    return found


def price(buy: Vector, prices: Vector) -> int:
    return sum(map(mul, buy, prices))
