"""What a Duel purchase costs in trading.

Resources the buyer does not produce are bought from the bank, each at its own price: the
trade base price (2) plus what the opponent's brown and grey cards produce of it, or the
buyer's fixed price (1, from a yellow card) when lower. The bank never runs out, so there is
one cheapest way to pay; the shared payment solver finds it with the bank as the only seller.
Architecture and Masonry waive resource units of the buyer's choice: the dearest ones.
"""

from itertools import combinations

from app.engine.common.payment import Seller, payment_options
from app.engine.common.resources import N_RESOURCES, ZERO, Vector

BANK_STOCK: Vector = (99,) * N_RESOURCES
NO_CAPS: Vector = (99,) * N_RESOURCES

Choices = tuple[tuple[int, ...], ...]

_CACHE: dict[tuple[Vector, Choices, Vector, int], int] = {}
_CACHE_LIMIT = 200_000


def prices(caps: Vector, opponent_trade: Vector, base: int) -> Vector:
    """Per-resource bank price for a buyer with these fixed-price caps against this opponent."""
    return tuple(c if c < base + o else base + o for c, o in zip(caps, opponent_trade, strict=True))


def trade_cost(cost: Vector, fixed: Vector, choices: Choices, price: Vector, waive: int = 0) -> int:
    """Fewest coins to buy what fixed and choice production leave missing of cost, waive units free."""
    need = tuple(c - f if c > f else 0 for c, f in zip(cost, fixed, strict=True))
    total = sum(need)
    if total <= waive:
        return 0
    if not choices:
        units = sorted((p for n, p in zip(need, price, strict=True) for _ in range(n)), reverse=True)
        return sum(units[waive:])
    key = (need, choices, price, waive)
    found = _CACHE.get(key)
    if found is None:
        found = min(_bank_cost(reduced, choices, price) for reduced in _waived(need, waive))
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _bank_cost(need: Vector, choices: Choices, price: Vector) -> int:
    bank = (Seller(BANK_STOCK, (), price),)
    return payment_options(need, ZERO, choices, bank)[0].total


def _waived(need: Vector, waive: int) -> set[Vector]:
    """Every way to remove waive units from need."""
    if not waive:
        return {need}
    units = [r for r, n in enumerate(need) for _ in range(n)]
    out = set()
    for dropped in combinations(units, waive):
        reduced = list(need)
        for r in dropped:
            reduced[r] -= 1
        out.add(tuple(reduced))
    return out
