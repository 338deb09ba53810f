"""Checking a payment plan a player gives (which resources from whom) and pricing it."""

from app.engine.common.coverage import can_supply
from app.engine.common.payment.options import Seller, price
from app.engine.common.resources import N_RESOURCES, ZERO, Choices, Vector


def plan_is_feasible(
    cost: Vector, own_fixed: Vector, own_choices: Choices, sellers: tuple[Seller, ...], buys: tuple[Vector, ...]
) -> bool:
    """True when the player's own production plus these purchases covers cost.

    Purchases must be within each seller's production and limit and may not exceed the
    cost of any resource. Whether every unit bought is one the player lacks is
    needless_purchase's to say.
    """
    bought = list(ZERO)
    for seller, buy in zip(sellers, buys, strict=True):
        if seller.limit is not None and sum(buy) > seller.limit:
            return False
        if any(buy) and not can_supply(buy, seller.fixed, seller.choices):
            return False
        for r in range(N_RESOURCES):
            bought[r] += buy[r]
    if any(b > c for b, c in zip(bought, cost, strict=True)):
        return False
    rest = tuple(c - b for c, b in zip(cost, bought, strict=True))
    return can_supply(rest, own_fixed, own_choices)


def needless_purchase(cost: Vector, own_fixed: Vector, own_choices: Choices, buys: tuple[Vector, ...]) -> int | None:
    """A resource of which one unit bought could come from the player's own production instead
    (None: every unit bought is needed). One buys only what one lacks: a needless purchase would
    hand a neighbour coins for nothing."""
    bought = [sum(column) for column in zip(*buys, strict=True)] if buys else list(ZERO)
    for r in range(N_RESOURCES):
        if bought[r]:
            rest = tuple(c - b + (i == r) for i, (c, b) in enumerate(zip(cost, bought, strict=True)))
            if can_supply(rest, own_fixed, own_choices):
                return r
    return None


def plan_coins(sellers: tuple[Seller, ...], buys: tuple[Vector, ...]) -> tuple[int, ...]:
    return tuple(price(buy, s.prices) for s, buy in zip(sellers, buys, strict=True))
