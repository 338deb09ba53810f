"""The Wonder draft: two rounds, each seat taking Wonders in the order A B B A, then B A A B."""

from typing import TYPE_CHECKING

from app.engine.common.game import Event
from app.engine.duel.moves import Choice
from app.engine.duel.turn import start_age

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def do_draft(game: "DuelGame", choice: Choice) -> list[Event]:
    events = [draft_wonder(game, choice, auto=False)]
    if len(game.draft_offer) == 1:
        events.append(draft_wonder(game, game.draft_offer[0], auto=True))
    per_round = game.data.setup.wonders_per_round
    if game.draft_step == per_round:
        game.draft_offer = game.draft_pool[per_round:]
        names = [game.data.wonders[w].name for w in game.draft_offer]
        events.append({"type": "draft_round", "round": 2, "wonders": names})
    if game.draft_step == len(game.draft_order):
        return events + start_age(game, 1, game.first)
    game.actor = game.draft_order[game.draft_step]
    return events


def draft_wonder(game: "DuelGame", wonder: int, auto: bool) -> Event:
    seat = game.draft_order[game.draft_step]
    game.draft_offer.remove(wonder)
    game.players[seat].wonders.append(wonder)
    game.players[seat].unbuilt.append(wonder)
    game.draft_step += 1
    event: Event = {"type": "wonder_drafted", "seat": seat, "wonder": game.data.wonders[wonder].name}
    if auto:
        event["last_of_round"] = True
    return event
