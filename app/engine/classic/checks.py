"""Checking a card action (build, wonder stage, discard) and turning it into a Move, or refusing it
with an IllegalAction that says what was wrong (and, for payments, one way that would work)."""

from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from app.engine.classic.data import CardDef
from app.engine.classic.move import Move
from app.engine.classic.player import SIDE_NAMES, Player
from app.engine.common.errors import IllegalAction
from app.engine.common.game import check_keys
from app.engine.common.payment import NAMED, Market, PaymentOption, needless_purchase, plan_coins, plan_is_feasible
from app.engine.common.resources import INDEX, N_RESOURCES, RESOURCES, ZERO, Vector, to_dict

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

Price = Any  # a card, wonder stage or variant's cost (see game.Price)

CARD_ACTION_TYPES = frozenset({"build", "wonder", "discard"})
SIDE_SET = frozenset(SIDE_NAMES)
FREE_REASONS = {
    "chain": "you own a card that chains to it",
    "first_of_color": "Olympia builds the first card of each colour free",
    "first_of_age": "Olympia builds the first card of each Age free",
    "last_of_age": "Olympia builds the last card of each Age free",
}


def parse_card_action(game: "ClassicGame", p: Player, hand: list[int], action: dict[str, Any]) -> Move:
    kind, card_id = action["type"], None
    if kind in CARD_ACTION_TYPES and action.keys() <= with_type(game.CARD_FIELDS):  # card_action_of, inline
        name = action.get("card")
        cards = game.cards
        for held in hand:
            if cards[held].name == name:
                card_id = held
                break
    if card_id is None:  # card_action_of says what is wrong
        kind, card_id = card_action_of(game, hand, action, game.CARD_FIELDS)
    if kind == "discard":
        return game.parse_discard(p, card_id, action)
    card = game.cards[card_id]
    plain = game.PLAIN_CARD_ACTIONS  # the base game's checks, without the variant hooks
    sides = SIDE_NAMES if plain else game.trade_sides(p)
    if kind == "build":
        check_buildable(p, action, card)
        free = game.free_reason(p, card)
        if "free" in action and action["free"] != free:
            if not free:
                raise IllegalAction(f"{card.name} is not free for you")
            raise IllegalAction(f"{card.name} is free because {FREE_REASONS[free]} ('{free}')")
        move = game.move_type("build", card_id, free=free, sides=sides)
        price: Price | None = None if free else card
        what = card.name
    else:
        stage = chosen_stage(game, p, action)
        if "free" in action:
            raise IllegalAction("wonder stages are never free")
        move = game.move_type("wonder", card_id, stage=stage, sides=sides)
        price, what = p.stages[stage], f"stage {stage + 1} of {p.wonder.name}"
    if not plain:
        return game.parse_priced(p, move, price, action, what=what)
    if price is None:
        check_free(action, move.free or "", card.name)
    else:
        move.bank, move.coins, move.trade = check_payment(game, p, action, price, what, sides=SIDE_NAMES)
    return move


def chosen_stage(game: "ClassicGame", p: Player, action: dict[str, Any]) -> int:
    """The stage a wonder action builds: the one it names, or the first that may be built."""
    stages = game.open_stages(p)
    if not stages:
        raise IllegalAction("your wonder is complete: every stage is built")
    if not p.wonder.any_order:
        if "stage" in action and action["stage"] != stages[0] + 1:
            raise IllegalAction(f"the next stage of your wonder is stage {stages[0] + 1}, not {action['stage']!r}")
        return stages[0]
    given = action.get("stage")
    if given is None:
        return stages[0]
    if isinstance(given, bool) or not isinstance(given, int) or given - 1 not in stages:
        raise IllegalAction(f"you may build stage {' or '.join(str(s + 1) for s in stages)} now, not {given!r}")
    return given - 1


def check_buildable(p: Player, action: dict[str, Any], card: CardDef) -> None:
    if "stage" in action:
        raise IllegalAction("'stage' belongs to a wonder action, not a build")
    if card.name in p.names:
        raise IllegalAction(f"you already have {card.name} in your city; a city never holds two of one name")


def card_action_of(
    game: "ClassicGame", hand: list[int], action: dict[str, Any], fields: frozenset[str]
) -> tuple[str, int]:
    """The kind of a card action (build, wonder, discard) and the card in hand it names."""
    kind = action["type"]
    if kind not in CARD_ACTION_TYPES:
        raise IllegalAction(f"unknown action type '{kind}' now; choose build, wonder or discard with a card")
    check_keys(action, fields)
    return kind, card_in_hand(game, hand, action.get("card"))


@cache
def with_type(fields: frozenset[str]) -> frozenset[str]:
    """The keys an action with these fields may hold: its fields and 'type'."""
    return fields | {"type"}


def card_in_hand(game: "ClassicGame", hand: list[int], name: Any) -> int:
    cards = game.cards
    for card_id in hand:
        if cards[card_id].name == name:
            return card_id
    held = sorted({cards[c].name for c in hand})
    raise IllegalAction(f"'{name}' is not in your hand; your hand holds {held}")


