"""7 Wonders Duel as a PettingZoo AEC environment: see `app.engine.env` for the design.

Everything here reads the engine through its public face only (`new_game`, `game.view(seat)`,
`game.legal_actions(seat)`, `game.apply`, `game.to_act`, `game.is_over`, `game.result()`) and the
box `describe_components()`.
"""

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from app.engine import GameConfig, describe_components, new_game
from app.engine.env._layout import Layout
from app.engine.env.common import (
    MAX_COINS,
    MAX_COUNT,
    MAX_POINTS,
    REWARDS,
    Action,
    SpecAccessors,
    cheapest,
    observation_space,
    result_rewards,
)

PHASES = (
    "draft",
    "play",
    "choose_progress",
    "destroy",
    "build_from_discard",
    "choose_box_token",
    "choose_starter",
    "over",
)
SLOTS = 20  # cards in each Age's structure
SLOT_STATES = ("face_up", "face_down", "taken", "accessible")


class DuelSpec:
    """The fixed action index and observation layout of Duel, made from `describe_components()`."""

    def __init__(self) -> None:
        box = describe_components()
        duel = box["duel"]
        self.cards: list[str] = list(duel["cards"])
        self.wonders: list[str] = list(duel["wonders"])
        self.tokens: list[str] = list(duel["progress_tokens"])
        self.symbols: list[str] = list(duel["science_symbols"])
        self.resources: list[str] = list(box["resources"])
        colors = {e["color"] for w in duel["wonders"].values() for e in w["effects"] if e["type"] == "destroy"}
        self.destroyable = [c for c, card in duel["cards"].items() if card["color"] in colors]
        self.loot = [(t["from"], t["coins"]) for t in duel["military_track"]["loot_tokens"]]
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.wonder_index = {w: i for i, w in enumerate(self.wonders)}
        self.token_index = {t: i for i, t in enumerate(self.tokens)}
        self._actions()
        self._layout()

    # ----- the action index ------------------------------------------------------------------------

    def _actions(self) -> None:
        keys: list[tuple[Any, ...]] = [("noop",)]
        keys += [("draft_wonder", w) for w in self.wonders]
        keys += [("build", c) for c in self.cards]
        keys += [("discard", c) for c in self.cards]
        keys += [("wonder", c, w) for c in self.cards for w in self.wonders]
        keys += [("build_from_discard", c) for c in self.cards]
        keys += [("destroy", c) for c in self.destroyable]
        keys += [("choose_progress", t) for t in self.tokens]
        keys += [("choose_box_token", t) for t in self.tokens]
        keys += [("choose_starter", "me"), ("choose_starter", "opponent")]
        self.action_keys = keys
        self.action_names = [k[0] if len(k) == 1 else f"{k[0]}:{'@'.join(k[1:])}" for k in keys]
        self.index = {k: i for i, k in enumerate(keys)}
        self.noop = 0

    def primary(self, action: Action, seat: int) -> int:
        kind = action["type"]
        if kind == "wonder":
            key: tuple[Any, ...] = ("wonder", action["card"], action["wonder"])
        elif kind in ("build", "discard", "build_from_discard", "destroy"):
            key = (kind, action["card"])
        elif kind == "draft_wonder":
            key = (kind, action["wonder"])
        elif kind in ("choose_progress", "choose_box_token"):
            key = (kind, action["token"])
        elif kind == "choose_starter":
            key = (kind, "me" if action["seat"] == seat else "opponent")
        else:
            raise ValueError(f"an action type the environment does not know: {kind!r}")
        return self.index[key]

    def groups(self, legal: Sequence[Action], seat: int) -> dict[int, list[Action]]:
        out: dict[int, list[Action]] = {}
        for action in legal:
            out.setdefault(self.primary(action, seat), []).append(action)
        return out

    def mask(self, groups: dict[int, list[Action]]) -> np.ndarray:
        mask = np.zeros(len(self.action_keys), dtype=np.int8)
        if groups:
            mask[list(groups)] = 1
        else:
            mask[self.noop] = 1
        return mask

    # ----- the observation layout --------------------------------------------------------------------

    def _layout(self) -> None:
        lay = Layout()
        cards, wonders, tokens = self.cards, self.wonders, self.tokens
        lay.add("age", 1, 0, 3, "the Age (0 during the Wonder draft)")
        lay.add("phase", list(PHASES), 0, 1, "what is being decided now, one-hot")
        lay.add("my_turn", 1, 0, 1, "this seat owes the decision")
        lay.add("i_started", 1, 0, 1, "this seat played first in this Age (or drafts first)")
        lay.add("conflict_pawn", 1, -9, 9, "the conflict pawn: positive toward the opponent's capital")
        lay.add(
            "loot_tokens",
            [f"{who}.{at}" for who in ("mine", "opponent") for at, _ in self.loot],
            0,
            1,
            "military tokens still on the board, on this seat's half or the opponent's, by distance",
        )
        lay.add("wonders_built", 1, 0, 8, "Wonders built by both players")
        lay.add("max_wonders", 1, 0, 8, "Wonders that may be built in all")
        lay.add("draft_round", 1, 0, 2, "the Wonder draft's round (0 after the draft)")
        lay.add("draft_pick", 1, 0, 8, "Wonders picked so far in the draft")
        lay.add("draft_offer", wonders, 0, 1, "Wonders offered in the draft now")
        lay.add("slots", [f"{i}.{s}" for i in range(SLOTS) for s in SLOT_STATES], 0, 1, "each structure slot")
        lay.add("card_slot", cards, 0, SLOTS, "slot+1 of each face-up card of the structure (0: not face up there)")
        lay.add("accessible", cards, 0, 1, "cards that can be taken now")
        lay.add("face_down", ["age", "guild"], 0, SLOTS, "face-down cards of the structure, Age cards and guilds")
        lay.add("progress_board", tokens, 0, 1, "progress tokens on the board")
        lay.add("discard", cards, 0, 1, "the discard pile")
        lay.add("options", ["cards", "tokens"], 0, MAX_COUNT, "how many cards / tokens this decision lists")
        lay.add("option_cards", cards, 0, 1, "the cards this decision (destroy, discard build) lists")
        lay.add("option_tokens", tokens, 0, 1, "the tokens this decision (board or box) lists")
        lay.add("build_cost", cards, 0, MAX_COINS, "the coins each card's legal build costs (0: free or not legal)")
        lay.add("wonder_cost", wonders, 0, MAX_COINS, "the coins each Wonder legal now costs (0: not legal)")
        for k, who in enumerate(("me", "opponent")):
            p = f"players[{k}]."
            lay.add(p + "coins", 1, 0, MAX_COINS, f"{who}: coins")
            lay.add(p + "city", cards, 0, 1, "the cards built in its city")
            lay.add(p + "wonders", wonders, 0, 1, "its Wonders")
            lay.add(p + "wonders_built", wonders, 0, 1, "its built Wonders")
            lay.add(p + "progress_tokens", tokens, 0, 1, "its progress tokens")
            lay.add(p + "science", self.symbols, 0, MAX_COUNT, "its science symbols")
            lay.add(p + "production", self.resources, 0, MAX_COUNT, "units it produces for sure")
            lay.add(p + "production_choices", self.resources, 0, MAX_COUNT, "its either/or productions offering each")
            lay.add(p + "trade_prices", self.resources, 0, MAX_COINS, "what it pays the bank for a unit")
            lay.add(p + "discard_gain", 1, 0, MAX_COINS, "coins it gets for a discard")
            lay.add(p + "military_points", 1, 0, MAX_POINTS, "its military points now")
        self.layout = lay
        self.low, self.high = lay.bounds()

    # ----- the observation ---------------------------------------------------------------------------

    def encode(self, view: dict[str, Any], legal: Sequence[Action]) -> dict[str, np.ndarray]:
        """The observation of the seat whose view this is, from that view and its legal actions only."""
        seat = view["seat"]
        groups = self.groups(legal, seat)
        lay = self.layout
        ci = self.card_index
        x = np.zeros(lay.size, dtype=np.float32)
        x[lay["age"]] = view["age"]
        x[lay["phase"] + PHASES.index(view["phase"])] = 1
        x[lay["my_turn"]] = seat in view["to_act"]
        x[lay["i_started"]] = view["first_player"] == seat
        x[lay["conflict_pawn"]] = view["conflict_pawn"] if seat == 0 else -view["conflict_pawn"]
        for token in view["military_tokens"]:
            which = self.loot.index((token["from"], token["coins"]))
            x[lay["loot_tokens"] + (0 if token["seat"] == seat else len(self.loot)) + which] = 1
        x[lay["wonders_built"]] = view["wonders_built"]
        x[lay["max_wonders"]] = view["max_wonders"]
        draft = view.get("draft")
        if draft is not None:
            x[lay["draft_round"]] = draft["round"]
            x[lay["draft_pick"]] = draft["pick"]
            for w in draft["offer"]:
                x[lay["draft_offer"] + self.wonder_index[w]] = 1
        for entry in view["structure"]:
            at = lay["slots"] + entry["slot"] * len(SLOT_STATES)
            if entry.get("taken"):
                x[at + 2] = 1
            elif "card" in entry:
                x[at] = 1
                x[lay["card_slot"] + ci[entry["card"]]] = entry["slot"] + 1
                x[lay["accessible"] + ci[entry["card"]]] = entry["accessible"]
            else:
                x[at + 1] = 1
                x[lay["face_down"] + (1 if entry["back"] == "guild" else 0)] += 1
            x[at + 3] = entry["accessible"]
        for t in view["progress_tokens_board"]:
            x[lay["progress_board"] + self.token_index[t]] = 1
        for c in view["discard"]:
            x[lay["discard"] + ci[c]] = 1
        decision = view.get("decision")
        if decision is not None:
            for option in decision.get("options", ()):
                if option in ci:
                    x[lay["options"]] += 1
                    x[lay["option_cards"] + ci[option]] = 1
                elif option in self.token_index:
                    x[lay["options"] + 1] += 1
                    x[lay["option_tokens"] + self.token_index[option]] = 1
        for action in legal:
            if action["type"] == "build":
                x[lay["build_cost"] + ci[action["card"]]] = action["cost"]
            elif action["type"] == "wonder":
                x[lay["wonder_cost"] + self.wonder_index[action["wonder"]]] = action["cost"]
        for k in range(2):
            self._player(x, k, view["players"][(seat + k) % 2])
        np.clip(x, self.low, self.high, out=x)
        return {"observation": x, "action_mask": self.mask(groups)}

    def _player(self, x: np.ndarray, k: int, pl: dict[str, Any]) -> None:
        lay, p = self.layout, f"players[{k}]."
        x[lay[p + "coins"]] = pl["coins"]
        for c in pl["city"]:
            x[lay[p + "city"] + self.card_index[c]] = 1
        for w in pl["wonders"]:
            x[lay[p + "wonders"] + self.wonder_index[w["name"]]] = 1
            x[lay[p + "wonders_built"] + self.wonder_index[w["name"]]] = w["built"]
        for t in pl["progress_tokens"]:
            x[lay[p + "progress_tokens"] + self.token_index[t]] = 1
        for i, s in enumerate(self.symbols):
            x[lay[p + "science"] + i] = pl["science"].get(s, 0)
        for i, r in enumerate(self.resources):
            x[lay[p + "production"] + i] = pl["production"].get(r, 0)
            x[lay[p + "trade_prices"] + i] = pl["trade_prices"].get(r, 0)
        for options in pl["choices"]:
            for r in set(options):
                x[lay[p + "production_choices"] + self.resources.index(r)] += 1
        x[lay[p + "discard_gain"]] = pl["discard_gain"]
        x[lay[p + "military_points"]] = pl["military_points"]


