"""The legal card actions of a seat in the pick phase (and for Babylon's last card).

One builder serves the base game and its variants: for each distinct card of the hand, its builds
(one per way to pay, from the game's `payment_variants`), the wonder stages it may be tucked under,
then its discards (`discard_variants`). Every action is exactly what `apply` accepts. This is the
engine's hot path: the common case (two sellers, no variant fields) is written out for speed. A
variant's actions listed `lazy` are small tuples (specs) until read (LazyActions, build_action): a
random playout reads one of them. The base game's are built even then: written out, its dicts cost
no more time than specs and their reading (docs/PERFORMANCE.md).
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from app.engine.classic.data import CardDef
from app.engine.classic.phases import PICK
from app.engine.classic.player import Player
from app.engine.common.game import Action
from app.engine.common.lazy_actions import LazyActions
from app.engine.common.payment import COINS, NAMED, TOTAL, Market, PaymentOption, affordable, free_option

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

Extra = tuple[tuple[str, Any], ...]  # the fields a variant adds to an action, e.g. (("naval", True),)
NO_EXTRA: tuple[Extra, ...] = ((),)


class Payments(NamedTuple):
    """Ways to pay for a build or stage that share their bank coins."""

    bank: int
    ways: Sequence[PaymentOption | None]  # each a PaymentOption, or None: nothing to pay anyone
    extras: tuple[Extra, ...]  # the variant's extra fields to add to each way


# a listed action before it is built (see build_action); its kind is one of these three strings
BUILD, WONDER, DISCARD = "build", "wonder", "discard"
Spec = tuple[Any, ...]

FREE_BUILD_ABILITIES = frozenset({"free_first_card_each_color", "free_first_card_each_age", "free_last_card_each_age"})
FREE: tuple[Payments, ...] = (Payments(0, (None,), NO_EXTRA),)
NOTHING_TO_PAY = (free_option(2),)  # the one way to pay a cost without resources: nothing to either neighbour


def card_actions(game: "ClassicGame", p: Player, hand: list[int], *, lazy: bool = False) -> Sequence[Action]:
    """Builds first, then wonder stages, then discards; one entry per distinct card name: a list of
    the actions, or (lazy, for a variant) LazyActions of their specs.

    A variant lists its ways to build through `payment_variants` and its discards through
    `discard_variants`; the base game's ways are its ways to pay, listed inline by
    plain_card_actions (the hot path of every game: see ClassicGame.PLAIN_CARD_ACTIONS)."""
    if game.PLAIN_CARD_ACTIONS:
        return plain_card_actions(game, p, hand)  # built, even if lazy (see above)
    stages = p.stages
    sides = game.trade_sides(p)
    stage_ways = [  # every way to build a stage, the same whichever card is tucked
        (s + 1, bank, way, extra)
        for s in game.open_stages(p)
        for bank, ways, extras in game.payment_variants(p, stages[s], stages[s])
        for way in ways
        for extra in extras
    ]
    discard_extras = game.discard_variants(p)
    builds: list[Any] = []  # actions, or (lazy) their specs
    wonders: list[Any] = []
    discards: list[Any] = []
    names, abilities = p.names, p.abilities
    for card in distinct_cards(game, hand):
        name = card.name
        if name not in names:
            free = game.free_reason(p, card) if card.chain_from or abilities else None  # else never free
            for bank, ways, extras in game.payment_variants(p, None if free else card, card):
                for way in ways:
                    for extra in extras:
                        if lazy:
                            builds.append((BUILD, name, bank, way, extra, free))
                            continue
                        action = priced({"type": "build", "card": name}, bank, way, extra, sides)
                        if free:
                            action["free"] = free
                        builds.append(action)
        for stage, bank, way, extra in stage_ways:
            if lazy:
                wonders.append((WONDER, name, bank, way, extra, stage))
                continue
            wonders.append(priced({"type": "wonder", "card": name, "stage": stage}, bank, way, extra, sides))
        for extra in discard_extras:
            if lazy:
                discards.append((DISCARD, name, extra))
                continue
            discard = {"type": "discard", "card": name}
            for key, value in extra:  # as {**dict(extra)}, without the dict made to unpack
                discard[key] = value
            discards.append(discard)
    if lazy:
        return LazyActions(builds + wonders + discards, build_action, sides)
    return builds + wonders + discards


def distinct_cards(game: "ClassicGame", hand: list[int]) -> list[CardDef]:
    """The hand's cards, the first of each name only."""
    cards = game.cards
    if game.unique_names[game.age]:  # no two cards of this Age share a name
        return [cards[card_id] for card_id in hand]
    seen: set[str] = set()
    out = []
    for card_id in hand:
        card = cards[card_id]
        if card.name not in seen:
            seen.add(card.name)
            out.append(card)
    return out


