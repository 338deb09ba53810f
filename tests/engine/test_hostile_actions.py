"""Hostile actions straight to the engine, in random games of every kind: legal actions with keys
dropped, values swapped for values of every JSON type (huge and negative integers, floats, NaN,
nested containers, names of other cards and resources), unknown keys added, or no object at all,
from the seat to act and from seats that are not. Each is refused with an IllegalAction that
changes nothing (state and log), or accepted as exactly one of the legal actions: the log entry it
makes is one that a listed legal action makes."""

import copy
import json
import random
from typing import Any

import pytest

from app.engine import GameConfig, IllegalAction, new_game
from app.engine.common.game import Game

GAMES = 10  # per kind
TRIES = 3  # hostile actions per seat and state
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 7, 2**63, -(2**63) - 1, 10**30, 1.5, float("nan"), float("inf"),
    "", "x", "left", "right", "bank", "wood", "stone", "glass", "papyrus", "build", "wonder", "discard",
    [], [1], ["left"], [[[]]], {}, {"a": 1}, {"left": {}}, {"wood": -1}, {"wood": 1.5}, {"wood": True},
    {"wood": "1"}, {"left": {"wood": 2**70}}, "\u0000", "é" * 5,
]  # fmt: skip
FIELDS = ["type", "card", "trade", "cost", "free", "stage", "naval", "moves", "reward", "wonder", "token", "x"]
RESOURCES = ["wood", "stone", "clay", "ore", "glass", "papyrus", "loom", "x"]
ODD_SEATS: list[Any] = [-1, 99, "0", None, True, 1.0]
KINDS = [
    GameConfig(players=3),
    GameConfig(players=7),
    GameConfig(players=4, expansions=["armada"]),
    GameConfig(game="duel"),
]


def hostile(action: dict[str, Any], rng: random.Random, names: list[str]) -> Any:
    """A legal action, changed in one to three ways."""
    out: Any = copy.deepcopy(action)
    for _ in range(rng.randint(1, 3)):
        if not isinstance(out, dict):
            break
        keys = list(out)
        roll = rng.random()
        if roll < 0.25 and keys:
            del out[rng.choice(keys)]
        elif roll < 0.55 and keys:
            out[rng.choice(keys)] = rng.choice(ODD_VALUES + names)
        elif roll < 0.7:
            out[rng.choice(FIELDS)] = rng.choice(ODD_VALUES + names)
        elif roll < 0.9:
            change_inside(out, rng)
        else:
            out = rng.choice([None, [], "build", 5, {}, {"type": rng.choice(ODD_VALUES)}, out])
    return out


def change_inside(action: dict[str, Any], rng: random.Random) -> None:
    """Change a value inside one of the action's objects (its trade, its cost)."""
    inner = [key for key, value in action.items() if isinstance(value, dict)]
    if not inner:
        return
    part = action[rng.choice(inner)]
    if part and rng.random() < 0.5:
        key = rng.choice(list(part))
        if isinstance(part[key], dict) and rng.random() < 0.6:
            part[key][rng.choice(RESOURCES)] = rng.choice(ODD_VALUES)
        else:
            part[key] = rng.choice(ODD_VALUES)
    else:
        part[rng.choice(["left", "right", "bank", "x"])] = rng.choice(ODD_VALUES)


def log_entries_of_legal_actions(game: Game, seat: int) -> list[Any]:
    """The log entry each legal action of this seat makes."""
    entries = []
    for action in game.legal_actions(seat):
        other = game.clone()
        other.apply(seat, action)
        entries.append(other.log[-1])
    return entries


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
    assert accepted in log_entries_of_legal_actions(game, seat), f"{action!r} was accepted as {accepted}"


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
                    try_hostile(game, seat, hostile(rng.choice(legal), rng, names), claimed)
                    tried += 1
                game.apply(seat, rng.choice(legal))
                if game.is_over:
                    break
    assert tried > 1_000
