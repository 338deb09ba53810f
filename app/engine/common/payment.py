"""The payment solver: every non-dominated way to pay a resource cost.

A player covers a cost with their own production (fixed and choice), then buys what is
missing from sellers (neighbours in classic, the bank in Duel through per-resource
prices). Each seller has its own per-resource price and may cap the units it sells.
The answer lists, for each non-dominated vector of coins paid to the sellers, one
concrete plan (which resources come from whom), cheapest first. An option is dominated
when another costs at most as much to every seller.

This is the engine's hot path, so results are memoised on their (hashable) inputs.
"""

from collections.abc import Sequence
from itertools import product
from operator import add, le, mul, sub
from typing import Any, NamedTuple

from app.engine.common.coverage import can_supply
from app.engine.common.resources import N_RESOURCES, RESOURCES, ZERO, Vector

Choices = tuple[tuple[int, ...], ...]


class Seller(NamedTuple):
    fixed: Vector
    choices: Choices
    prices: Vector
    limit: int | None = None  # most units this seller may sell for one payment
    # derived from fixed and choices; a caller that keeps them up to date may pass them in
    supply: Vector | None = None  # fixed plus one unit of every option of every choice card
    masks: tuple[int, ...] | None = None  # bit masks of the choice cards with several options


class PaymentOption(NamedTuple):
    coins: tuple[int, ...]  # coins paid to each seller, in the sellers' order
    buys: tuple[Vector, ...]  # resources bought from each seller
    named: tuple[tuple[tuple[str, int], ...], ...]  # the buys as (resource, count) pairs
    total: int  # all coins paid


def _option(coins: tuple[int, ...], buys: tuple[Vector, ...]) -> PaymentOption:
    return PaymentOption(coins, buys, tuple(map(_named, buys)), sum(coins))


_NAMES: dict[Vector, tuple[tuple[str, int], ...]] = {}


def _named(buy: Vector) -> tuple[tuple[str, int], ...]:
    """The resource vector as (name, count) pairs, in resource order."""
    found = _NAMES.get(buy)
    if found is None:
        found = _NAMES[buy] = tuple((RESOURCES[r], n) for r, n in enumerate(buy) if n)
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
    return _free(sellers)[0]


_CACHE: dict[tuple, tuple[PaymentOption, ...]] = {}  # coupled problems, by (need, market)
_FRONTS: dict[tuple, tuple[PaymentOption, ...]] = {}  # one resource, or a sum of such
_MARKETS: dict[tuple, int] = {}
_CACHE_LIMIT = 200_000


