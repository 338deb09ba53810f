"""The full search, for costs whose resources choice cards (own or sellers') or seller limits couple."""

from collections.abc import Iterator
from itertools import product
from operator import sub

from app.engine.common.coverage import can_supply
from app.engine.common.payment.fronts import ordered, pareto, splits
from app.engine.common.payment.options import PaymentOption, Plan, Seller, price
from app.engine.common.resources import N_RESOURCES, ZERO, Choices, Vector

PlanPair = tuple[tuple[int, ...], tuple[Vector, ...]]  # a Plan's (coins, buys), as a plain tuple


def full_search(
    need: Vector, own_choices: Choices, sellers: tuple[Seller, ...], free: PaymentOption
) -> tuple[PaymentOption, ...]:
    deficits = minimal_deficits(need, own_choices)
    if ZERO in deficits:
        return (free,)
    plans: dict[tuple[int, ...], tuple[Vector, ...]] = {}
    for deficit in deficits:
        supplies = [_single_supplies(s, deficit) for s in sellers]
        if all(supply is not None for supply in supplies):
            found = _independent(deficit, sellers, supplies)  # type: ignore[arg-type]
        else:
            found = _buy_plans(deficit, sellers, 0)
        for coins, buys in found:
            plans.setdefault(coins, buys)
    return ordered(plans)


def _single_supplies(seller: Seller, need: Vector) -> list[int] | None:
    """The seller's supply of each needed resource when no choice card couples two of them.

    A choice card offering only one of the needed resources is just one more unit of it;
    None means some choice card offers two needed resources (the general search is needed)
    or the seller has a limit.
    """
    if seller.limit is not None:
        return None
    supply = list(seller.fixed)
    for options in seller.choices:
        useful = [r for r in options if need[r]]
        if len(useful) > 1:
            return None
        if useful:
            supply[useful[0]] += 1
    return supply


def _independent(need: Vector, sellers: tuple[Seller, ...], supplies: list[list[int]]) -> list[Plan]:
    """Each needed resource is bought independently: combine per-resource splits, keeping the front."""
    zero = (0,) * len(sellers)
    front: dict[tuple[int, ...], tuple] = {zero: ()}
    for r, count in enumerate(need):
        if not count:
            continue
        supply = [min(count, s[r]) for s in supplies]
        ways = list(splits(count, supply, 0))
        if not ways:
            return []
        grown: dict[tuple[int, ...], tuple] = {}
        for coins, plan in front.items():
            for split in ways:
                total = tuple(c + k * s.prices[r] for c, k, s in zip(coins, split, sellers, strict=True))
                if total not in grown:
                    grown[total] = (*plan, (r, split))
        front = {c: grown[c] for c in pareto(list(grown))}
    out = []
    for coins, plan in front.items():
        buys = [[0] * N_RESOURCES for _ in sellers]
        for r, split in plan:
            for j, k in enumerate(split):
                buys[j][r] = k
        out.append(Plan(coins, tuple(tuple(b) for b in buys)))
    return out


def minimal_deficits(need: Vector, own_choices: Choices) -> list[Vector]:
    """What may still be missing after the player's own choice production, minimal ones only.

    The units the choice cards can cover together form a transversal matroid, so every
    maximal covering covers the same number of units: the minimal deficits are exactly the
    reachable ones with the smallest total (no pairwise comparison needed).
    """
    deficits = {need}
    for options in own_choices:
        grown = set(deficits)
        for d in deficits:
            for r in options:
                if d[r]:
                    grown.add(d[:r] + (d[r] - 1,) + d[r + 1 :])
        deficits = grown
    least = min(map(sum, deficits))
    return [d for d in deficits if sum(d) == least]


def _supply_caps(seller: Seller, rem: Vector) -> list[Vector]:
    """What the seller could offer toward rem, one vector per way to set its choice cards."""
    caps = {tuple(map(min, seller.fixed, rem))}
    for options in seller.choices:
        grown = set()
        for cap in caps:
            grown.add(cap)
            for r in options:
                if cap[r] < rem[r]:
                    grown.add(cap[:r] + (cap[r] + 1,) + cap[r + 1 :])
        caps = grown
    most = max(map(sum, caps))  # maximal caps all hold as many units (as in minimal_deficits)
    return [c for c in caps if sum(c) == most]


def _buy_plans(rem: Vector, sellers: tuple[Seller, ...], j: int) -> Iterator[PlanPair]:
    """Yield the plans of sellers j.. (coins and buys of each, from j on) covering rem exactly, as
    (coins, buys) pairs: as a Plan, but plain tuples, made at every level of the recursion."""
    seller = sellers[j]
    if j == len(sellers) - 1:
        if seller.limit is not None and sum(rem) > seller.limit:
            return
        if can_supply(rem, seller.fixed, seller.choices):
            yield (price(rem, seller.prices),), (rem,)
        return
    least = _least_bought(rem, sellers[j + 1 :])
    seen: set[Vector] = set()
    for cap in _supply_caps(seller, rem):
        for buy in _sub_vectors(cap, least):
            if buy in seen or (seller.limit is not None and sum(buy) > seller.limit):
                continue
            seen.add(buy)
            rest = tuple(map(sub, rem, buy))
            paid = price(buy, seller.prices)
            for coins, buys in _buy_plans(rest, sellers, j + 1):
                yield (paid, *coins), (buy, *buys)


def _least_bought(rem: Vector, later: tuple[Seller, ...]) -> list[int]:
    """Per resource, the least this seller must sell: what the later sellers together could never
    supply (fixed production plus every choice card offering it). A smaller buy has no plan."""
    supply = [0] * len(rem)
    for seller in later:
        for r, n in enumerate(seller.fixed):
            supply[r] += n
        for options in seller.choices:
            for r in options:
                supply[r] += 1
    return [n - s if n > s else 0 for n, s in zip(rem, supply, strict=True)]


def _sub_vectors(cap: Vector, least: list[int]):
    """Every vector between least and cap, in the order of product (an empty range: none)."""
    ranges = [range(low, n + 1) for n, low in zip(cap, least, strict=True)]
    return product(*ranges)
