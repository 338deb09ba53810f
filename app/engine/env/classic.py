"""7 Wonders (and Armada) as a PettingZoo Parallel environment: see `app.engine.env` for the design.

Everything here reads the engine through its public face only: `new_game`, `game.view(seat)`,
`game.legal_actions(seat)`, `game.apply`, `game.to_act`, `game.is_over`, `game.result()` and the
box `describe_components()`.
"""

from collections.abc import Iterable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from app.engine import GameConfig, describe_components, new_game
from app.engine.env.classic_actions import ClassicActionIndex, Pending
from app.engine.env.classic_observation import ARMADA_DECISIONS, ARMADA_PHASES, DECISIONS, PHASES, ClassicObservation
from app.engine.env.common import REWARDS, Action, SpecAccessors, observation_space, result_rewards


class ClassicSpec(ClassicActionIndex, ClassicObservation):
    """The fixed action index and observation layout of one classic configuration (players and
    expansions), both made from `describe_components()`'s card order."""

    def __init__(self, players: int, expansions: Iterable[str] = ()) -> None:
        box = describe_components()
        self.players = players
        self.expansions = tuple(expansions)
        self.armada = "armada" in self.expansions
        classic, armada = box["classic"], box["armada"]
        self.cards: list[str] = list(classic["cards"]) + (list(armada["cards"]) if self.armada else [])
        self.wonders: list[str] = list(classic["wonders"]) + (list(armada["wonders"]) if self.armada else [])
        wonder_data = {**classic["wonders"], **(armada["wonders"] if self.armada else {})}
        self.max_stages = max(len(stages) for w in self.wonders for stages in wonder_data[w]["sides"].values())
        self.resources: list[str] = list(box["resources"])
        self.symbols: list[str] = [*classic["science_symbols"], "any"]
        self.islands: list[str] = list(armada["islands"]) if self.armada else []
        self.tracks: list[str] = list(armada["ship_tracks"]) if self.armada else []
        self.shipyards: list[str] = list(armada["shipyards"]) if self.armada else []
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.resource_index = {r: i for i, r in enumerate(self.resources)}
        self.wonder_index = {w: i for i, w in enumerate(self.wonders)}
        self.island_index = {c: i for i, c in enumerate(self.islands)}
        self.phases = ARMADA_PHASES if self.armada else PHASES
        self.decisions = ARMADA_DECISIONS if self.armada else DECISIONS
        self._actions()
        self._layout()


def make_spec(players: int, expansions: Iterable[str]) -> ClassicSpec:
    """The spec of a game of this kind (the registry's `env`)."""
    return ClassicSpec(players, expansions)


