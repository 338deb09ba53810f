"""What a submitted action means, derived from the rules, or why it is not legal.

`match` returns the move the game acts on (moves.py: CardBuild, WonderBuild, CardDiscard, or a
Choice for the other kinds) and the form of the action the log keeps. It never changes the game.
"""

from typing import TYPE_CHECKING, Any

from app.engine.common.errors import IllegalAction
from app.engine.common.game import check_keys
from app.engine.duel.costs import card_cost, discard_gain, seat_costs
from app.engine.duel.definitions import CardDef
from app.engine.duel.moves import CardBuild, CardDiscard, Choice, Move, WonderBuild
from app.engine.duel.options import destroy_targets, legal
from app.engine.duel.phases import PHASE_ACTIONS, PHASE_TEXT

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame

# The fields that name what an action is about, and the ones that may restate what it costs.
KEY_FIELDS = {
    "draft_wonder": ("wonder",),
    "build": ("card",),
    "wonder": ("card", "wonder"),
    "discard": ("card",),
    "choose_progress": ("token",),
    "destroy": ("card",),
    "build_from_discard": ("card",),
    "choose_box_token": ("token",),
    "choose_starter": ("seat",),
}
RESTATED = {"build": ("cost", "free"), "wonder": ("cost",)}
ALLOWED = {kind: frozenset(("type", *fields, *RESTATED.get(kind, ()))) for kind, fields in KEY_FIELDS.items()}
KEY_TYPES = {kind: tuple((f, int if f == "seat" else str) for f in fields) for kind, fields in KEY_FIELDS.items()}


def match(game: "DuelGame", action: dict[str, Any]) -> tuple[Move, dict[str, Any]]:
    """The move of the legal action this one is and the form of it the log keeps, or IllegalAction
    saying what is wrong.

    The logged form is the action's type and the fields naming what it is about, in that order;
    the restated ones (cost, free) are left out, as the rules derive them again. It is built
    while those fields are checked: this runs for every action applied.
    """
    kind = action["type"]
    if kind not in PHASE_ACTIONS[game.phase]:
        allowed = PHASE_ACTIONS[game.phase]
        known = "" if kind in KEY_FIELDS else f"unknown action type '{kind}'; "
        raise IllegalAction(
            f"{known}'{kind}' is not legal now: you must {PHASE_TEXT[game.phase]} (types: {list(allowed)})"
        )
    allowed_fields = ALLOWED[kind]
    if not action.keys() <= allowed_fields:
        check_keys(action, set(allowed_fields))
    logged: dict[str, Any] = {"type": kind}
    for field, wanted in KEY_TYPES[kind]:
        value = action.get(field)
        if type(value) is not wanted:
            raise IllegalAction(f"a '{kind}' action needs '{field}' ({wanted.__name__}), not {value!r}")
        logged[field] = value
    return CHECKERS[kind](game, action), logged


def _restates(action: dict[str, Any], legal: dict[str, Any]) -> None:
    """Every restated field must say what the legal action says (and 0 is not False)."""
    for field, value in action.items():
        expected = legal.get(field)
        if value != expected or type(value) is not type(expected):
            if field not in legal:
                raise IllegalAction(f"'{field}' does not belong here: the legal action is {legal}")
            raise IllegalAction(f"wrong '{field}' {value!r}: the legal action is {legal}")


def _accessible(game: "DuelGame", name: str) -> tuple[CardDef, int]:
    """The card of that name and its slot, if it is accessible."""
    card_id = game.data.card_ids.get(name)
    structure = game.structure
    assert structure is not None
    if card_id is not None:
        in_slot = structure.cards
        for slot in structure.open:
            if in_slot[slot] == card_id:
                return game.cards[card_id], slot
    names = sorted(game.cards[c].name for c in structure.accessible_cards())
    raise IllegalAction(f"'{name}' is not an accessible card of the structure; accessible now: {names}")


