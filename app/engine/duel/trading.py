"""What a Duel purchase costs in trading.

Resources the buyer does not produce are bought from the bank, each at its own price: the
trade base price (2) plus what the opponent's brown and grey cards produce of it, or the
buyer's fixed price (1, from a yellow card) when lower.

The bank is the only seller and never runs out, so there is a single cheapest way to pay.
The buyer's choice cards (and the units Architecture or Masonry waive, which act as choice
cards offering every resource) should cover the dearest missing units they can. The sets of
units that choice cards can cover together (one needed unit per card) form a
transversal matroid, so the best cover is one of its largest sets; those are computed once
per (need, cards), whatever the prices, and the cheapest leftover is paid for.
"""

from operator import sub

from app.engine.common.resources import N_RESOURCES, Choices, CostItems, Vector, cost_items

NO_CAPS: Vector = (99,) * N_RESOURCES
ANY: tuple[int, ...] = tuple(range(N_RESOURCES))

_LEFTOVERS: dict[tuple[Vector, Choices, int], tuple[CostItems, ...]] = {}
_CACHE_LIMIT = 100_000


def prices(caps: Vector, opponent_trade: Vector, base: int) -> Vector:
    """Per-resource bank price for a buyer with these fixed-price caps against this opponent."""
    out = []
    for cap, trade in zip(caps, opponent_trade):  # noqa: B905 (vectors: a loop beats min() per resource)
        price = base + trade
        out.append(cap if cap < price else price)
    return tuple(out)


def trade_cost(items: CostItems, fixed: Vector, choices: Choices, price: Vector, waive: int = 0) -> int:
    """Fewest coins to buy what fixed and choice production leave missing, waive units free."""
    total = 0
    if not choices and not waive:
        for r, n in items:
            short = n - fixed[r]
            if short > 0:
                total += short * price[r]
        return total
    need = [0] * N_RESOURCES
    for r, n in items:
        short = n - fixed[r]
        if short > 0:
            need[r] = short
            total += short
    if total <= waive:
        return 0
    key = (tuple(need), choices, waive)
    leftovers = _LEFTOVERS.get(key)
    if leftovers is None:
        leftovers = _leftovers(key[0], choices + (ANY,) * waive)
        if len(_LEFTOVERS) >= _CACHE_LIMIT:
            _LEFTOVERS.clear()
        _LEFTOVERS[key] = leftovers
    best = -1
    for left in leftovers:
        paid = 0
        for r, n in left:
            paid += n * price[r]
        if paid < best or best < 0:
            best = paid
    return best


def _leftovers(need: Vector, cards: Choices) -> tuple[CostItems, ...]:
    """What is left to buy after each largest set of units the choice cards can cover together.

    These sets are the bases of a matroid: at any prices, the cheapest purchase leaves one of them.
    The sets are grown card by card (each card covering one needed unit it offers, or none),
    which reaches exactly the vectors a matching could cover, in far fewer steps than testing
    every vector below need.
    """
    covered = {(0,) * len(need)}
    for options in cards:
        useful = [r for r in options if need[r]]
        if not useful:
            continue
        grown = set(covered)
        for c in covered:
            for r in useful:
                if c[r] < need[r]:
                    grown.add(c[:r] + (c[r] + 1,) + c[r + 1 :])
        covered = grown
    rank = max(map(sum, covered))
    return tuple(cost_items(tuple(map(sub, need, c))) for c in sorted(covered) if sum(c) == rank)
