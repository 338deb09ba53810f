"""Helpers to arrange classic situations: give cities cards, deal chosen hands, play turns.

Cards given or dealt here are new instances added to the game: these situations are for
rule examples, not for the card-conservation properties.
"""

from typing import Any

from app.engine import GameConfig, new_game
from app.engine.classic.armada.data import armada_data
from app.engine.classic.data import CardDef, classic_data
from app.engine.classic.game import ClassicGame


def new(players: int = 3, wonders: list[str] | None = None, side: str = "day", seed: int = 0) -> ClassicGame:
    wonders = wonders or ["Gizah", "Rhodos", "Ephesos", "Alexandria", "Babylon", "Olympia", "Halikarnassos"][:players]
    game = new_game(GameConfig(players=players, seed=seed, wonders=wonders, wonder_side=side))
    assert isinstance(game, ClassicGame)
    return game


def card_def(name: str) -> CardDef:
    """A base-game card or guild, or an Armada card."""
    data = classic_data()
    for card in (*data.cards, *data.guilds, *armada_data().cards):
        if card.name == name:
            return card
    raise KeyError(name)


def fetch(game: ClassicGame, name: str) -> int:
    """A new instance of this card, added to the game (rule tests do not count cards)."""
    game.cards = (*game.cards, card_def(name))
    return len(game.cards) - 1


def give(game: ClassicGame, seat: int, *names: str) -> None:
    """Put these cards in a city (lasting effects only, no coins), as if built earlier."""
    for name in names:
        card_id = fetch(game, name)
        game.players[seat].add_card(card_id, game.cards[card_id])
    game.market_cache = {}


def give_stages(game: ClassicGame, seat: int, count: int) -> None:
    p = game.players[seat]
    for _ in range(count):
        stage = p.next_stage()
        assert stage is not None
        p.add_stage(stage, fetch(game, "Lumber Yard"))
    game.market_cache = {}


def deal(game: ClassicGame, seat: int, *names: str) -> None:
    """Replace a seat's hand with these cards (the old hand leaves the game)."""
    game.hands[seat] = [fetch(game, name) for name in names]


def coins(game: ClassicGame, **by_seat: int) -> None:
    for seat, amount in by_seat.items():
        game.players[int(seat[1:])].coins = amount


def option(game: ClassicGame, seat: int, **match: Any) -> dict[str, Any]:
    """The one legal action of that seat matching every given field."""
    found = [a for a in game.legal_actions(seat) if all(a.get(k) == v for k, v in match.items())]
    assert len(found) == 1, found
    return found[0]


def discard_all(game: ClassicGame, except_seats: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """Every seat not excepted discards its first card; returns the events."""
    events = []
    for seat in game.to_act:
        if seat not in except_seats:
            card = game.cards[game.hands[seat][0]].name
            events += game.apply(seat, {"type": "discard", "card": card})
    return events


def finish_age(game: ClassicGame) -> list[dict[str, Any]]:
    """Discard until the Age ends (or a decision outside the pick phase comes up)."""
    age = game.age
    events: list[dict[str, Any]] = []
    while game.age == age and game.phase == "pick" and not game.is_over:
        events += discard_all(game)
    return events


def play(game: ClassicGame, picks: dict[int, Any]) -> list[dict[str, Any]]:
    """Every seat picks (an action, a card name to discard for coins, or None: discard the
    first card for coins); returns the events."""
    events = []
    for seat in sorted(picks):
        action = picks[seat]
        if action is None:
            action = game.cards[game.hands[seat][0]].name
        if isinstance(action, str):
            action = {"type": "discard", "card": action}
        events += game.apply(seat, action)
    return events


def to_turn(game: ClassicGame, turn: int) -> None:
    """Everyone discards until this turn of the Age."""
    while game.turn < turn:
        discard_all(game)
