"""The payment solver: every non-dominated way to pay a resource cost.

A player covers a cost with their own production (fixed and choice), then buys what is
missing from sellers (neighbours in classic, the bank in Duel through per-resource
prices). Each seller has its own per-resource price and may cap the units it sells.
The answer lists, for each non-dominated vector of coins paid to the sellers, one
concrete plan (which resources come from whom), cheapest first. An option is dominated
when another costs at most as much to every seller.

- options.py: what is asked and answered (Seller, PaymentOption) and their small helpers
- market.py: Market, one player's production and sellers, which routes each cost to the
  cheapest method that is exact for it
- fronts.py: costs whose missing resources no choice card couples: per-resource fronts
  and their sums, Pareto filtering
- search.py: the full search, for costs that choice cards or seller limits couple
- plans.py: checking a plan a player gives (what the classic game's `trade` says)
- caches.py: the memo tables shared by all markets, bounded in size

This is the engine's hot path, so results are memoised on their (hashable) inputs.
"""

from app.engine.common.payment.market import Market, masks_of, supply_of
from app.engine.common.payment.options import (
    COINS,
    NAMED,
    TOTAL,
    PaymentOption,
    Seller,
    affordable,
    free_option,
    free_options,
)
from app.engine.common.payment.plans import needless_purchase, plan_coins, plan_is_feasible

__all__ = [
    "COINS",
    "NAMED",
    "TOTAL",
    "Market",
    "PaymentOption",
    "Seller",
    "affordable",
    "free_option",
    "free_options",
    "masks_of",
    "needless_purchase",
    "plan_coins",
    "plan_is_feasible",
    "supply_of",
]
