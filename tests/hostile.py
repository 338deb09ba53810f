"""Hostile changes to a legal action, for the engine's and the server's tests: keys dropped, values
swapped for values of every JSON type (huge and negative integers, floats, NaN, nested containers,
names of other cards and resources), unknown keys added, or no object at all."""

import copy
import random
from typing import Any

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 7, 2**63, -(2**63) - 1, 10**30, 1.5, float("nan"), float("inf"),
    "", "x", "left", "right", "bank", "wood", "stone", "glass", "papyrus", "build", "wonder", "discard",
    [], [1], ["left"], [[[]]], {}, {"a": 1}, {"left": {}}, {"wood": -1}, {"wood": 1.5}, {"wood": True},
    {"wood": "1"}, {"left": {"wood": 2**70}}, "\u0000", "é" * 5,
]  # fmt: skip
FIELDS = ["type", "card", "trade", "cost", "free", "stage", "naval", "moves", "reward", "wonder", "token", "x"]
RESOURCES = ["wood", "stone", "clay", "ore", "glass", "papyrus", "loom", "x"]


def odd_value(rng: random.Random, names: list[str] | None = None) -> Any:
    """One of the odd values (or a card name), a copy of its own: later changes stay in one action."""
    return copy.deepcopy(rng.choice(ODD_VALUES + (names or [])))


def hostile_action(action: dict[str, Any], rng: random.Random, names: list[str]) -> Any:
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
            out[rng.choice(keys)] = odd_value(rng, names)
        elif roll < 0.7:
            out[rng.choice(FIELDS)] = odd_value(rng, names)
        elif roll < 0.9:
            change_inside(out, rng)
        else:
            out = rng.choice([None, [], "build", 5, {}, {"type": odd_value(rng)}, out])
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
            part[key][rng.choice(RESOURCES)] = odd_value(rng)
        else:
            part[key] = odd_value(rng)
    else:
        part[rng.choice(["left", "right", "bank", "x"])] = odd_value(rng)