class ClassicEnv(SpecAccessors, ParallelEnv):
    """7 Wonders (and Armada) for 3-7 players as a PettingZoo Parallel environment.

    Agents `player_0` ... `player_{N-1}` are the seats. Every live agent sends an action each step;
    a seat that owes no decision now (it has picked, or another seat owes a special decision) has
    only `noop` (index 0) in its mask and whatever it sends is ignored. See `app.engine.env`.
    """

    metadata = {"name": "wonders_classic_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(
        self,
        players: int = 4,
        expansions: Iterable[str] = (),
        wonder_side: str = "random",
        reward: str = "margin",
        render_mode: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.spec = ClassicSpec(players, expansions)
        GameConfig(game="classic", players=players, expansions=list(self.spec.expansions), wonder_side=wonder_side)
        self.wonder_side = wonder_side
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self.observation_spaces = {a: observation_space(self.spec) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.spec.action_names)) for a in self.possible_agents}
        self.game: Any = None
        self._seeds = np.random.default_rng()
        self._pending: dict[int, Pending] = {}
        self._legal: dict[int, list[Action]] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**31))
        config = GameConfig(
            game="classic",
            players=self.spec.players,
            seed=game_seed,
            expansions=list(self.spec.expansions),
            wonder_side=self.wonder_side,  # type: ignore[arg-type]
        )
        self.game = new_game(config)
        self.agents = list(self.possible_agents)
        self._pending = {}
        self._refresh()
        return self._observations(), self._infos()

    def _refresh(self) -> None:
        to_act = set(self.game.to_act)
        self._legal = {
            seat: self.game.legal_actions(seat) if seat in to_act else [] for seat in range(self.spec.players)
        }

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return self.spec.encode(
            self.game.view(seat), self._legal[seat], self._pending.get(seat), bool(self._legal[seat])
        )

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.observe(agent) for agent in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        out = {}
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            pending = self._pending.get(seat)
            step = None
            if pending is not None:
                step = self.spec.follow_up(self.spec.candidates(self.spec.groups(self._legal[seat]), pending), pending)
            out[agent] = {"seat": seat, "owes_decision": bool(self._legal[seat]), "follow_up": step}
        return out

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        to_apply: list[tuple[int, Action]] = []
        for seat, agent in enumerate(self.possible_agents):
            legal = self._legal[seat]
            if not legal:
                continue  # owes nothing: its action (noop) is ignored
            if agent not in actions:
                raise ValueError(f"{agent} owes a decision: step() needs its action")
            choice = self.spec.choose(self.spec.groups(legal), self._pending.get(seat), int(actions[agent]))
            if isinstance(choice, Pending):
                self._pending[seat] = choice
            else:
                self._pending.pop(seat, None)
                to_apply.append((seat, choice))
        for seat, action in to_apply:
            if seat not in self.game.to_act:
                raise RuntimeError(f"seat {seat} no longer owes a decision (the engine moved on)")
            self.game.apply(seat, action)
        agents = list(self.agents)
        if self.game.is_over:
            result = self.game.result()
            values = result_rewards(result, self.spec.players, self.reward)
            self._pending = {}
            self._legal = {seat: [] for seat in range(self.spec.players)}
            observations = self._observations()
            rewards = {a: values[i] for i, a in enumerate(self.possible_agents)}
            terminations = dict.fromkeys(agents, True)
            totals = [s["total"] for s in sorted(result["scores"], key=lambda s: s["seat"])]
            infos = {
                a: {
                    "seat": i,
                    "owes_decision": False,
                    "follow_up": None,
                    "totals": totals,
                    "winners": result["winners"],
                }
                for i, a in enumerate(self.possible_agents)
            }
            self.agents = []
            return observations, rewards, terminations, dict.fromkeys(agents, False), infos
        self._refresh()
        # a choice in progress whose options went away (nothing in the engine does that) starts again
        for seat, pending in list(self._pending.items()):
            if not self.spec.candidates(self.spec.groups(self._legal[seat]), pending):
                del self._pending[seat]
        return (
            self._observations(),
            dict.fromkeys(agents, 0.0),
            dict.fromkeys(agents, False),
            dict.fromkeys(agents, False),
            self._infos(),
        )

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        view = self.game.view(None)
        lines = [f"Age {view['age']} turn {view['turn']} ({view['phase']}), to act: {view['to_act']}"]
        for p in view["players"]:
            lines.append(
                f"  seat {p['seat']} {p['wonder']} ({p['side']}): {p['coins']} coins, "
                f"{p['stages_built']}/{p['stages_total']} stages, {p['shields']} shields, {len(p['city'])} cards"
            )
        return "\n".join(lines)

    def close(self) -> None:
        pass


def classic_env(
    players: int = 4,
    expansions: Iterable[str] = (),
    wonder_side: str = "random",
    reward: str = "margin",
    render_mode: str | None = None,
) -> ClassicEnv:
    """A PettingZoo Parallel environment of 7 Wonders for `players` seats (3-7), with Armada when
    `expansions` holds "armada". `reward`: "margin" (own total minus the best other total) or
    "win" (+1 only winner, 0 shared win, -1 otherwise), given at the end only."""
    return ClassicEnv(players, expansions, wonder_side, reward, render_mode)
