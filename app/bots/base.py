"""Bot strategies. A bot sees only what a seat sees: its view and its legal actions."""

import random
from typing import Any

from app.bots.armada import ArmadaValues, is_armada
from app.engine import Action


def coins_paid(action: Action) -> int:
    """Every coin an action pays: a classic cost is coins per payee, a Duel cost one number."""
    cost = action.get("cost") or 0
    return sum(cost.values()) if isinstance(cost, dict) else int(cost)


class Bot:
    """Chooses one of the legal actions from what the seat may know. `plays`: the game kinds it
    plays (app.engine.game_kinds()), or None for any kind (it chooses among the legal actions
    without knowing the game)."""

    name = "bot"
    plays: frozenset[str] | None = None

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly random among all legal actions (every payment option included)."""

    name = "random"

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        return self.rng.choice(actions)


class GreedyBot(Bot):
    """Takes the action that looks best right now: builds over wonder stages over discards, less what
    they cost; with Armada, plus what a naval step or ship move reaches, and the best island."""

    name = "greedy"

    VALUES = {"build": 4.0, "wonder": 3.5, "build_from_discard": 5.0}  # what an action is worth, less its coins

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        armada = ArmadaValues(view, view["seat"]) if is_armada(view) else None
        return max(actions, key=lambda a: (self._value(view, a, armada), self.rng.random()))

    def _value(self, view: dict[str, Any], action: Action, armada: ArmadaValues | None = None) -> float:
        kind = action["type"]
        if kind in ("pass",):
            return -1.0
        if kind == "keep_island" and armada is not None:
            return armada.keep_island_value(action)  # the island worth most
        paid = coins_paid(action)
        value = self.VALUES.get(kind, 1.0)
        if kind == "build" and action.get("free"):
            value += 1.5
        age = view.get("age", 1)
        if kind == "wonder":
            value += 0.5 * age
        if armada is not None:  # a naval step, free ship moves, or the yellow ship of a discard
            if kind == "discard" and action.get("reward") == "yellow":
                value = 0.5
            value += armada.ships_value(action)
        return value - 0.6 * paid
