"""A tiny alternating two-seat game with the engine's `Game` face, standing in for 7 Wonders Duel in
server tests until the Duel engine is merged (the server only knows the face, so this exercises the
same paths): each seat holds four secret cards and, in turn, plays one face up; a "Twin" card lets its
seat play again. Highest total of card values wins."""

import random
from typing import Any

from app.engine import GameConfig, IllegalAction, new_game
from app.engine.common.game import Action, Event, Game, check_keys, require_dict

CARDS = [
    "Amber Idol",
    "Basalt Gate",
    "Cedar Barge",
    "Dune Lantern",
    "Twin Ember",
    "Flint Crown",
    "Garnet Loom",
    "Twin Harbor",
    "Ivory Scale",
    "Jade Compass",
]


class FakeDuel(Game):
    def __init__(self, config: GameConfig) -> None:
        if config.seats != 2:
            raise ValueError("the fake duel is for 2 players")
        self.config = config
        rng = random.Random(config.seed)
        deck = rng.sample(range(len(CARDS)), 8)
        self.hands = [deck[:4], deck[4:]]
        self.played: list[list[int]] = [[], []]
        self.turn = rng.randrange(2)
        self.log = []

    @property
    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.turn]

    @property
    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal_actions(self, seat: int) -> list[Action]:
        seat = self.check_seat(seat)
        if self.is_over or seat != self.turn:
            return []
        return [{"type": "play", "card": CARDS[c]} for c in sorted(self.hands[seat])]

    def apply(self, seat: int, action: Action) -> list[Event]:
        seat = self.check_seat(seat)
        if self.is_over:
            raise IllegalAction("the game is over")
        action = require_dict(action)
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn")
        if action["type"] != "play":
            raise IllegalAction("the only action is 'play'")
        check_keys(action, {"card"})
        card = next((c for c in self.hands[seat] if CARDS[c] == action.get("card")), None)
        if card is None:
            raise IllegalAction(f"{action.get('card')!r} is not in your hand")
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        self.log.append({"seat": seat, "action": action})
        events: list[Event] = [{"type": "played", "seat": seat, "card": CARDS[card]}]
        again = CARDS[card].startswith("Twin") and self.hands[seat]
        if not again and self.hands[1 - seat]:
            self.turn = 1 - seat
        if self.is_over:
            events.append({"type": "game_over", "result": self.result()})
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            seat = self.check_seat(seat)
        return {
            "game": "duel",
            "version": self.version,
            "to_act": self.to_act,
            "seat": seat,
            "hand": [] if seat is None else [CARDS[c] for c in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands],
            "played": [[CARDS[c] for c in p] for p in self.played],
        }

    def result(self) -> dict[str, Any]:
        totals = [sum(c + 1 for c in p) for p in self.played]
        best = max(totals)
        return {
            "scores": [
                {"seat": s, "categories": {"cards": totals[s]}, "total": totals[s], "coins": 0} for s in range(2)
            ],
            "winners": [s for s in range(2) if totals[s] == best],
            "categories": ["cards"],
        }

    def clone(self) -> "FakeDuel":
        other = FakeDuel.__new__(FakeDuel)
        other.config = self.config
        other.hands = [list(h) for h in self.hands]
        other.played = [list(p) for p in self.played]
        other.turn = self.turn
        other.log = list(self.log)
        return other

    def snapshot(self) -> dict[str, Any]:
        return {
            "cards": list(CARDS),
            "hands": [list(h) for h in self.hands],
            "played": [list(p) for p in self.played],
            "turn": self.turn,
        }


def duel_available() -> bool:
    try:
        import app.engine.duel  # noqa: F401
    except ImportError:
        return False
    return True


def factory_with_fake_duel():  # type: ignore[no-untyped-def]
    """The engine's factory, with the fake game for "duel" while the real Duel is missing."""
    if duel_available():
        return new_game

    def factory(config: GameConfig) -> Game:
        return FakeDuel(config) if config.game == "duel" else new_game(config)

    return factory
