"""Taking a card of the structure: building it, discarding it for coins, or building a Wonder with it."""

from typing import TYPE_CHECKING

from app.engine.common.game import Event
from app.engine.duel.effects import construct, wonder_effects
from app.engine.duel.moves import CardBuild, CardDiscard, WonderBuild
from app.engine.duel.phases import OVER
from app.engine.duel.turn import finish

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def do_build(game: "DuelGame", move: CardBuild) -> list[Event]:
    card_id, slot, cost, trade, free = move
    seat = game.current
    card = game.data.cards[card_id]
    event: Event = {"type": "built", "seat": seat, "card": card.name, "cost": cost}
    if free:
        event["free"] = free
    events = [event, *pay(game, seat, cost, trade)]
    p = game.players[seat]
    if free == "chain" and p.chain_coins:
        p.coins += p.chain_coins
        events.append({"type": "coins", "seat": seat, "amount": p.chain_coins, "reason": "chain"})
    events += take(game, slot)
    events += construct(game, seat, card)
    events += finish(game)
    return events


def do_discard(game: "DuelGame", move: CardDiscard) -> list[Event]:
    card_id, slot, gain = move
    seat = game.current
    events: list[Event] = [{"type": "discarded", "seat": seat, "card": game.data.cards[card_id].name, "coins": gain}]
    events += take(game, slot)
    game.discard.append(card_id)
    game.players[seat].coins += gain
    events += finish(game)
    return events


def do_wonder(game: "DuelGame", move: WonderBuild) -> list[Event]:
    card_id, slot, wonder_id, cost, trade = move
    seat = game.current
    p = game.players[seat]
    wonder = game.data.wonders[wonder_id]
    card_name = game.data.cards[card_id].name
    events = [{"type": "wonder_built", "seat": seat, "wonder": wonder.name, "card": card_name, "cost": cost}]
    events += pay(game, seat, cost, trade)
    events += take(game, slot)
    p.built[wonder_id] = card_id
    p.unbuilt.remove(wonder_id)
    game.wonders_total += 1
    p.gain_production(wonder.effects)
    if wonder.effects.economic:
        game.cost_cache[seat] = None
    events += wonder_effects(game, seat, wonder.effects)
    if game.phase != OVER and game.wonders_total >= game.max_wonders:
        events += return_last_wonders(game)
    events += finish(game)
    return events


def return_last_wonders(game: "DuelGame") -> list[Event]:
    """Only 7 Wonders are built: the ones still unbuilt go back to the box."""
    events: list[Event] = []
    for p in game.players:
        for w in p.unbuilt:
            p.wonders.remove(w)
            game.wonder_box.append(w)
            events.append({"type": "wonder_returned", "seat": p.seat, "wonder": game.data.wonders[w].name})
        p.unbuilt = []
    return events


def pay(game: "DuelGame", seat: int, cost: int, trade: int) -> list[Event]:
    game.players[seat].coins -= cost
    opponent = game.players[1 - seat]
    if trade and "receive_trade_payments" in opponent.abilities:
        opponent.coins += trade
        return [{"type": "coins", "seat": 1 - seat, "amount": trade, "reason": "trade"}]
    return []


def take(game: "DuelGame", slot: int) -> list[Event]:
    """Take the card of an accessible slot; the cards it uncovers turn face up."""
    structure = game.structure
    assert structure is not None
    turned = structure.take(slot)
    if not turned:
        return []
    cards, in_slot = game.cards, structure.cards
    events: list[Event] = []
    for s in turned:
        events.append({"type": "card_revealed", "slot": s, "card": cards[in_slot[s]].name})  # type: ignore[index]
    return events
