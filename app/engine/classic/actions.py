"""The legal card actions of a seat in the pick phase (and for Babylon's last card).

One builder serves the base game and its variants: for each distinct card of the hand, its builds
(one per way to pay, from the game's `payment_variants`), the wonder stages it may be tucked under,
then its discards (`discard_variants`). Every action is exactly what `apply` accepts. This is the
engine's hot path: the common case (two sellers, no variant fields) is written out for speed.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from app.engine.classic.data import CardDef
from app.engine.classic.phases import PICK
from app.engine.classic.player import SIDE_NAMES, Player
from app.engine.common.game import Action
from app.engine.common.payment import Market, PaymentOption, affordable, free_option

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

Extra = tuple[tuple[str, Any], ...]  # the fields a variant adds to an action, e.g. (("naval", True),)
NO_EXTRA: tuple[Extra, ...] = ((),)



class Payments(NamedTuple):
    """Ways to pay for a build or stage that share their bank coins."""

    bank: int
    ways: Sequence[PaymentOption | None]  # each a PaymentOption, or None: nothing to pay anyone
    extras: tuple[Extra, ...]  # the variant's extra fields to add to each way


FREE: tuple[Payments, ...] = (Payments(0, (None,), NO_EXTRA),)
NOTHING_TO_PAY = (free_option(2),)  # the one way to pay a cost without resources: nothing to either neighbour


def card_actions(game: "ClassicGame", p: Player, hand: list[int]) -> list[Action]:
    """Builds first, then wonder stages, then discards; one entry per distinct card name.

    A variant lists its ways to build through `payment_variants` and its discards through
    `discard_variants`; the base game's ways are its ways to pay, listed inline (the hot path of
    every game: see ClassicGame.PLAIN_CARD_ACTIONS)."""
    plain = game.PLAIN_CARD_ACTIONS  # the base game's actions: made inline, without the hooks
    ways_to_pay = game.ways_to_pay
    stages = p.stages
    if plain:
        sides = SIDE_NAMES
        stage = p.next_stage()
        stage_ways = []
        if stage is not None:
            bank = stages[stage].coin_cost
            for way in ways_to_pay(p, stages[stage]):
                stage_ways.append((stage + 1, bank, way, ()))
        discard_extras = NO_EXTRA
        budget = p.coins
        market: Market | None = None
    else:
        sides = game.trade_sides(p)
        stage_ways = [  # every way to build a stage, the same whichever card is tucked
            (s + 1, bank, way, extra)
            for s in game.open_stages(p)
            for bank, ways, extras in game.payment_variants(p, stages[s], stages[s])
            for way in ways
            for extra in extras
        ]
        discard_extras = game.discard_variants(p)
    builds: list[Action] = []
    wonders: list[Action] = []
    discards: list[Action] = []
    seen: set[str] = set()
    cards = game.cards
    names = p.names
    for card_id in hand:
        card = cards[card_id]
        name = card.name
        if name in seen:
            continue
        seen.add(name)
        if name not in names:
            if card.chain_from and not names.isdisjoint(card.chain_from):
                free: str | None = "chain"
            else:
                free = ability_free(game, p, card) if p.abilities else None
            if plain and free:
                builds.append(
                    {
                        "type": "build",
                        "card": name,
                        "trade": {"left": {}, "right": {}},
                        "cost": {"bank": 0, "left": 0, "right": 0},
                        "free": free,
                    }
                )
            elif plain:
                bank = card.coin_cost
                if bank > budget:
                    ways: Sequence[PaymentOption] = ()
                elif card.cost_items:
                    if market is None:
                        market = game._markets.get(p.seat) or game.market(p)
                    ways = market.options(card.cost, card.cost_items)
                    if ways and ways[-1].total > budget - bank:  # affordable(), inline: most are
                        ways = affordable(ways, budget - bank)
                else:
                    ways = NOTHING_TO_PAY
                for way in ways:  # game.ways_to_pay, inline
                    named, coins = way.named, way.coins
                    builds.append(
                        {
                            "type": "build",
                            "card": name,
                            "trade": {"left": {**named[0]}, "right": {**named[1]}},
                            "cost": {"bank": bank, "left": coins[0], "right": coins[1]},
                        }
                    )
            else:
                for bank, ways, extras in game.payment_variants(p, None if free else card, card):
                    for way in ways:
                        for extra in extras:
                            action = priced({"type": "build", "card": name}, bank, way, extra, sides)
                            if free:
                                action["free"] = free
                            builds.append(action)
        for stage, bank, way, extra in stage_ways:
            if plain:
                named, coins = way.named, way.coins  # type: ignore[union-attr]
                wonders.append(
                    {
                        "type": "wonder",
                        "card": name,
                        "stage": stage,
                        "trade": {"left": {**named[0]}, "right": {**named[1]}},
                        "cost": {"bank": bank, "left": coins[0], "right": coins[1]},
                    }
                )
            else:
                wonders.append(priced({"type": "wonder", "card": name, "stage": stage}, bank, way, extra, sides))
        if discard_extras is NO_EXTRA:
            discards.append({"type": "discard", "card": name})
        else:
            for extra in discard_extras:
                discards.append({"type": "discard", "card": name, **dict(extra)})
    return builds + wonders + discards


def priced(
    action: dict[str, Any], bank: int, way: PaymentOption | None, extra: Extra, sides: tuple[str, ...]
) -> Action:
    """Complete a build or stage action with one way to pay (and a variant's fields)."""
    if way is None:
        action["trade"] = {side: {} for side in sides}
        action["cost"] = {"bank": bank, **dict.fromkeys(sides, 0)}
    elif len(sides) == 2:  # the common case, written out for speed
        named, coins = way.named, way.coins
        action["trade"] = {"left": {**named[0]}, "right": {**named[1]}}
        action["cost"] = {"bank": bank, "left": coins[0], "right": coins[1]}
    else:
        action["trade"] = {side: {**bought} for side, bought in zip(sides, way.named, strict=True)}
        action["cost"] = {"bank": bank, **dict(zip(sides, way.coins, strict=True))}
    for key, value in extra:
        action[key] = list(value) if type(value) is tuple else value  # each action its own list
    return action


def ability_free(game: "ClassicGame", p: Player, card: CardDef) -> str | None:
    """Olympia's free builds."""
    if "free_first_card_each_color" in p.abilities and not p.colors.get(card.color):
        return "first_of_color"
    if game.phase == PICK:
        if game.turn == 1 and "free_first_card_each_age" in p.abilities:
            return "first_of_age"
        if game.turn == game.turns_per_age and "free_last_card_each_age" in p.abilities:
            return "last_of_age"
    return None