def make_spec(players: int, expansions: Iterable[str]) -> DuelSpec:
    """The spec of a game of this kind (the registry's `env`): Duel has one, whatever is asked."""
    return DuelSpec()


class DuelEnv(SpecAccessors, AECEnv):
    """7 Wonders Duel as a PettingZoo AEC environment: agents `player_0` and `player_1`;
    `agent_selection` is the seat that owes the decision (the same seat again after a play-again).
    See `app.engine.env`."""

    metadata = {"name": "wonders_duel_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, reward: str = "win", render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.spec = DuelSpec()
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agents: list[str] = []
        self.observation_spaces = {a: observation_space(self.spec) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.spec.action_names)) for a in self.possible_agents}
        self.game: Any = None
        self._seeds = np.random.default_rng()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**31))
        self.game = new_game(GameConfig(game="duel", seed=game_seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"seat": i} for i, a in enumerate(self.agents)}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.to_act[0]]

    def _legal(self, seat: int) -> list[Action]:
        return self.game.legal_actions(seat) if seat in self.game.to_act else []

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        return self.spec.encode(self.game.view(seat), self._legal(seat))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        groups = self.spec.groups(self._legal(seat), seat)
        index = int(action)
        if index not in groups:
            name = self.spec.action_names[index] if 0 <= index < len(self.spec.action_names) else "out of range"
            raise ValueError(f"action {index} ({name}) is not legal now: see the action mask")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(seat, cheapest(groups[index]))
        self._clear_rewards()
        if self.game.is_over:
            result = self.game.result()
            values = result_rewards(result, 2, self.reward)
            totals = [s["total"] for s in sorted(result["scores"], key=lambda s: s["seat"])]
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = values[i]
                self.terminations[a] = True
                self.infos[a] = {
                    "seat": i,
                    "totals": totals,
                    "winners": result["winners"],
                    "victory": result["victory"],
                }
        else:
            self.agent_selection = self.possible_agents[self.game.to_act[0]]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        view = self.game.view(None)
        lines = [f"Age {view['age']} ({view['phase']}), pawn {view['conflict_pawn']}, to act: {view['to_act']}"]
        for p in view["players"]:
            built = [w["name"] for w in p["wonders"] if w["built"]]
            lines.append(f"  seat {p['seat']}: {p['coins']} coins, {len(p['city'])} cards, Wonders built {built}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def duel_env(reward: str = "win", render_mode: str | None = None) -> DuelEnv:
    """A PettingZoo AEC environment of 7 Wonders Duel. `reward`: "win" (+1 win, -1 loss, 0 shared)
    or "margin" (own total minus the opponent's; a supremacy win may have a negative margin),
    given at the end only."""
    return DuelEnv(reward, render_mode)
