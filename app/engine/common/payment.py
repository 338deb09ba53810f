"""The payment solver: every non-dominated way to pay a resource cost.

A player covers a cost with their own production (fixed and choice), then buys what is
missing from sellers (neighbours in classic, the bank in Duel through per-resource
prices). Each seller has its own per-resource price and may cap the units it sells.
The answer lists, for each non-dominated vector of coins paid to the sellers, one
concrete plan (which resources come from whom), cheapest first. An option is dominated
when another costs at most as much to every seller.

This is the engine's hot path, so results are memoised on their (hashable) inputs.
"""

from itertools import product
from typing import NamedTuple

from app.engine.common.coverage import can_supply
from app.engine.common.resources import N_RESOURCES, ZERO, Vector

Choices = tuple[tuple[int, ...], ...]


class Seller(NamedTuple):
    fixed: Vector
    choices: Choices
    prices: Vector
    limit: int | None = None  # most units this seller may sell for one payment


class PaymentOption(NamedTuple):
    coins: tuple[int, ...]  # coins paid to each seller, in the sellers' order
    buys: tuple[Vector, ...]  # resources bought from each seller

    @property
    def total(self) -> int:
        return sum(self.coins)


_CACHE: dict[tuple, tuple[PaymentOption, ...]] = {}
_CACHE_LIMIT = 300_000


def payment_options(
    cost: Vector, own_fixed: Vector, own_choices: Choices, sellers: tuple[Seller, ...]
) -> tuple[PaymentOption, ...]:
    """All non-dominated ways to cover cost; empty when it cannot be covered at all."""
    need = tuple(c - f if c > f else 0 for c, f in zip(cost, own_fixed, strict=True))
    free = PaymentOption((0,) * len(sellers), (ZERO,) * len(sellers))
    if not any(need):
        return (free,)
    key = (need, own_choices, sellers)
    found = _CACHE.get(key)
    if found is None:
        found = _solve(need, own_choices, sellers, free)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _solve(
    need: Vector, own_choices: Choices, sellers: tuple[Seller, ...], free: PaymentOption
) -> tuple[PaymentOption, ...]:
    deficits = _minimal_deficits(need, own_choices)
    if ZERO in deficits:
        return (free,)
    plans: dict[tuple[int, ...], tuple[Vector, ...]] = {}
    for deficit in deficits:
        for coins, buys in _buy_plans(deficit, sellers, 0):
            plans.setdefault(coins, buys)
    front = _pareto(list(plans))
    front.sort(key=lambda coins: (sum(coins), coins))
    return tuple(PaymentOption(coins, plans[coins]) for coins in front)


def _minimal_deficits(need: Vector, own_choices: Choices) -> list[Vector]:
    """What may still be missing after the player's own choice production, minimal ones only."""
    deficits = {need}
    for options in own_choices:
        grown = set(deficits)
        for d in deficits:
            for r in options:
                if d[r]:
                    grown.add(d[:r] + (d[r] - 1,) + d[r + 1 :])
        deficits = grown
    return [d for d in deficits if not any(o != d and _leq(o, d) for o in deficits)]


def _leq(a: Vector, b: Vector) -> bool:
    return all(x <= y for x, y in zip(a, b, strict=True))


def _supply_caps(seller: Seller, rem: Vector) -> list[Vector]:
    """What the seller could offer toward rem, one vector per way to set its choice cards."""
    caps = {tuple(min(f, r) for f, r in zip(seller.fixed, rem, strict=True))}
    for options in seller.choices:
        grown = set()
        for cap in caps:
            grown.add(cap)
            for r in options:
                if cap[r] < rem[r]:
                    grown.add(cap[:r] + (cap[r] + 1,) + cap[r + 1 :])
        caps = grown
    return [c for c in caps if not any(o != c and _leq(c, o) for o in caps)]


def _buy_plans(rem: Vector, sellers: tuple[Seller, ...], j: int):
    """Yield (coins per seller from j on, buys per seller from j on) covering rem exactly."""
    seller = sellers[j]
    if j == len(sellers) - 1:
        if seller.limit is not None and sum(rem) > seller.limit:
            return
        if can_supply(rem, seller.fixed, seller.choices):
            yield (_price(rem, seller.prices),), (rem,)
        return
    seen: set[Vector] = set()
    for cap in _supply_caps(seller, rem):
        for buy in _sub_vectors(cap):
            if buy in seen or (seller.limit is not None and sum(buy) > seller.limit):
                continue
            seen.add(buy)
            rest = tuple(r - b for r, b in zip(rem, buy, strict=True))
            price = _price(buy, seller.prices)
            for coins, buys in _buy_plans(rest, sellers, j + 1):
                yield (price, *coins), (buy, *buys)


def _sub_vectors(cap: Vector):
    ranges = [range(n + 1) for n in cap]
    return product(*ranges)


def _price(buy: Vector, prices: Vector) -> int:
    return sum(b * p for b, p in zip(buy, prices, strict=True) if b)


def _pareto(points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    if points and len(points[0]) == 2:
        points.sort()
        front, best = [], None
        for p in points:
            if best is None or p[1] < best:
                front.append(p)
                best = p[1]
        return front
    return [p for p in points if not any(q != p and _leq(q, p) for q in points)]


def plan_is_feasible(
    cost: Vector, own_fixed: Vector, own_choices: Choices, sellers: tuple[Seller, ...], buys: tuple[Vector, ...]
) -> bool:
    """True when the player's own production plus these purchases covers cost.

    Purchases must be within each seller's production and limit and may not exceed the
    cost of any resource (buying what is not needed is refused).
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


def plan_coins(sellers: tuple[Seller, ...], buys: tuple[Vector, ...]) -> tuple[int, ...]:
    return tuple(_price(buy, s.prices) for s, buy in zip(sellers, buys, strict=True))
