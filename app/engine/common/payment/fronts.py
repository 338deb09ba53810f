"""Costs whose missing resources no choice card couples: each resource is bought on its own
(a front of ways per resource) and the fronts are summed, keeping the non-dominated ones."""

from operator import add, le, mul

from app.engine.common.payment.caches import FRONTS
from app.engine.common.payment.options import PaymentOption, make_option, new_option
from app.engine.common.resources import ZERO, Vector


def resource_front(key: tuple) -> tuple[PaymentOption, ...]:
    """Ways to buy count units of resource r from sellers with these supplies and prices: key is
    (r, count, (each seller's supply of r, each seller's price of r))."""
    found = FRONTS.get(key)
    if found is None:
        r, count, (supply, prices) = key
        plans: dict[tuple[int, ...], tuple[Vector, ...]] = {}
        for split in splits(count, [min(count, n) for n in supply], 0):
            coins = tuple(map(mul, split, prices))
            plans.setdefault(coins, tuple(_unit(r, k) for k in split))
        found = FRONTS[key] = ordered(plans)
    return found


def splits(count: int, supply: list[int], j: int):
    """Every way to take count units from sellers j.. within their supply."""
    if j == len(supply) - 2:  # two sellers left (classic's neighbours): the recursion, written out
        rest = supply[j + 1]
        for k in range(max(0, count - rest), min(count, supply[j]) + 1):
            yield (k, count - k)
        return
    if j == len(supply) - 1:
        if count <= supply[j]:
            yield (count,)
        return
    rest = sum(supply[j + 1 :])
    for k in range(max(0, count - rest), min(count, supply[j]) + 1):
        for tail in splits(count - k, supply, j + 1):
            yield (k, *tail)


def _unit(r: int, k: int) -> Vector:
    return ZERO[:r] + (k,) + ZERO[r + 1 :] if k else ZERO


def sum_fronts(a: tuple[PaymentOption, ...], b: tuple[PaymentOption, ...]) -> tuple[PaymentOption, ...]:
    """Every way to buy both (a and b concern different resources), non-dominated, cheapest first."""
    if len(a) == 1:  # a translation keeps the front and its order
        x = a[0]
        return tuple([_plus(x, y) for y in b])
    if len(b) == 1:
        y = b[0]
        return tuple([_plus(x, y) for x in a])
    pairs: dict[tuple[int, ...], tuple[PaymentOption, PaymentOption]] = {}
    for x in a:
        for y in b:
            pairs.setdefault(tuple(map(add, x.coins, y.coins)), (x, y))
    front = cheapest_first(pareto(list(pairs)))  # only the pairs on the front become options
    return tuple([_plus(*pairs[coins]) for coins in front])


def cheapest_first(front: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The coin vectors (all different) by total, then by vector: a sort of (total, coins) pairs,
    without a Python key function called for each."""
    return [coins for _, coins in sorted([(sum(coins), coins) for coins in front])]


# Comprehensions and written-out pairs rather than map() over Python functions: on this hot path
# each call from C into a Python function costs more than the work it does.


def _plus(x: PaymentOption, y: PaymentOption) -> PaymentOption:
    """Both purchases (of different resources, x's before y's in resource order)."""
    if len(x.coins) == 2:  # two sellers (the classic game's neighbours), written out
        (xc0, xc1), (yc0, yc1) = x.coins, y.coins
        (xb0, xb1), (yb0, yb1) = x.buys, y.buys
        (xn0, xn1), (yn0, yn1) = x.named, y.named
        return new_option(
            (
                (xc0 + yc0, xc1 + yc1),
                (_vector_sum(xb0, yb0), _vector_sum(xb1, yb1)),
                (_merged(xn0, yn0), _merged(xn1, yn1)),
                x.total + y.total,
            )
        )
    return new_option(
        (
            tuple(map(add, x.coins, y.coins)),
            tuple([_vector_sum(u, v) for u, v in zip(x.buys, y.buys, strict=True)]),
            tuple([_merged(a, b) for a, b in zip(x.named, y.named, strict=True)]),
            x.total + y.total,
        )
    )


def _merged(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Both (of different resources, a's before b's in resource order: the merge keeps it)."""
    return {**a, **b} if a and b else a or b


def _vector_sum(u: Vector, v: Vector) -> Vector:
    if v == ZERO:  # most buys take nothing from one of the two
        return u
    if u == ZERO:
        return v
    return tuple(map(add, u, v))


def ordered(plans: dict[tuple[int, ...], tuple[Vector, ...]]) -> tuple[PaymentOption, ...]:
    """The non-dominated plans, cheapest first."""
    return tuple([make_option(coins, plans[coins]) for coins in cheapest_first(pareto(list(plans)))])


def pareto(points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    if points and len(points[0]) == 2:
        points.sort()
        front, best = [], None
        for p in points:
            if best is None or p[1] < best:
                front.append(p)
                best = p[1]
        return front
    return [p for p in points if not any(q != p and _leq(q, p) for q in points)]


def _leq(a: Vector, b: Vector) -> bool:
    return all(map(le, a, b))
