"""The decisions a turn may leave: a progress token (from the board or the box), a card to
destroy, a card to build from the discard pile, and who starts the next Age."""

from typing import TYPE_CHECKING

from app.engine.common.game import Event
from app.engine.duel.effects import construct, gain_token
from app.engine.duel.moves import Choice
from app.engine.duel.turn import finish, start_age

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def do_choose_progress(game: "DuelGame", choice: Choice) -> list[Event]:
    game.pending.pop(0)
    game.board_tokens.remove(choice)
    return gain_token(game, game.current, choice) + finish(game)


def do_choose_box_token(game: "DuelGame", choice: Choice) -> list[Event]:
    game.pending.pop(0)
    game.box_tokens.remove(choice)
    game.box_offer = []
    return gain_token(game, game.current, choice) + finish(game)


def do_destroy(game: "DuelGame", choice: Choice) -> list[Event]:
    game.pending.pop(0)
    seat, card = game.current, game.data.cards[choice]
    opponent = game.players[1 - seat]
    effects = [game.data.wonders[w].effects for w in opponent.built]
    effects += [game.data.tokens[t].effects for t in opponent.tokens]
    opponent.remove_card(card, game.data.cards, effects)
    game._economy_changed()
    game.discard.append(card.id)
    game.destroy_color = None
    return [{"type": "destroyed", "seat": seat, "owner": 1 - seat, "card": card.name}, *finish(game)]


def do_build_from_discard(game: "DuelGame", choice: Choice) -> list[Event]:
    game.pending.pop(0)
    card = game.data.cards[choice]
    game.discard.remove(card.id)
    events: list[Event] = [{"type": "built_from_discard", "seat": game.current, "card": card.name}]
    return events + construct(game, game.current, card) + finish(game)


def do_choose_starter(game: "DuelGame", choice: Choice) -> list[Event]:
    chooser = game.actor
    events: list[Event] = [{"type": "starter_chosen", "seat": chooser, "starter": choice}]
    return events + start_age(game, game.age + 1, choice)
