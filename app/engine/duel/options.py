"""The legal actions of the seat to act.

`apply` does not look actions up in this list: `validate` derives what a submitted action
means from the rules again, and the tests check that both always agree. Each call lists
them afresh, so callers may change what they get.
"""

from typing import TYPE_CHECKING

from app.engine.common.game import Action
from app.engine.duel.costs import seat_costs
from app.engine.duel.definitions import CardDef
from app.engine.duel.phases import BOX_TOKEN, CHOOSE_PROGRESS, CHOOSE_STARTER, DESTROY, DISCARD_BUILD, DRAFT, PLAY

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def legal(game: "DuelGame") -> list[Action]:
    """A fresh list of fresh action dicts: callers may change them as they like."""
    maker = MAKERS.get(game.phase)
    return [] if maker is None else maker(game)


def _draft(game: "DuelGame") -> list[Action]:
    wonders = game.data.wonders
    return [{"type": "draft_wonder", "wonder": wonders[w].name} for w in game.draft_offer]


def _play(game: "DuelGame") -> list[Action]:
    # plain loops, not comprehensions: each comprehension makes a function and a frame per listing
    seat = game.current
    p = game.players[seat]
    coins, names = p.coins, p.names
    costs = seat_costs(game, seat)
    known = costs.cards
    structure = game.structure
    assert structure is not None
    cards, in_slot = game.cards, structure.cards
    accessible: list[CardDef] = []
    actions: list[Action] = []
    for s in structure.open:
        card = cards[in_slot[s]]  # type: ignore[index]
        accessible.append(card)
        chain = card.chain_from
        if chain and not chain.isdisjoint(names):
            actions.append({"type": "build", "card": card.name, "cost": 0, "free": "chain"})
            continue
        cost = card.coin_cost
        if card.cost_items:
            trade = known[card.id]
            cost += costs.card_trade(p, card) if trade is None else trade
        if cost <= coins:
            actions.append({"type": "build", "card": card.name, "cost": cost})
    if p.unbuilt and game.wonders_total < game.max_wonders:
        wonders, known_wonders = game.data.wonders, costs.wonders
        for w in p.unbuilt:
            cost = known_wonders[w]
            if cost is None:
                cost = costs.wonder_cost(p, wonders[w])
            if cost <= coins:
                wonder = wonders[w].name
                for card in accessible:
                    actions.append({"type": "wonder", "card": card.name, "wonder": wonder, "cost": cost})
    for card in accessible:
        actions.append({"type": "discard", "card": card.name})
    return actions


def _named(kind: str, field: str, names: list[str]) -> list[Action]:
    return [{"type": kind, field: name} for name in names]


def _choose_progress(game: "DuelGame") -> list[Action]:
    tokens = game.data.tokens
    return _named("choose_progress", "token", [tokens[t].name for t in game.board_tokens])


def _box_token(game: "DuelGame") -> list[Action]:
    tokens = game.data.tokens
    return _named("choose_box_token", "token", [tokens[t].name for t in game.box_offer])


def destroy_targets(game: "DuelGame") -> list[int]:
    cards = game.cards
    return [c for c in game.players[1 - game.current].city if cards[c].color == game.destroy_color]


def _destroy(game: "DuelGame") -> list[Action]:
    return _named("destroy", "card", [game.cards[c].name for c in destroy_targets(game)])


def _discard_build(game: "DuelGame") -> list[Action]:
    return _named("build_from_discard", "card", [game.cards[c].name for c in game.discard])


def _starter(game: "DuelGame") -> list[Action]:
    return [{"type": "choose_starter", "seat": seat} for seat in (0, 1)]


MAKERS = {
    DRAFT: _draft,
    PLAY: _play,
    CHOOSE_PROGRESS: _choose_progress,
    BOX_TOKEN: _box_token,
    DESTROY: _destroy,
    DISCARD_BUILD: _discard_build,
    CHOOSE_STARTER: _starter,
}