class Market:
    """What one player can pay with at one moment: their production and their sellers.

    Build one per player and turn and ask it for the options of every cost. Most costs
    split into independent resources (no choice card offers two of the missing ones);
    those are answered from small per-resource fronts. The rest go to the full search.
    """

    __slots__ = (
        "_key",
        "_memo",
        "_own",
        "_own_masks",
        "_per_resource",
        "_reach",
        "_seller_masks",
        "choices",
        "fixed",
        "notes",
        "sellers",
    )

    def __init__(
        self,
        own_fixed: Vector,
        own_choices: Choices,
        sellers: tuple[Seller, ...],
        own_supply: Vector | None = None,
        own_masks: tuple[int, ...] | None = None,
    ) -> None:
        """own_supply and own_masks are derived from own_choices (as in Seller); pass them if kept."""
        self.fixed = own_fixed
        self.choices = own_choices
        self.sellers = sellers
        self._key: int | None = None
        self._memo: dict[Vector, tuple[PaymentOption, ...]] = {}
        self.notes: dict[str, Any] = {}  # what callers derive from this market alone, by their name
        self._own = own_supply if own_supply is not None else supply_of(ZERO, own_choices)
        # per resource: each seller's supply (fixed plus choice cards offering it) and price
        supplies = [s.supply if s.supply is not None else supply_of(s.fixed, s.choices) for s in sellers]
        by_resource = zip(*supplies, strict=True)
        prices = zip(*[s.prices for s in sellers], strict=True)
        self._per_resource = list(zip(by_resource, prices, strict=True))
        # the most of each resource that own choice cards and sellers could ever add: a cost
        # missing more than that cannot be paid, whatever the plan
        self._reach = _reach(self._own, sellers, supplies)
        self._own_masks = own_masks if own_masks is not None else masks_of(own_choices)
        seller_masks: tuple[int, ...] = ()
        for s in sellers:
            seller_masks += s.masks if s.masks is not None else masks_of(s.choices)
        # with a seller limit, resources compete for the limit: always search
        self._seller_masks = seller_masks if all(s.limit is None for s in sellers) else None

    def options(self, cost: Vector, items: tuple[tuple[int, int], ...] | None = None) -> tuple[PaymentOption, ...]:
        """All non-dominated ways to cover cost, cheapest first; empty when it cannot be covered.

        items, if given, lists cost's non-zero entries as (resource index, count): a shortcut.
        """
        found = self._memo.get(cost)
        if found is None:
            if items is None:
                items = tuple((r, n) for r, n in enumerate(cost) if n)
            found = self._memo[cost] = self._solve(items)
        return found

    def shortfall(self, cost: Vector) -> Vector:
        """Per resource, the units of cost that own production and the sellers could never supply.

        Each resource is taken alone, as in the quick test `options` starts with: own fixed
        production, every choice card offering it, every seller's supply within its limit. A
        choice card counts for each resource it offers, so this is a lower bound of what is
        missing: all zeros do not mean the cost can be paid (choice cards and limits couple
        resources).
        """
        return tuple(c - f - r if c > f + r else 0 for c, f, r in zip(cost, self.fixed, self._reach, strict=True))

    def _solve(self, items: tuple[tuple[int, int], ...]) -> tuple[PaymentOption, ...]:
        fixed = self.fixed
        reach = self._reach
        mask = 0
        missing = []
        for r, count in items:
            n = count - fixed[r]
            if n > 0:
                if n > reach[r]:
                    return ()
                mask |= 1 << r
                missing.append((r, n))
        if not mask:
            return _free(len(self.sellers))
        seller_masks = self._seller_masks
        if seller_masks is not None and not _couples(seller_masks, mask):
            if not _couples(self._own_masks, mask):
                return self._independent(missing, self._own)
            return self._own_choices_first(missing)
        need = [0] * N_RESOURCES
        for r, n in missing:
            need[r] = n
        if self._key is None:
            market = (self.choices, self.sellers)
            self._key = _MARKETS.get(market)
            if self._key is None:
                _bound()
                self._key = _MARKETS[market] = len(_MARKETS)
        key = (tuple(need), self._key)
        found = _CACHE.get(key)
        if found is None:
            found = _CACHE[key] = _solve(key[0], self.choices, self.sellers, _free(len(self.sellers))[0])
        return found

    def _own_choices_first(self, missing: list[tuple[int, int]]) -> tuple[PaymentOption, ...]:
        """Own choice cards couple resources, sellers' do not: try each way to set the own cards,
        then buy each resource on its own."""
        need = [0] * N_RESOURCES
        for r, n in missing:
            need[r] = n
        plans: dict[tuple[int, ...], tuple[Vector, ...]] = {}
        no_own = (0,) * N_RESOURCES
        for deficit in _minimal_deficits(tuple(need), self.choices):
            left = [(r, n) for r, n in enumerate(deficit) if n]
            for option in self._independent(left, no_own):
                plans.setdefault(option.coins, option.buys)
        return _ordered(plans)

    def _independent(self, missing: list[tuple[int, int]], own: Sequence[int]) -> tuple[PaymentOption, ...]:
        """No choice card offers two missing resources: each resource is bought on its own,
        after the own choice cards offering it (own: how many per resource)."""
        keys = []
        for r, short in missing:
            n = short - own[r]
            if n > 0:
                keys.append((r, n, *self._per_resource[r]))
        if not keys:
            return _free(len(self.sellers))
        if len(keys) == 1:
            return _resource_front(keys[0])
        whole = tuple(keys)
        found = _FRONTS.get(whole)
        if found is None:
            fronts = [_resource_front(key) for key in keys]
            found = fronts[0]
            for front in fronts[1:]:
                found = _sum_fronts(found, front)
            _bound()
            _FRONTS[whole] = found
        return found