def _build(game: "DuelGame", action: dict[str, Any]) -> CardBuild:
    card, slot = _accessible(game, action["card"])
    seat = game.current
    cost, trade, free = card_cost(game, seat, card)
    coins = game.players[seat].coins
    if cost > coins:
        raise IllegalAction(
            f"{card.name} costs you {cost} coins and you have {coins}; discard it or build a Wonder with it"
        )
    legal = {"type": "build", "card": card.name, "cost": cost}
    if free:
        legal["free"] = free
    # an action equal to the legal one, with an int cost and a str free, restates it rightly
    if action != legal or type(action.get("cost")) is not int or (free and type(action["free"]) is not str):
        _restates(action, legal)
    return card.id, slot, cost, trade, free


def _wonder(game: "DuelGame", action: dict[str, Any]) -> WonderBuild:
    card, slot = _accessible(game, action["card"])
    seat = game.current
    p = game.players[seat]
    name = action["wonder"]
    wonder = game.data.wonder_ids.get(name)
    if wonder is None or wonder not in p.wonders:
        raise IllegalAction(
            f"'{name}' is not one of your Wonders; yours: {[game.data.wonders[w].name for w in p.wonders]}"
        )
    if wonder not in p.unbuilt:
        raise IllegalAction(f"{name} is already built")
    if game.wonders_total >= game.max_wonders:
        raise IllegalAction(f"{game.max_wonders} Wonders are built: no more can be")
    cost = seat_costs(game, seat).wonder_cost(p, game.data.wonders[wonder])
    if cost > p.coins:
        raise IllegalAction(f"{name} costs you {cost} coins and you have {p.coins}")
    legal = {"type": "wonder", "card": card.name, "wonder": name, "cost": cost}
    if action != legal or type(action.get("cost")) is not int:
        _restates(action, legal)
    return card.id, slot, wonder, cost, cost


def _discard(game: "DuelGame", action: dict[str, Any]) -> CardDiscard:
    card, slot = _accessible(game, action["card"])
    return card.id, slot, discard_gain(game, game.current)


def _named_choice(game: "DuelGame", action: dict[str, Any], among: list[int], what: str) -> Choice:
    field = KEY_FIELDS[action["type"]][0]
    ids = {"card": game.data.card_ids, "token": game.data.token_ids, "wonder": game.data.wonder_ids}[field]
    found = ids.get(action[field])
    if found is None or found not in among:
        names = [a[field] for a in legal(game)]
        raise IllegalAction(f"{action[field]!r} is not {what}; choose one of {names}")
    return found


def _draft(game: "DuelGame", action: dict[str, Any]) -> Choice:
    return _named_choice(game, action, game.draft_offer, "one of the Wonders on offer")


def _choose_progress(game: "DuelGame", action: dict[str, Any]) -> Choice:
    return _named_choice(game, action, game.board_tokens, "a progress token on the board")


def _box_token(game: "DuelGame", action: dict[str, Any]) -> Choice:
    return _named_choice(game, action, game.box_offer, "one of the tokens drawn from the box")


def _destroy(game: "DuelGame", action: dict[str, Any]) -> Choice:
    return _named_choice(game, action, destroy_targets(game), f"a {game.destroy_color} card of your opponent's city")


def _discard_build(game: "DuelGame", action: dict[str, Any]) -> Choice:
    return _named_choice(game, action, game.discard, "a card of the discard pile")


def _starter(game: "DuelGame", action: dict[str, Any]) -> Choice:
    seat = action["seat"]
    if seat not in (0, 1):
        raise IllegalAction(f"seat {seat} does not exist: choose seat 0 or seat 1 to start the next Age")
    return seat


CHECKERS = {
    "draft_wonder": _draft,
    "build": _build,
    "wonder": _wonder,
    "discard": _discard,
    "choose_progress": _choose_progress,
    "choose_box_token": _box_token,
    "destroy": _destroy,
    "build_from_discard": _discard_build,
    "choose_starter": _starter,
}
