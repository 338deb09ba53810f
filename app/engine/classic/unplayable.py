"""Why a card of a hand cannot be built, or the wonder's next stage: reasons for the view.

The legal actions list only what may be done, so a build the seat cannot pay for is simply
absent. The view of the seat deciding on its hand says why, with these reasons. Each one comes
from the functions the legal actions use (`free_reason`, `ways_to_pay`, the seat's `market`
and its sellers, `open_stages`), never from a second version of the rules: a card has a reason
exactly when no plain build of it (without a naval step) is legal, and the wonder has one
exactly when no stage action is (the property tests check both).

A reason is a JSON object with a `reason` code, its figures and an English `text`:

- `already_built`: a city never holds two cards of one name;
- `wonder_complete`: every stage is built;
- `coins` (`cost`, `have`): some way to pay exists, but its cheapest total (the bank's coins
  plus the cheapest trade) is more than the coins held;
- `resources` (`missing`, and `at_once` when choice cards or a trade limit couple the
  resources): no way exists, whatever the coins (see `_resources`).

A wonder's reason also names the `stage` it is about (but `wonder_complete`).
"""

from typing import TYPE_CHECKING, Any

from app.engine.classic.data import CardDef, StageDef
from app.engine.classic.player import Player
from app.engine.common.payment import Market
from app.engine.common.resources import N_RESOURCES, ZERO, Vector, sub_clip, to_dict

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

Reason = dict[str, Any]


def hand_reasons(game: "ClassicGame", seat: int) -> tuple[dict[str, dict[str, Reason]], Reason | None]:
    """({card name: {"build": reason}} for each card of the hand that cannot be built, the
    wonder's reason or None when a stage can be built with any card of the hand)."""
    p = game.players[seat]
    cards = game.cards
    unplayable: dict[str, dict[str, Reason]] = {}
    seen: set[str] = set()
    for card_id in game.hands[seat]:
        card = cards[card_id]
        name = card.name
        if name in seen:
            continue
        seen.add(name)
        reason = build_reason(game, p, card)
        if reason is not None:
            unplayable[name] = {"build": reason}
    return unplayable, wonder_reason(game, p)


def build_reason(game: "ClassicGame", p: Player, card: CardDef) -> Reason | None:
    """Why p cannot build this card now (None: some plain build of it is legal)."""
    if card.name in p.names:
        return {"reason": "already_built", "text": f"you already have {card.name} in your city"}
    if game.free_reason(p, card):
        return None
    return payment_reason(game, p, card)


def wonder_reason(game: "ClassicGame", p: Player) -> Reason | None:
    """Why p cannot build a wonder stage now (None: some stage can be built).

    With several open stages (Siracusa builds them in any order), the reason of the one that
    comes nearest: the cheapest one short of coins, else the one missing the fewest resources.
    """
    stages = game.open_stages(p)  # the next stage only, but for wonders built in any order
    if not stages:
        return {"reason": "wonder_complete", "text": "your wonder is complete"}
    reasons = []
    for stage in stages:
        reason = payment_reason(game, p, p.stages[stage])
        if reason is None:
            return None
        reasons.append({**reason, "stage": stage + 1})
    return min(reasons, key=_nearness)


def _nearness(reason: Reason) -> tuple[int, int]:
    if reason["reason"] == "coins":
        return 0, reason["cost"]
    return 1, sum(reason["missing"].values())


def payment_reason(game: "ClassicGame", p: Player, price: CardDef | StageDef) -> Reason | None:
    """Why p cannot pay for this card or stage now (None: some way to pay is affordable)."""
    if game.ways_to_pay(p, price):
        return None
    market = game.market(p)
    # the ways to pay whatever the coins (those `_ways_to_pay` keeps within the coins held)
    options = market.options(price.cost, price.cost_items) if price.cost_items else None
    if options is None or options:
        cost = price.coin_cost + (options[0].total if options else 0)  # cheapest first
        return {"reason": "coins", "cost": cost, "have": p.coins, "text": coins_text(cost, p.coins)}
    known = market.notes.get("unplayable")  # these reasons hold as long as the market
    if known is None:
        known = market.notes["unplayable"] = {}
    found = known.get(price.cost)
    if found is None:
        found = known[price.cost] = _resources(market, price.cost)
    return {**found, "missing": dict(found["missing"])}  # the caller's own copy


def coins_text(cost: int, have: int) -> str:
    return f"costs {cost} coin{'' if cost == 1 else 's'}; you have {have}"


def _resources(market: Market, cost: Vector) -> Reason:
    """No plan covers the cost. `missing` is, per resource, the shortfall of the cost against own
    production (choice cards included) and what the sellers may sell (within their limits), each
    resource taken alone: a lower bound, since a choice card counts for every resource it offers.
    When that bound finds nothing, choice cards (or a seller's limit) couple the resources:
    `missing` then holds the units of the cost that no fixed production covers, `at_once` is true.
    """
    partners = "you and your neighbours" if len(market.sellers) <= 2 else "you and the cities you trade with"
    missing = market.shortfall(cost)
    if any(missing):
        more = _listing(f"{n} more {name}" for name, n in to_dict(missing).items())
        return {"reason": "resources", "missing": to_dict(missing), "text": f"needs {more} than {partners} can make"}
    fixed = list(market.fixed)
    for seller in market.sellers:
        for r in range(N_RESOURCES):
            units = seller.fixed[r]
            fixed[r] += units if seller.limit is None else min(units, seller.limit)
    by_choices = sub_clip(cost, tuple(fixed))
    if by_choices != ZERO:  # what choice cards must cover, and cannot together
        owners = "your and your neighbours'" if len(market.sellers) <= 2 else "your and your trading partners'"
        text = f"{owners} choice cards cannot cover {_amounts(by_choices)} at once"
    else:  # fixed production would do, but a seller's limit forbids buying it all
        by_choices = sub_clip(cost, market.fixed)
        text = f"{partners} cannot supply {_amounts(by_choices)} at once (a trade limit)"
    return {"reason": "resources", "missing": to_dict(by_choices), "at_once": True, "text": text}


def _amounts(v: Vector) -> str:
    return _listing(f"{n} {name}" for name, n in to_dict(v).items())


def _listing(parts: Any) -> str:
    items = list(parts)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