def _reach(own: Vector, sellers: tuple[Seller, ...], supplies: list[Vector]) -> Vector:
    """The most of each resource that own choice cards and all sellers together could add."""
    if not sellers:
        return own
    capped = [
        supply if seller.limit is None else tuple(min(n, seller.limit) for n in supply)
        for seller, supply in zip(sellers, supplies, strict=True)
    ]
    return tuple(map(add, own, map(sum, zip(*capped, strict=True))))


def _couples(masks: tuple[int, ...], mask: int) -> bool:
    """Whether a choice card offers two of the resources in mask."""
    for m in masks:  # noqa: SIM110 (a loop is faster than any() over a generator here)
        if (m & mask).bit_count() > 1:
            return True
    return False


def _bound() -> None:
    if len(_MARKETS) + len(_CACHE) + len(_FRONTS) >= _CACHE_LIMIT:
        _MARKETS.clear()
        _CACHE.clear()
        _FRONTS.clear()
        _NAMES.clear()


def supply_of(fixed: Vector, choices: Choices) -> Vector:
    """Fixed production plus one unit of every option of every choice card."""
    supply = list(fixed)
    for options in choices:
        for r in options:
            supply[r] += 1
    return tuple(supply)


def masks_of(choices: Choices) -> tuple[int, ...]:
    """Bit masks of the choice cards with several options (those that can couple resources)."""
    return tuple(_mask(options) for options in choices if len(options) > 1)


def _mask(options: tuple[int, ...]) -> int:
    out = 0
    for r in options:
        out |= 1 << r
    return out


def _resource_front(key: tuple) -> tuple[PaymentOption, ...]:
    """Ways to buy count units of resource r from sellers with these supplies and prices."""
    found = _FRONTS.get(key)
    if found is None:
        r, count, supply, prices = key
        plans: dict[tuple[int, ...], tuple[Vector, ...]] = {}
        for split in _splits(count, [min(count, n) for n in supply], 0):
            coins = tuple(map(mul, split, prices))
            plans.setdefault(coins, tuple(_unit(r, k) for k in split))
        found = _FRONTS[key] = _ordered(plans)
    return found


def _sum_fronts(a: tuple[PaymentOption, ...], b: tuple[PaymentOption, ...]) -> tuple[PaymentOption, ...]:
    """Every way to buy both (a and b concern different resources), non-dominated, cheapest first."""
    if len(a) == 1:  # a translation keeps the front and its order
        return tuple(_plus(a[0], y) for y in b)
    if len(b) == 1:
        return tuple(_plus(x, b[0]) for x in a)
    pairs: dict[tuple[int, ...], tuple[PaymentOption, PaymentOption]] = {}
    for x in a:
        for y in b:
            pairs.setdefault(tuple(map(add, x.coins, y.coins)), (x, y))
    front = _pareto(list(pairs))  # only the pairs on the front become options
    front.sort(key=_cheapest_first)
    return tuple(_plus(*pairs[coins]) for coins in front)


