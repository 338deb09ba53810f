"""Market: what one player can pay with at one moment, answering the options of every cost."""

from collections.abc import Sequence
from operator import add
from typing import Any

from app.engine.common.payment.caches import FRONTS, MARKET_IDS, MARKETS, SOLVED, bound
from app.engine.common.payment.fronts import cheapest_first, pareto, resource_front, sum_fronts
from app.engine.common.payment.options import PaymentOption, Seller, free_options
from app.engine.common.payment.search import full_search, minimal_deficits
from app.engine.common.resources import N_RESOURCES, ZERO, Choices, Vector


class Market:
    """What one player can pay with at one moment: their production and their sellers.

    Build one per player and turn and ask it for the options of every cost. Most costs
    split into independent resources (no choice card offers two of the missing ones);
    those are answered from small per-resource fronts. The rest go to the full search.
    """

    __slots__ = (
        "_free",
        "_key",
        "_memo",
        "_own",
        "_own_masks",
        "_per_resource",
        "_prices",
        "_supplies",
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
        # the answer when nothing is missing (always this tuple)
        self._free = free_options(len(sellers))
        self.notes: dict[str, Any] = {}  # what callers derive from this market alone, by their name
        self._own = own = own_supply if own_supply is not None else supply_of(ZERO, own_choices)
        self._own_masks = own_masks if own_masks is not None else masks_of(own_choices)
        supplies = []  # each seller's supply (fixed plus one unit of each option of its choice cards)
        prices = []
        seller_masks: tuple[int, ...] = ()
        limited = False
        for fixed, choices, price, limit, supply, masks in sellers:  # one loop: a Seller's fields are slow to read
            supplies.append(supply if supply is not None else supply_of(fixed, choices))
            prices.append(price)
            seller_masks += masks if masks is not None else masks_of(choices)
            limited = limited or limit is not None
        self._supplies = supplies
        self._prices = prices
        self._per_resource: list[tuple[Vector, Vector]] | None = None  # see per_resource: made when first needed
        # the most of each resource that own choice cards and sellers could ever add: a cost
        # missing more than that cannot be paid, whatever the plan
        if len(sellers) == 2 and not limited:  # classic's neighbours, written out
            reach = map(add, supplies[0], supplies[1])
            self._reach = tuple(map(add, own, reach) if own_choices else reach)  # no choice cards: own adds 0
        else:
            self._reach = _reach(own, sellers, supplies)
        # with a seller limit, resources compete for the limit: always search
        self._seller_masks = None if limited else seller_masks

    def options(self, cost: Vector, items: tuple[tuple[int, int], ...] | None = None) -> tuple[PaymentOption, ...]:
        """All non-dominated ways to cover cost, cheapest first; empty when it cannot be covered.

        items, if given, lists cost's non-zero entries as (resource index, count): a shortcut.
        """
        found = self._memo.get(cost)
        if found is not None:
            return found
        if items is None:
            items = tuple((r, n) for r, n in enumerate(cost) if n)
        # what own fixed production leaves missing, here: most costs are covered, or out of reach
        fixed = self.fixed
        reach = self._reach
        mask = 0
        missing = []
        for r, count in items:
            n = count - fixed[r]
            if n > 0:
                if n > reach[r]:
                    found = ()  # more than own choice cards and the sellers could ever add
                    break
                mask |= 1 << r
                missing.append((r, n))
        else:
            found = self._solve(mask, missing) if mask else self._free
        self._memo[cost] = found
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

    def _solve(self, mask: int, missing: list[tuple[int, int]]) -> tuple[PaymentOption, ...]:
        """The options for the missing units (resource, count), mask their resources' bits."""
        seller_masks = self._seller_masks
        if seller_masks is not None:
            if not mask & (mask - 1):  # one missing resource: no choice card can couple it
                r, n = missing[0]  # _independent, inline
                n -= self._own[r]
                if n <= 0:
                    return self._free
                key = (r, n, (self._per_resource or self.per_resource())[r])
                return FRONTS.get(key) or resource_front(key)  # resource_front, its cache read inline
            if not _couples(seller_masks, mask):
                if not _couples(self._own_masks, mask):
                    return self._independent(missing, self._own)
                return self._own_choices_first(missing)
        need = [0] * N_RESOURCES
        for r, n in missing:
            need[r] = n
        if self._key is None:
            market = (self.choices, self.sellers)
            self._key = MARKETS.get(market)
            if self._key is None:
                bound()
                self._key = MARKETS[market] = next(MARKET_IDS)
        key = (tuple(need), self._key)
        found = SOLVED.get(key)
        if found is None:
            found = SOLVED[key] = full_search(key[0], self.choices, self.sellers, self._free[0])
        return found

    def per_resource(self) -> list[tuple[Vector, Vector]]:
        """Per resource: each seller's supply and price (the key of its fronts). Made on the first
        cost that buys something: many markets only meet costs their owner covers."""
        # every vector has N_RESOURCES entries: zip(strict=True) would cost a sixth of this
        self._per_resource = list(zip(zip(*self._supplies), zip(*self._prices)))  # noqa: B905
        return self._per_resource

    def _own_choices_first(self, missing: list[tuple[int, int]]) -> tuple[PaymentOption, ...]:
        """Own choice cards couple resources, sellers' do not: try each way to set the own cards,
        then buy each resource on its own."""
        need = [0] * N_RESOURCES
        for r, n in missing:
            need[r] = n
        by_coins: dict[tuple[int, ...], PaymentOption] = {}  # the first option found for each
        no_own = (0,) * N_RESOURCES
        for deficit in minimal_deficits(tuple(need), self.choices):
            left = [(r, n) for r, n in enumerate(deficit) if n]
            for option in self._independent(left, no_own):
                by_coins.setdefault(option.coins, option)
        return tuple([by_coins[coins] for coins in cheapest_first(pareto(list(by_coins)))])

    def _independent(self, missing: list[tuple[int, int]], own: Sequence[int]) -> tuple[PaymentOption, ...]:
        """No choice card offers two missing resources: each resource is bought on its own,
        after the own choice cards offering it (own: how many per resource)."""
        keys = []
        per_resource = self._per_resource or self.per_resource()
        for r, short in missing:
            n = short - own[r]
            if n > 0:
                keys.append((r, n, per_resource[r]))
        if not keys:
            return self._free
        if len(keys) == 1:
            return resource_front(keys[0])
        whole = tuple(keys)
        found = FRONTS.get(whole)
        if found is None:
            fronts = [resource_front(key) for key in keys]
            found = fronts[0]
            for front in fronts[1:]:
                found = sum_fronts(found, front)
            bound()
            FRONTS[whole] = found
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
