"""What both environments share: coins an action pays, the cheapest option, end rewards, the
observation space and the bounds of the observation."""

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from app.engine.common.game import Action

REWARDS = ("margin", "win")

# bounds of the observation (values past them are clipped: no real game comes near)
MAX_COINS = 200
MAX_COUNT = 16
MAX_POINTS = 100


def cost_of(action: Action) -> int:
    """Every coin an action pays: the bank and each neighbour (and the far players of Armada)."""
    cost = action.get("cost")
    if isinstance(cost, dict):
        return sum(cost.values())
    return int(cost or 0)


def cheapest(actions: Sequence[Action]) -> Action:
    """The option paying the fewest coins in all; on a tie the engine's first (it lists cheapest first)."""
    return min(actions, key=cost_of)


def result_rewards(result: dict[str, Any], seats: int, reward: str) -> list[float]:
    """Each seat's reward at the end: `margin`, its total minus the best other total; `win`, +1 for
    the only winner, 0 for a shared win, -1 for every other seat."""
    totals = {s["seat"]: s["total"] for s in result["scores"]}
    winners = set(result["winners"])
    out = []
    for seat in range(seats):
        if reward == "margin":
            out.append(float(totals[seat] - max(t for s, t in totals.items() if s != seat)))
        elif seat in winners:
            out.append(1.0 if len(winners) == 1 else 0.0)
        else:
            out.append(-1.0)
    return out


def observation_space(spec: Any) -> spaces.Dict:
    """The observation space of a spec (classic or Duel): the vector and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(spec.low, spec.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (len(spec.action_names),), dtype=np.int8),
        }
    )


class SpecAccessors:
    """The spaces, action names and observation layout of an environment made from a spec (both
    games' environments)."""

    spec: Any
    observation_spaces: dict[str, spaces.Space]
    action_spaces: dict[str, spaces.Space]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def action_names(self) -> list[str]:
        return self.spec.action_names

    def observation_layout(self) -> list[dict[str, Any]]:
        return self.spec.layout.describe()
