"""The legal actions of the seat to act, and matching a submitted action against them.

Every legal action has a key (its type and the names it refers to) and an internal info
tuple the game acts on. They are computed once per game version and shared by
`legal_actions` and `apply`, so `apply` accepts exactly what `legal_actions` lists.
"""

from typing import TYPE_CHECKING, Any

from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, check_keys
from app.engine.duel.phases import (
    BOX_TOKEN,
    CHOOSE_PROGRESS,
    CHOOSE_STARTER,
    DESTROY,
    DISCARD_BUILD,
    DRAFT,
    PHASE_ACTIONS,
    PHASE_TEXT,
    PLAY,
)
from app.engine.duel.trading import prices, trade_cost

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame

Options = dict[tuple, tuple[Action, tuple]]

# The fields that name what an action is about (its key), and the ones that only restate it.
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


def options(game: "DuelGame") -> Options:
    cached = game._options
    if cached is not None and cached[0] == len(game.log):
        return cached[1]
    found = MAKERS[game.phase](game) if game.phase in MAKERS else {}
    game._options = (len(game.log), found)
    return found


def _draft(game: "DuelGame") -> Options:
    wonders = game.data.wonders
    return {
        ("draft_wonder", wonders[w].name): ({"type": "draft_wonder", "wonder": wonders[w].name}, (w,))
        for w in game.draft_offer
    }


def seat_prices(game: "DuelGame", seat: int) -> tuple[int, ...]:
    """What each resource costs seat at the bank now."""
    return prices(game.players[seat].caps, game.players[1 - seat].trade_fixed, game.data.rules.trade_base_price)


def card_cost(game: "DuelGame", seat: int, card_id: int, price: tuple[int, ...]) -> tuple[int, int, str | None]:
    """(total coins, coins of it spent on trading, free reason) to build a card."""
    p = game.players[seat]
    card = game.data.cards[card_id]
    if card.chain_from and not card.chain_from.isdisjoint(p.names):
        return 0, 0, "chain"
    trade = trade_cost(card.cost, p.fixed, p.choices, price, p.reductions.get(card.color, 0))
    return card.coin_cost + trade, trade, None


def wonder_costs(game: "DuelGame", seat: int, price: tuple[int, ...]) -> list[tuple[int, int]]:
    """(wonder id, coins) of every Wonder seat may still build, affordable or not."""
    p = game.players[seat]
    if sum(q.wonders_built for q in game.players) >= game.max_wonders:
        return []
    waive = p.reductions.get("wonder", 0)
    wonders = game.data.wonders
    return [(w, trade_cost(wonders[w].cost, p.fixed, p.choices, price, waive)) for w in p.wonders if w not in p.built]


def _play(game: "DuelGame") -> Options:
    seat = game.current
    p = game.players[seat]
    price = seat_prices(game, seat)
    structure = game.structure
    assert structure is not None
    cards = game.data.cards
    accessible = [(c, cards[c].name) for c in structure.accessible_cards()]
    found: Options = {}
    coins = p.coins
    for card_id, name in accessible:
        cost, trade, free = card_cost(game, seat, card_id, price)
        if free:
            found[("build", name)] = ({"type": "build", "card": name, "cost": 0, "free": free}, (card_id, 0, 0, free))
        elif cost <= coins:
            found[("build", name)] = ({"type": "build", "card": name, "cost": cost}, (card_id, cost, trade, None))
    wonders = game.data.wonders
    affordable = [(w, wonders[w].name, cost) for w, cost in wonder_costs(game, seat, price) if cost <= coins]
    for card_id, name in accessible:
        for w, wonder, cost in affordable:
            public = {"type": "wonder", "card": name, "wonder": wonder, "cost": cost}
            found[("wonder", name, wonder)] = (public, (card_id, w, cost, cost))
    gain = discard_gain(game, seat)
    for card_id, name in accessible:
        found[("discard", name)] = ({"type": "discard", "card": name}, (card_id, gain))
    return found


def discard_gain(game: "DuelGame", seat: int) -> int:
    rules = game.data.rules
    return rules.discard_base_coins + game.players[seat].colors.get(rules.discard_coins_per_color, 0)


def _named(kind: str, field: str, names: list[tuple[int, str]]) -> Options:
    return {(kind, name): ({"type": kind, field: name}, (i,)) for i, name in names}


def _choose_progress(game: "DuelGame") -> Options:
    tokens = game.data.tokens
    return _named("choose_progress", "token", [(t, tokens[t].name) for t in game.board_tokens])