def check_free(action: dict[str, Any], free: str, name: str, sides: tuple[str, ...] = SIDE_NAMES) -> None:
    trade = action.get("trade")
    if trade is not None and not (isinstance(trade, dict) and trade.keys() <= set(sides) and not any(trade.values())):
        raise IllegalAction(f"{name} is free for you ({FREE_REASONS[free]}): buy nothing for it")
    expected = {"bank": 0, **dict.fromkeys(sides, 0)}
    if action.get("cost", expected) != expected:
        raise IllegalAction(f"{name} is free for you ({FREE_REASONS[free]}): its cost is {expected}")
    if action.get("free", free) != free:
        raise IllegalAction(f"{name} is free because {FREE_REASONS[free]} ('{free}')")


class CheckedPayment(NamedTuple):
    """A payment found legal."""

    bank: int  # coins to the bank
    coins: tuple[int, ...]  # coins to each seller
    trade: dict[str, dict[str, int]]  # the canonical trade: the resources bought from each seller


def check_payment(
    game: "ClassicGame",
    p: Player,
    action: dict[str, Any],
    paid: "Price",
    what: str,
    *,
    sides: tuple[str, ...] | None = None,
) -> CheckedPayment:
    """The payment the action states for paid, or IllegalAction (sides: game.trade_sides(p), if known)."""
    cost, coin_cost = paid.cost, paid.coin_cost
    trade = action.get("trade")
    market = game.market_cache.get(p.seat) or game.market(p)
    if sides is None:
        sides = game.trade_sides(p)
    offered = offered_trade(market, paid, trade, sides)
    if offered is not None:
        coins, named = offered.coins, offered.named
        if sides is SIDE_NAMES:  # the common case, written out
            canonical = {"left": {**named[0]}, "right": {**named[1]}}
        else:
            canonical = {side: {**bought} for side, bought in zip(sides, named, strict=True)}
    else:  # not one of the offered ways: check it from scratch
        buys = parse_trade(trade, sides)
        sellers = market.sellers
        if not plan_is_feasible(cost, p.fixed, p.choices, sellers, buys):
            hint = payment_hint(game, p, paid, sides)
            raise IllegalAction(f"that trade does not pay for {what} (costs {cost_text(cost, coin_cost)}); {hint}")
        needless = needless_purchase(cost, p.fixed, p.choices, buys)
        if needless is not None:
            hint = payment_hint(game, p, paid, sides)
            own = RESOURCES[needless]
            raise IllegalAction(f"you produce the {own} that trade buys for {what}: buy only what you lack; {hint}")
        coins = plan_coins(sellers, buys)
        canonical = {side: to_dict(buy) for side, buy in zip(sides, buys, strict=True)}
    total = coin_cost + sum(coins)
    if total > p.coins:
        raise IllegalAction(f"{what} would cost {total} coins with that trade; you have {p.coins}")
    if "cost" in action:
        if sides is SIDE_NAMES:
            computed = {"bank": coin_cost, "left": coins[0], "right": coins[1]}
        else:
            computed = {"bank": coin_cost, **dict(zip(sides, coins, strict=True))}
        if action["cost"] != computed:
            raise IllegalAction(f"the stated cost {action['cost']} is wrong: that trade costs {computed}")
    return CheckedPayment(coin_cost, tuple(coins), canonical)


def offered_trade(market: Market, paid: "Price", trade: Any, sides: tuple[str, ...]) -> PaymentOption | None:
    """The offered payment option this trade is, if it is one (the common, fast case)."""
    if trade is None:
        trade = {}
    if sides is SIDE_NAMES:  # the common case, written out
        if not isinstance(trade, dict) or not trade.keys() <= SIDE_SET:
            return None
        wanted: tuple[Any, ...] = (trade.get("left") or {}, trade.get("right") or {})
    else:
        if not isinstance(trade, dict) or not trade.keys() <= set(sides):
            return None
        wanted = tuple([trade.get(side) or {} for side in sides])
    for option in market.options(paid.cost, paid.cost_items):
        if option[NAMED] == wanted:  # the same resources from each seller (NAMED: see plain_card_actions)
            return option
    return None


def payment_hint(game: "ClassicGame", p: Player, paid: "Price", sides: tuple[str, ...]) -> str:
    ways = game.ways_to_pay(p, paid)
    if not ways:
        return "you cannot afford it this turn"
    example = {side: {**named} for side, named in zip(sides, ways[0].named, strict=True)}
    return f"one way to pay: trade {example}"


def parse_trade(trade: Any, sides: tuple[str, ...]) -> tuple[Vector, ...]:
    if trade is None:
        return (ZERO,) * len(sides)
    if not isinstance(trade, dict) or set(trade) - set(sides):
        raise IllegalAction(f'\'trade\' must be an object with the keys {list(sides)}, like {{"left": {{"wood": 1}}}}')
    out = []
    for side in sides:
        bought = trade.get(side) or {}
        if not isinstance(bought, dict):
            raise IllegalAction(f"trade.{side} must map resources to counts")
        vec = [0] * N_RESOURCES
        for resource, count in bought.items():
            if resource not in INDEX:
                raise IllegalAction(f"unknown resource '{resource}' in trade.{side}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise IllegalAction(f"trade.{side}.{resource} must be a whole number, not {count!r}")
            vec[INDEX[resource]] = count
        out.append(tuple(vec))
    return tuple(out)


def cost_text(cost: Vector, coins: int) -> str:
    parts = [f"{n} {name}" for name, n in to_dict(cost).items()]
    if coins:
        parts.append(f"{coins} coin{'s' if coins > 1 else ''}")
    return ", ".join(parts) or "nothing"