def _cheapest_first(coins: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return sum(coins), coins


def _plus(x: PaymentOption, y: PaymentOption) -> PaymentOption:
    """Both purchases (of different resources, x's before y's in resource order)."""
    return PaymentOption(
        tuple(map(add, x.coins, y.coins)),
        tuple(map(_vector_sum, x.buys, y.buys)),
        tuple(map(add, x.named, y.named)),  # concatenation keeps the resource order
        x.total + y.total,
    )


def _vector_sum(u: Vector, v: Vector) -> Vector:
    return tuple(map(add, u, v))


def _ordered(plans: dict[tuple[int, ...], tuple[Vector, ...]]) -> tuple[PaymentOption, ...]:
    """The non-dominated plans, cheapest first."""
    front = _pareto(list(plans))
    front.sort(key=_cheapest_first)
    return tuple(_option(coins, plans[coins]) for coins in front)


def payment_options(
    cost: Vector, own_fixed: Vector, own_choices: Choices, sellers: tuple[Seller, ...]
) -> tuple[PaymentOption, ...]:
    """All non-dominated ways to cover cost; empty when it cannot be covered at all."""
    return Market(own_fixed, own_choices, sellers).options(cost)


_FREE: dict[int, tuple[PaymentOption, ...]] = {}


def _free(sellers: int) -> tuple[PaymentOption, ...]:
    found = _FREE.get(sellers)
    if found is None:
        found = _FREE[sellers] = (_option((0,) * sellers, (ZERO,) * sellers),)
    return found


def _splits(count: int, supply: list[int], j: int):
    """Every way to take count units from sellers j.. within their supply."""
    if j == len(supply) - 1:
        if count <= supply[j]:
            yield (count,)
        return
    rest = sum(supply[j + 1 :])
    for k in range(max(0, count - rest), min(count, supply[j]) + 1):
        for tail in _splits(count - k, supply, j + 1):
            yield (k, *tail)


def _unit(r: int, k: int) -> Vector:
    return ZERO[:r] + (k,) + ZERO[r + 1 :] if k else ZERO


def _solve(
    need: Vector, own_choices: Choices, sellers: tuple[Seller, ...], free: PaymentOption
) -> tuple[PaymentOption, ...]:
    deficits = _minimal_deficits(need, own_choices)
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
    return _ordered(plans)


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


def _independent(need: Vector, sellers: tuple[Seller, ...], supplies: list[list[int]]):
    """Each needed resource is bought independently: combine per-resource splits, keeping the front."""
    zero = (0,) * len(sellers)
    front: dict[tuple[int, ...], tuple] = {zero: ()}
    for r, count in enumerate(need):
        if not count:
            continue
        supply = [min(count, s[r]) for s in supplies]
        splits = list(_splits(count, supply, 0))
        if not splits:
            return []
        grown: dict[tuple[int, ...], tuple] = {}
        for coins, plan in front.items():
            for split in splits:
                total = tuple(c + k * s.prices[r] for c, k, s in zip(coins, split, sellers, strict=True))
                if total not in grown:
                    grown[total] = (*plan, (r, split))
        front = {c: grown[c] for c in _pareto(list(grown))}
    out = []
    for coins, plan in front.items():
        buys = [[0] * N_RESOURCES for _ in sellers]
        for r, split in plan:
            for j, k in enumerate(split):
                buys[j][r] = k
        out.append((coins, tuple(tuple(b) for b in buys)))
    return out


def _minimal_deficits(need: Vector, own_choices: Choices) -> list[Vector]:
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


def _leq(a: Vector, b: Vector) -> bool:
    return all(map(le, a, b))


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
    most = max(map(sum, caps))  # maximal caps all hold as many units (as in _minimal_deficits)
    return [c for c in caps if sum(c) == most]


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
            rest = tuple(map(sub, rem, buy))
            price = _price(buy, seller.prices)
            for coins, buys in _buy_plans(rest, sellers, j + 1):
                yield (price, *coins), (buy, *buys)


def _sub_vectors(cap: Vector):
    ranges = [range(n + 1) for n in cap]
    return product(*ranges)


def _price(buy: Vector, prices: Vector) -> int:
    return sum(map(mul, buy, prices))


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