def _box_token(game: "DuelGame") -> Options:
    tokens = game.data.tokens
    return _named("choose_box_token", "token", [(t, tokens[t].name) for t in game.box_offer])


def destroy_targets(game: "DuelGame") -> list[int]:
    cards = game.data.cards
    return [c for c in game.players[1 - game.current].city if cards[c].color == game.destroy_color]


def _destroy(game: "DuelGame") -> Options:
    cards = game.data.cards
    return _named("destroy", "card", [(c, cards[c].name) for c in destroy_targets(game)])


def _discard_build(game: "DuelGame") -> Options:
    cards = game.data.cards
    return _named("build_from_discard", "card", [(c, cards[c].name) for c in game.discard])


def _starter(game: "DuelGame") -> Options:
    return {("choose_starter", s): ({"type": "choose_starter", "seat": s}, (s,)) for s in (0, 1)}


MAKERS = {
    DRAFT: _draft,
    PLAY: _play,
    CHOOSE_PROGRESS: _choose_progress,
    BOX_TOKEN: _box_token,
    DESTROY: _destroy,
    DISCARD_BUILD: _discard_build,
    CHOOSE_STARTER: _starter,
}


# ----- matching and explaining -----------------------------------------------------------------


def match(game: "DuelGame", action: dict[str, Any]) -> tuple:
    """The info of the legal action this one names, or IllegalAction saying what is wrong."""
    kind = action["type"]
    allowed = PHASE_ACTIONS[game.phase]
    if kind not in allowed:
        known = "" if kind in KEY_FIELDS else f"unknown action type '{kind}'; "
        raise IllegalAction(f"{known}'{kind}' is not legal now: you must {PHASE_TEXT[game.phase]} (types: {list(allowed)})")
    fields = KEY_FIELDS[kind]
    check_keys(action, set(fields) | set(RESTATED.get(kind, ())))
    for field in fields:
        value = action.get(field)
        wanted = int if field == "seat" else str
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise IllegalAction(f"a '{kind}' action needs '{field}' ({wanted.__name__}), not {value!r}")
    key = (kind, *(action[f] for f in fields))
    found = options(game).get(key)
    if found is None:
        raise IllegalAction(explain(game, action))
    public, info = found
    for field, value in action.items():
        if field not in public:
            raise IllegalAction(f"'{field}' does not belong here: the legal action is {public}")
        if value != public[field] or type(value) is not type(public[field]):
            raise IllegalAction(f"wrong '{field}' {value!r}: the legal action is {public}")
    return info


def explain(game: "DuelGame", action: dict[str, Any]) -> str:
    """Why a well-formed action of the right type is not legal now, and what would be."""
    kind = action["type"]
    if game.phase == PLAY:
        return _explain_play(game, action)
    field = KEY_FIELDS[kind][0]
    legal = [public[field] for public, _ in options(game).values()]
    what = {
        "draft_wonder": "one of the Wonders on offer",
        "choose_progress": "a progress token on the board",
        "choose_box_token": "one of the tokens drawn from the box",
        "destroy": f"a {game.destroy_color} card of your opponent's city",
        "build_from_discard": "a card of the discard pile",
        "choose_starter": "seat 0 or seat 1",
    }[kind]
    return f"{action[field]!r} is not {what}; choose one of {legal}"


def _explain_play(game: "DuelGame", action: dict[str, Any]) -> str:
    seat = game.current
    p = game.players[seat]
    structure = game.structure
    assert structure is not None
    cards = game.data.cards
    accessible = {cards[c].name: c for c in structure.accessible_cards()}
    name = action["card"]
    if name not in accessible:
        return f"'{name}' is not an accessible card of the structure; accessible now: {sorted(accessible)}"
    price = seat_prices(game, seat)
    if action["type"] == "build":
        cost, _, _ = card_cost(game, seat, accessible[name], price)
        return f"{name} costs you {cost} coins and you have {p.coins}; you may discard it or build a Wonder with it"
    wonders = game.data.wonders
    wonder = action["wonder"]
    mine = {wonders[w].name: w for w in p.wonders}
    if wonder not in mine:
        return f"'{wonder}' is not one of your Wonders; yours: {sorted(mine)}"
    if mine[wonder] in p.built:
        return f"{wonder} is already built"
    costs = dict(wonder_costs(game, seat, price))
    if mine[wonder] not in costs:
        return f"{game.max_wonders} Wonders are built: no more can be"
    return f"{wonder} costs you {costs[mine[wonder]]} coins and you have {p.coins}"