def plain_card_actions(game: "ClassicGame", p: Player, hand: list[int]) -> list[Action]:
    """card_actions of the base game, written out: two sellers, no variant fields, the ways to pay
    of ClassicGame.ways_to_pay and free_reason inline. A PaymentOption's fields are read by index
    (COINS, NAMED, TOTAL): a NamedTuple's attribute is a slow descriptor lookup."""
    budget = p.coins
    market: Market | None = None
    stage_ways: Sequence[PaymentOption] = ()
    stage = p.stages_built
    if stage < len(p.stages):  # Player.next_stage, inline (wonders built in any order are variants')
        price = p.stages[stage]
        stage_bank = price.coin_cost
        stage += 1  # as the action numbers it
        if stage_bank > budget:
            pass
        elif price.cost_items:
            market = game.market_cache.get(p.seat) or game.market(p)
            stage_ways = market.options(price.cost, price.cost_items)
            if stage_ways and stage_ways[-1][TOTAL] > budget - stage_bank:  # affordable(), inline
                stage_ways = affordable(stage_ways, budget - stage_bank)
        else:
            stage_ways = NOTHING_TO_PAY
    free_abilities = p.abilities and not p.abilities.isdisjoint(FREE_BUILD_ABILITIES)
    builds: list[Action] = []
    wonders: list[Action] = []
    discards: list[Action] = []
    names = p.names
    cards = game.cards
    seen: set[str] | None = None if game.unique_names[game.age] else set()
    for card_id in hand:
        card = cards[card_id]
        name = card.name
        if seen is not None:  # two cards of this Age may share a name: the first one only
            if name in seen:
                continue
            seen.add(name)
        if name not in names:
            if card.chain_from and not names.isdisjoint(card.chain_from):
                free: str | None = "chain"
            else:
                free = ability_free(game, p, card) if free_abilities else None
            if free:
                builds.append(
                    {
                        "type": "build",
                        "card": name,
                        "trade": {"left": {}, "right": {}},
                        "cost": {"bank": 0, "left": 0, "right": 0},
                        "free": free,
                    }
                )
            else:
                bank = card.coin_cost
                if bank > budget:
                    ways: Sequence[PaymentOption] = ()
                elif card.cost_items:
                    if market is None:
                        market = game.market_cache.get(p.seat) or game.market(p)
                    ways = market.options(card.cost, card.cost_items)
                    if ways and ways[-1][TOTAL] > budget - bank:  # affordable(), inline: most are
                        ways = affordable(ways, budget - bank)
                else:
                    ways = NOTHING_TO_PAY
                for way in ways:
                    if way is NOTHING_TO_PAY[0]:  # the commonest way, its dicts written out
                        builds.append(
                            {
                                "type": "build",
                                "card": name,
                                "trade": {"left": {}, "right": {}},
                                "cost": {"bank": bank, "left": 0, "right": 0},
                            }
                        )
                        continue
                    named, coins = way[NAMED], way[COINS]
                    builds.append(
                        {
                            "type": "build",
                            "card": name,
                            "trade": {"left": {**named[0]}, "right": {**named[1]}},
                            "cost": {"bank": bank, "left": coins[0], "right": coins[1]},
                        }
                    )
        for way in stage_ways:
            named, coins = way[NAMED], way[COINS]
            wonders.append(
                {
                    "type": "wonder",
                    "card": name,
                    "stage": stage,
                    "trade": {"left": {**named[0]}, "right": {**named[1]}},
                    "cost": {"bank": stage_bank, "left": coins[0], "right": coins[1]},
                }
            )
        discards.append({"type": "discard", "card": name})
    return [*builds, *wonders, *discards]


def build_action(spec: Spec, sides: tuple[str, ...]) -> Action:
    """The action of one spec listed lazily: (BUILD, card, bank, way, extra, free), (WONDER, card,
    bank, way, extra, stage) or (DISCARD, card, extra)."""
    kind = spec[0]
    if kind is DISCARD:
        discard = {"type": "discard", "card": spec[1]}
        for key, value in spec[2]:  # as {**dict(extra)}, without the dict made to unpack
            discard[key] = value
        return discard
    if kind is BUILD:
        action = priced({"type": "build", "card": spec[1]}, spec[2], spec[3], spec[4], sides)
        if spec[5]:
            action["free"] = spec[5]
        return action
    return priced({"type": "wonder", "card": spec[1], "stage": spec[5]}, spec[2], spec[3], spec[4], sides)


def priced(
    action: dict[str, Any], bank: int, way: PaymentOption | None, extra: Extra, sides: tuple[str, ...]
) -> Action:
    """Complete a build or stage action with one way to pay (and a variant's fields)."""
    if way is None:
        action["trade"] = {side: {} for side in sides}
        action["cost"] = {"bank": bank, **dict.fromkeys(sides, 0)}
    elif len(sides) == 2:  # the common case, written out for speed
        named, coins = way[NAMED], way[COINS]
        action["trade"] = {"left": {**named[0]}, "right": {**named[1]}}
        action["cost"] = {"bank": bank, "left": coins[0], "right": coins[1]}
    else:
        action["trade"] = {side: {**bought} for side, bought in zip(sides, way.named, strict=True)}
        action["cost"] = {"bank": bank, **dict(zip(sides, way.coins, strict=True))}
    if extra:
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
