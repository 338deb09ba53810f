"""The solver's memo tables, shared by every market and bounded together."""

from itertools import count

from app.engine.common.payment.options import NAMES, PaymentOption

SOLVED: dict[tuple, tuple[PaymentOption, ...]] = {}  # coupled problems, by (need, market)
FRONTS: dict[tuple, tuple[PaymentOption, ...]] = {}  # one resource, or a sum of such
MARKETS: dict[tuple, int] = {}  # a number for each market seen, the key of its problems in SOLVED
MARKET_IDS = count()  # never reused: a market kept past a clearing never meets another's answers
CACHE_LIMIT = 200_000


def bound() -> None:
    """Forget everything once the tables hold CACHE_LIMIT entries."""
    if len(MARKETS) + len(SOLVED) + len(FRONTS) >= CACHE_LIMIT:
        MARKETS.clear()
        SOLVED.clear()
        FRONTS.clear()
        NAMES.clear()
