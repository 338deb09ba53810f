"""What a card, a Wonder or a progress token does when it arrives in a city: coins, shields
(and military supremacy), science (a progress token, or scientific supremacy), and the
decisions it leaves the seat (destroy a card, build from the discard, a token from the box)."""

from typing import TYPE_CHECKING

from app.engine.common.game import Event
from app.engine.duel import scoring
from app.engine.duel.definitions import CardDef, Effects
from app.engine.duel.phases import BOX_TOKEN, CHOOSE_PROGRESS, DESTROY, DISCARD_BUILD, OVER
from app.engine.duel.turn import win

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def construct(game: "DuelGame", seat: int, card: CardDef) -> list[Event]:
    """Put a card into seat's city and apply what it does when built."""
    p = game.players[seat]
    p.add_card(card)
    effects = card.effects
    if effects.economic:
        game.cost_cache[seat] = None
        if effects.raises_prices:
            game.cost_cache[1 - seat] = None
    events: list[Event] = []
    gain = effects.coins
    for per in effects.coins_per:
        gain += per.amount * (p.count(per.colors or ()) if per.what == "card" else p.wonders_built)
    if effects.guild and effects.guild.coins_per:
        gain += effects.guild.coins_per * scoring.guild_count(game, effects.guild)
    if gain:
        p.coins += gain
        events.append({"type": "coins", "seat": seat, "amount": gain})
    if effects.shields:
        events += push(game, seat, effects.shields + p.extra_shields.get(card.color, 0))
    if effects.science:
        events += science(game, seat, effects.science)
    return events


def wonder_effects(game: "DuelGame", seat: int, effects: Effects) -> list[Event]:
    p, opponent = game.players[seat], game.players[1 - seat]
    events: list[Event] = []
    if effects.coins:
        p.coins += effects.coins
        events.append({"type": "coins", "seat": seat, "amount": effects.coins})
    if effects.opponent_loses:
        lost = min(effects.opponent_loses, opponent.coins)
        opponent.coins -= lost
        events.append({"type": "coins", "seat": 1 - seat, "amount": -lost})
    if effects.shields:
        events += push(game, seat, effects.shields)
        if game.phase == OVER:
            return events
    if effects.destroy:
        if opponent.colors.get(effects.destroy):
            game.destroy_color = effects.destroy
            game.pending.append(DESTROY)
        else:
            events.append({"type": "skipped", "seat": seat, "kind": DESTROY, "reason": "no card of that colour"})
    if "build_from_discard" in effects.abilities:
        if game.discard:
            game.pending.append(DISCARD_BUILD)
        else:
            events.append({"type": "skipped", "seat": seat, "kind": DISCARD_BUILD, "reason": "empty discard pile"})
    if effects.box_draw:
        game.box_offer = game.box_tokens[: effects.box_draw]
        game.pending.append(BOX_TOKEN)
    if "play_again" in effects.abilities or "wonders_play_again" in p.abilities:
        game.play_again = True
    return events


def push(game: "DuelGame", seat: int, shields: int) -> list[Event]:
    events: list[Event] = []
    for victim, coins in game.military.push(seat, shields):
        lost = min(coins, game.players[victim].coins)
        game.players[victim].coins -= lost
        events.append({"type": "loot", "seat": victim, "token": coins, "lost": lost})
    events.insert(0, {"type": "military", "seat": seat, "shields": shields, "pawn": game.military.pawn})
    winner = game.military.supremacy()
    if winner is not None:
        events += win(game, winner, "military")
    return events


def science(game: "DuelGame", seat: int, symbol: str) -> list[Event]:
    p = game.players[seat]
    if p.symbols() >= game.data.rules.science_symbols_to_win:
        return win(game, seat, "science")
    if p.science[symbol] == 2 and game.board_tokens:
        game.pending.append(CHOOSE_PROGRESS)
    return []


def gain_token(game: "DuelGame", seat: int, token_id: int) -> list[Event]:
    p = game.players[seat]
    token = game.data.tokens[token_id]
    p.tokens.append(token_id)
    p.gain(token.effects)
    if token.effects.economic:
        game.cost_cache[seat] = None
    events: list[Event] = [{"type": "progress_token", "seat": seat, "token": token.name}]
    if token.effects.coins:
        p.coins += token.effects.coins
        events.append({"type": "coins", "seat": seat, "amount": token.effects.coins})
    if token.effects.science:
        events += science(game, seat, token.effects.science)
    return events
