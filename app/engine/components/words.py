"""Words for the effect vocabulary: `effect_text` is the only switch over effect types that
produces text, and every sentence (a card's, a stage's, an island's, ...) is made from it."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel

GameKind = Literal["classic", "duel"]

ABILITY_WORDS = {
    "build_from_discard": "build a card from the discard pile for free",
    "play_last_card_each_age": "play the last card of each Age instead of discarding it",
    "free_first_card_each_color": "build the first card of each colour for free",
    "free_first_card_each_age": "build the first card of each Age for free",
    "free_last_card_each_age": "build the last card of each Age for free",
    "play_again": "play again",
    "receive_trade_payments": "the coins your opponent pays the bank for resources come to you",
    "wonders_play_again": "every Wonder you build lets you play again",
}


ACTIONS = frozenset(
    {"ability", "ship_move", "explore", "take_island", "destroy", "opponent_loses_coins", "progress_from_box"}
)


NOTHING = "Nothing."  # the sentence of a component without effects (some ship spaces)


def cost_text(cost: Mapping[str, Any]) -> str:
    """A Cost in words: '2 wood, 1 glass and 1 coin', or 'free'."""
    parts = [f"{n} {resource}" for resource, n in cost["resources"].items()]
    if cost["coins"]:
        parts.append(_count(cost["coins"], "coin"))
    return _and(parts) or "free"


def effects_text(effects: Sequence[BaseModel], game: GameKind = "classic") -> str:
    """One sentence naming every effect, e.g. '3 coins and 1 point.' or 'Produces 1 wood.'.

    What the owner gains comes first, what they do (build, move, destroy, ...) last: '2 points
    and build a card from the discard pile for free.'; a coin and a point effect counting the same
    thing read together ('1 coin and 1 point per brown card in your city.'). Parts join with
    commas and 'and', or with semicolons when a part holds a list or an 'and' of its own
    ('Produces wood, clay or stone; 4 points.')."""
    models: list[Any] = list(effects)  # each read by the fields its type has
    parts: list[tuple[bool, str]] = []  # (an action, the phrase)
    i = 0
    while i < len(models):
        e = models[i]
        after = models[i + 1] if i + 1 < len(models) else None
        if e.type == "coins_per" and after is not None and after.type == "vp_per" and _same_count(e, after):
            coins, points = _count(e.amount, "coin"), _count(after.amount, "point")
            parts.append((False, f"{coins} and {points} per {_counted(e, game)} in {_cities(e.whose)}"))
            i += 2
            continue
        text = effect_text(e, game)
        parts.append((e.type in ACTIONS, "produces " + text if e.type in ("produce", "produce_one_of") else text))
        i += 1
    if not parts:
        return NOTHING
    phrases = [p for _, p in sorted(parts, key=lambda part: part[0])]
    text = "; ".join(phrases) if any(", " in p or " and " in p for p in phrases) else _and(phrases)
    return text[0].upper() + text[1:] + "."


def effect_text(e: BaseModel, game: GameKind = "classic") -> str:
    """A short phrase for one effect of the data vocabulary (any game's), e.g. '1 wood' for a
    production, '2 shields', '+1 naval strength'. Raises ValueError for a type it has no words for."""
    t: Any = e  # every branch reads the fields its type has
    match t.type:
        # the shared vocabulary
        case "produce":
            text = _and([f"{n} {r}" for r, n in t.resources.items()])
            return text + _not_for_trade(t, game)
        case "produce_one_of":
            return _or(t.options) + _not_for_trade(t, game)
        case "vp":
            return _count(t.amount, "point")
        case "shields":
            return _count(t.amount, "shield")
        case "coins":
            return _count(t.amount, "coin")
        case "science":
            return "a science symbol of your choice" if t.symbol == "any" else f"{_words(t.symbol)} (science)"
        case "trade_discount":
            sides = "both neighbours" if len(set(t.sides)) == 2 else f"your {t.sides[0]} neighbour"
            return f"buy {_and(t.resources)} from {sides} for {_price(t.price)}"
        case "coins_per" | "vp_per":
            gain = _count(t.amount, "coin" if t.type == "coins_per" else "point")
            return f"{gain} per {_counted(t, game)} in {_cities(t.whose)}"
        case "vp_if_wonder_complete":
            return f"{_count(t.amount, 'point')} if all your wonder stages are built"
        case "ability":
            if t.ability not in ABILITY_WORDS:
                raise ValueError(f"no words for the ability '{t.ability}'")
            return ABILITY_WORDS[t.ability]
        # Armada
        case "naval_strength":
            return f"+{t.amount} naval strength"
        case "commercial_level":
            return f"+{t.amount} commercial level"
        case "tax":
            return f"a tax of {_count(t.amount, 'coin')} on each player whose commercial level is lower than yours"
        case "explore":
            return f"explore the level {t.level} islands and keep one"
        case "take_island":
            return f"take a level {t.level} island"
        case "ship_move":
            return _ship_move(t.count, t.tracks)
        case "piracy":
            return "piracy (every other player loses coins equal to their commercial level)"
        case "landing":
            return "a landing (one more military conflict this Age against the player two seats away)"
        case "far_trade":
            where = f"from the player two seats to your {t.side}"
            if t.limit == 1:
                return f"buy 1 resource a turn {where} for {_price(t.price)}"
            return f"buy up to {t.limit} resources a turn {where} for {_price(t.price)} each"
        case "vp_per_commercial_level":
            return f"{_count(t.amount, 'point')} per commercial level"
        case "vp_per_island":
            return f"{_count(t.amount, 'point')} per island you own"
        case "vp_per_best_color":
            return f"{_count(t.amount, 'point')} per card of your most common colour"
        case "coins_per_ship_move":
            return f"{_count(t.amount, 'coin')} each time one of your ships moves up"
        case "science_most_common":
            return "one more of your most common science symbol"
        case "coin_loss_immunity":
            return "you never lose coins to taxes or piracy"
        case "naval_defeat_immunity":
            return "you never take a naval defeat token"
        case "naval_discount":
            return "your naval steps cost one resource less"
        # Duel
        case "fixed_price":
            return f"buy {_and(t.resources)} from the bank for {_price(t.price)}"
        case "guild":
            gains = [_count(t.coins_per, "coin")] if t.coins_per else []
            gains += [_count(t.vp_per, "point")] if t.vp_per else []
            things = {"card": f"{_or(t.colors or [])} card", "wonder": "Wonder", "coin_sets": "3 coins"}[t.what]
            most = {"card": f"{_and(t.colors or [])} cards", "wonder": "Wonders", "coin_sets": "coins"}[t.what]
            return f"{_and(gains) or 'nothing'} per {things} in the city with the most {most}"
        case "destroy":
            return f"destroy one of your opponent's {t.color} cards"
        case "opponent_loses_coins":
            return f"your opponent loses {_count(t.amount, 'coin')}"
        case "progress_from_box":
            return f"keep one of {t.draw} progress tokens drawn from the box"
        case "cost_reduction":
            what = "Wonders" if t.applies_to == "wonder" else f"{t.applies_to} cards"
            return f"your {what} cost {t.amount} fewer resource{'s' if t.amount != 1 else ''}"
        case "vp_per_progress_token":
            return f"{_count(t.amount, 'point')} per progress token you own"
        case "extra_shields":
            return f"your {_or(t.colors)} cards give {t.amount} more shield{'s' if t.amount != 1 else ''}"
        case "coins_on_chain":
            return f"{_count(t.amount, 'coin')} each time you build a card for free through a chain"
    raise ValueError(f"no words for the effect type '{t.type}'")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _price(coins: int) -> str:
    return _count(coins, "coin") if coins else "nothing"


def _words(name: str) -> str:
    """A data id in words: 'plumb_line' -> 'plumb line'."""
    return name.replace("_", " ")


def _join(items: Iterable[str], word: str) -> str:
    """'a', 'a and b', 'a, b and c' (word: 'and' or 'or'); '' for none."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _and(items: Iterable[str]) -> str:
    return _join(items, "and")


def _or(items: Iterable[str]) -> str:
    return _join(items, "or")


def _not_for_trade(e: Any, game: GameKind) -> str:
    # in Duel nobody buys from the other player: not tradable only means it does not raise the
    # opponent's prices, which is the rule for every choice production there
    return "" if e.tradable or game == "duel" else " (not for trade)"


def _same_count(a: Any, b: Any) -> bool:
    return (a.what, a.whose, a.colors) == (b.what, b.whose, b.colors)


def _counted(e: Any, game: GameKind) -> str:
    if e.what == "card":
        return f"{_or(e.colors)} card" if e.colors else "card"
    if e.what == "wonder_stage":
        return "Wonder built" if game == "duel" else "wonder stage built"
    return "military defeat token"


def _cities(whose: Sequence[str]) -> str:
    parts = ["your city"] if "self" in whose else []
    if "left" in whose and "right" in whose:
        parts.append("your neighbours' cities")
    elif "left" in whose or "right" in whose:
        parts.append(f"your {'left' if 'left' in whose else 'right'} neighbour's city")
    return " and ".join(parts)


def _ship_move(count: int, tracks: Sequence[str] | None) -> str:
    if count == 1:
        ship = f"your {_or(tracks)} ship" if tracks else "one of your ships"
        return f"move {ship} up one space for free"
    ships = f"{count} different ships" + (f" of the {_or(tracks)} tracks" if tracks else "")
    return f"move {ships} up one space each for free"
