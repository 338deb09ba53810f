"""Decisions outside the pick phase: Babylon's last card of an Age, and Halikarnassos' free build
from the discard pile. Each has its legal actions and its apply (see ClassicGame.DECISIONS)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.engine.classic.actions import card_actions
from app.engine.classic.checks import parse_card_action
from app.engine.classic.turn import gain_coins, resolve, run_queue
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, check_keys

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame


def last_card_actions(game: "ClassicGame", seat: int) -> Sequence[Action]:
    return card_actions(game, game.players[seat], game.hands[seat])


def apply_last_card(game: "ClassicGame", seat: int, action: dict[str, Any]) -> list[Event]:
    move = parse_card_action(game, game.players[seat], game.hands[seat], action)
    game.log.append({"seat": seat, "action": move.action(game.cards[move.card].name)})
    resolve(game, [(seat, move)])
    game.pending.discard(seat)
    events: list[Event] = [{"type": "last_card_played", "move": move.public(seat, game.cards[move.card].name)}]
    return events + run_queue(game)


def discard_build_actions(game: "ClassicGame", seat: int) -> list[Action]:
    p = game.players[seat]
    cards = {game.cards[c].name: game.cards[c] for c in game.discard}
    out: list[Action] = []
    for name in sorted(set(cards) - p.names):
        for extra in game.discard_build_choices(seat, cards[name]):
            action: Action = {"type": "build_from_discard", "card": name}
            for key, value in extra:
                action[key] = list(value) if isinstance(value, tuple) else value
            out.append(action)
    return out + [{"type": "pass"}]


def apply_discard_build(game: "ClassicGame", seat: int, action: dict[str, Any]) -> list[Event]:
    p = game.players[seat]
    if action["type"] == "pass":
        check_keys(action, set())
        canonical: dict[str, Any] = {"type": "pass"}
        events: list[Event] = [{"type": "discard_build_passed", "seat": seat}]
    elif action["type"] == "build_from_discard":
        check_keys(action, game.DISCARD_BUILD_FIELDS)
        name = action.get("card")
        card_id = next((c for c in game.discard if game.cards[c].name == name), None)
        if card_id is None:
            raise IllegalAction(f"'{name}' is not in the discard pile")
        if name in p.names:
            raise IllegalAction(f"you already have {name} in your city")
        card = game.cards[card_id]
        extra = game.built_from_discard(seat, card, action)
        game.discard.remove(card_id)
        p.add_card(card_id, card)
        game.production_changed(seat, card.effects)
        gain_coins(game, p, card.effects)
        game.after_discard_build(seat, card, extra)
        canonical = {"type": "build_from_discard", "card": name, **extra}
        events = [{"type": "built_from_discard", "seat": seat, "card": name, **extra}]
    else:
        raise IllegalAction("now choose a card from the discard pile to build free ('build_from_discard') or 'pass'")
    game.log.append({"seat": seat, "action": canonical})
    game.pending.discard(seat)
    return events + run_queue(game)
