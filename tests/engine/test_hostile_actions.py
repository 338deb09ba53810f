"""Hostile actions straight to the engine, in random games of every kind: legal actions with keys
dropped, values swapped for values of every JSON type (huge and negative integers, floats, NaN,
nested containers, names of other cards and resources), unknown keys added, or no object at all,
from the seat to act and from seats that are not. Each is refused with an IllegalAction that
changes nothing (state and log), or accepted as one of the legal moves: its log entry is one that a
listed legal action makes, but for the trade (the listing offers the cheapest ways to pay; a feasible
dearer trade is accepted too, as the engine's payment checks and their tests say)."""

import json
import random
from typing import Any

import pytest

from app.engine import GameConfig, IllegalAction, new_game
from app.engine.common.game import Game
from tests.hostile import hostile_action

GAMES = 10  # per kind
TRIES = 3  # hostile actions per seat and state
ODD_SEATS: list[Any] = [-1, 99, "0", None, True, 1.0]
KINDS = [
    GameConfig(players=3),
    GameConfig(players=7),
    GameConfig(players=4, expansions=["armada"]),
    GameConfig(game="duel"),
]


def move_of(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry without the trade that paid for it."""
    action = {key: value for key, value in entry["action"].items() if key != "trade"}
    return {**entry, "action": action}


def moves_of_legal_actions(game: Game, seat: int) -> list[dict[str, Any]]:
    """The move (log entry but for the trade) each legal action of this seat makes."""
    moves = []
    for action in game.legal_actions(seat):
        other = game.clone()
        other.apply(seat, action)
        moves.append(move_of(other.log[-1]))
    return moves


def try_hostile(game: Game, seat: int, action: Any, claimed: Any) -> None:
    other = game.clone()
    before, log = other.snapshot(), list(other.log)
    try:
        other.apply(claimed, action)
    except IllegalAction as refusal:
        assert str(refusal), "a refusal says what was wrong"
        assert other.snapshot() == before, f"refusing {action!r} changed the game"
        assert other.log == log
        return
    assert claimed == seat and type(claimed) is int, f"seat {claimed!r} acted out of turn with {action!r}"
    accepted = other.log[-1]
    assert move_of(accepted) in moves_of_legal_actions(game, seat), f"{action!r} was accepted as {accepted}"
    assert all(p.coins >= 0 for p in getattr(other, "players", []))


@pytest.mark.parametrize("config", KINDS, ids=lambda c: f"{c.game}-{c.players or 2}-{'+'.join(c.expansions)}")
def test_hostile_actions_are_refused_without_a_trace_or_accepted_as_legal(config: GameConfig) -> None:
    rng = random.Random(json.dumps(config.model_dump(), sort_keys=True))
    tried = 0
    for i in range(GAMES):
        game = new_game(config.model_copy(update={"seed": 100 + i}))
        while not game.is_over:
            for seat in list(game.to_act):
                legal = game.legal_actions(seat)
                names = sorted({a["card"] for a in legal if isinstance(a.get("card"), str)})
                for _ in range(TRIES):
                    claimed = seat if rng.random() < 0.8 else rng.choice(ODD_SEATS)
                    try_hostile(game, seat, hostile_action(rng.choice(legal), rng, names), claimed)
                    tried += 1
                game.apply(seat, rng.choice(legal))
                if game.is_over:
                    break
    assert tried > 1_000
