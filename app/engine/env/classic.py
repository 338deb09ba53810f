"""7 Wonders (and Armada) as a PettingZoo Parallel environment: see `app.engine.env` for the design.

Everything here reads the engine through its public face only: `new_game`, `game.view(seat)`,
`game.legal_actions(seat)`, `game.apply`, `game.to_act`, `game.is_over`, `game.result()` and the
box `describe_components()`.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from app.engine import GameConfig, describe_components, new_game
from app.engine.env._layout import Layout

Action = dict[str, Any]

PHASES = ("pick", "last_card", "discard_build", "over")
ARMADA_PHASES = ("pick", "last_card", "discard_build", "explore", "over")
DECISIONS = ("pick", "last_card", "build_from_discard")
ARMADA_DECISIONS = ("pick", "last_card", "build_from_discard", "keep_island")
PICK_TYPES = ("build", "wonder", "discard")
PENDING_KINDS = ("build", "wonder", "discard", "build_from_discard", "keep_island")
FOLLOW_UPS = ("stage", "moves")
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


@dataclass(frozen=True)
class Pending:
    """A seat's choice in progress: the primary index it chose, and the wonder stage once chosen."""

    index: int
    stage: int | None = None


class ClassicSpec:
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

    # ----- the action index ------------------------------------------------------------------------

    def _actions(self) -> None:
        names: list[str] = ["noop"]
        keys: list[tuple[Any, ...]] = [("noop",)]

        def block(kind: str, label: str, items: Sequence[Any], extra: Any = None) -> None:
            for item in items:
                keys.append((kind, item, extra) if extra is not None else (kind, item))
                names.append(f"{label}:{item}")

        block("build", "build", self.cards, False)
        if self.armada:
            block("build", "build+naval", self.cards, True)
        block("wonder", "wonder", self.cards, False)
        if self.armada:
            block("wonder", "wonder+naval", self.cards, True)
        block("discard", "discard", self.cards, False)
        if self.armada:
            block("discard", "discard+yellow", self.cards, True)
        block("build_from_discard", "build_from_discard", self.cards)
        keys.append(("pass",))
        names.append("pass")
        if self.armada:
            block("keep_island", "keep_island", self.islands)
            block("stage", "stage", list(range(1, self.max_stages + 1)))
            for m in range(1 << len(self.tracks)):
                keys.append(("moves", m))
                names.append("moves:" + ("+".join(self.moves_of(m)) or "none"))
        self.action_names = names
        self.action_keys = keys
        self.index = {k: i for i, k in enumerate(keys)}
        self.noop = 0
        self.stage_base = self.index.get(("stage", 1), -1)
        self.moves_base = self.index.get(("moves", 0), -1)

    def moves_of(self, code: int) -> list[str]:
        return [t for i, t in enumerate(self.tracks) if code >> i & 1]

    def moves_code(self, action: Action) -> int:
        return sum(1 << self.tracks.index(t) for t in action.get("moves", ()))

    def primary(self, action: Action) -> int:
        """The primary index of an engine action (stage, ship moves and payment left out)."""
        kind = action["type"]
        if kind in ("build", "wonder"):
            key: tuple[Any, ...] = (kind, action["card"], bool(action.get("naval")))
        elif kind == "discard":
            reward = action.get("reward")
            if reward not in (None, "yellow"):
                raise ValueError(f"a discard reward the environment does not know: {reward!r}")
            key = ("discard", action["card"], reward == "yellow")
        elif kind == "build_from_discard":
            key = ("build_from_discard", action["card"])
        elif kind == "pass":
            key = ("pass",)
        elif kind == "keep_island":
            key = ("keep_island", action["island"])
        else:
            raise ValueError(f"an action type the environment does not know: {kind!r}")
        return self.index[key]

    def groups(self, legal: Sequence[Action]) -> dict[int, list[Action]]:
        out: dict[int, list[Action]] = {}
        for action in legal:
            out.setdefault(self.primary(action), []).append(action)
        return out

    def candidates(self, groups: dict[int, list[Action]], pending: Pending) -> list[Action]:
        options = groups.get(pending.index, [])
        if pending.stage is not None:
            options = [a for a in options if a.get("stage") == pending.stage]
        return options

    def follow_up(self, options: Sequence[Action], pending: Pending) -> str | None:
        """What the seat must still choose among these options: 'stage', then 'moves', or nothing."""
        if pending.stage is None and len({a.get("stage") for a in options}) > 1:
            return "stage"
        if len({self.moves_code(a) for a in options}) > 1:
            return "moves"
        return None

    def mask(self, groups: dict[int, list[Action]], pending: Pending | None, owes: bool) -> np.ndarray:
        mask = np.zeros(len(self.action_names), dtype=np.int8)
        if not owes:
            mask[self.noop] = 1
        elif pending is None:
            mask[list(groups)] = 1
        else:
            options = self.candidates(groups, pending)
            step = self.follow_up(options, pending)
            if step == "stage":
                mask[[self.stage_base + a["stage"] - 1 for a in options]] = 1
            elif step == "moves":
                mask[[self.moves_base + self.moves_code(a) for a in options]] = 1
        return mask

    def choose(self, groups: dict[int, list[Action]], pending: Pending | None, index: int) -> Pending | Action:
        """One step of a seat's choice: the engine action to apply, or the choice in progress."""
        if pending is None:
            if index not in groups:
                raise ValueError(f"action {index} ({self._name(index)}) is not legal now: see the action mask")
            pending = Pending(index)
        else:
            options = self.candidates(groups, pending)
            step = self.follow_up(options, pending)
            if step == "stage" and self.stage_base <= index < self.stage_base + self.max_stages:
                stage = index - self.stage_base + 1
                if not any(a.get("stage") == stage for a in options):
                    raise ValueError(f"action {index} ({self._name(index)}) is not legal now: see the action mask")
                pending = Pending(pending.index, stage)
            elif step == "moves" and self.moves_base <= index < self.moves_base + (1 << len(self.tracks)):
                code = index - self.moves_base
                chosen = [a for a in options if self.moves_code(a) == code]
                if not chosen:
                    raise ValueError(f"action {index} ({self._name(index)}) is not legal now: see the action mask")
                return cheapest(chosen)
            else:
                raise ValueError(f"action {index} ({self._name(index)}) is not legal now: the seat owes a {step}")
        options = self.candidates(groups, pending)
        if self.follow_up(options, pending) is None:
            return cheapest(options)
        return pending

    def _name(self, index: int) -> str:
        return self.action_names[index] if 0 <= index < len(self.action_names) else "out of range"

    # ----- the observation layout --------------------------------------------------------------------

    def _layout(self) -> None:
        lay = Layout()
        cards, res = self.cards, self.resources
        lay.add("age", 1, 0, 3, "the Age (1-3)")
        lay.add("turn", 1, 0, 8, "the turn within the Age")
        lay.add("turns_per_age", 1, 0, 8, "turns in an Age (6; 7 with Armada)")
        lay.add("phase", list(self.phases), 0, 1, "the game's phase, one-hot")
        lay.add("direction", 1, -1, 1, "hands pass to the left (+1) or to the right (-1)")
        lay.add("discard_pile_size", 1, 0, 200, "cards in the discard pile")
        lay.add("decision", list(self.decisions), 0, 1, "what this seat must decide now, one-hot (none: zeros)")
        lay.add("hand", cards, 0, MAX_COUNT, "this seat's hand: copies of each card")
        lay.add("discard_options", cards, 0, MAX_COUNT, "Halikarnassos: the discarded cards this seat may build")
        lay.add("own_pick", list(PICK_TYPES), 0, 1, "this seat's pick not yet revealed (build, wonder, discard)")
        lay.add("own_pick_card", cards, 0, 1, "the card of that pick")
        if self.armada:
            lay.add("island_offer", self.islands, 0, 1, "Armada: the islands this seat drew and keeps one of")
            lay.add("island_decks", ["1", "2", "3"], 0, 30, "Armada: islands left in each level's deck")
            lay.add("follow_up", list(FOLLOW_UPS), 0, 1, "a choice in progress asks for a wonder stage or ship moves")
            lay.add("pending_kind", list(PENDING_KINDS), 0, 1, "the kind of that choice's primary action")
            lay.add("pending_naval", 1, 0, 1, "that primary action pays the naval step too")
            lay.add("pending_card", cards, 0, 1, "that primary action's card")
            lay.add("pending_island", self.islands, 0, 1, "that primary action's island")
            lay.add("pending_stage", self.max_stages, 0, 1, "the wonder stage already chosen in it")
        lay.add(
            "action_cost",
            self.action_names,
            0,
            MAX_COINS,
            "for each legal primary index, the fewest coins its options cost (0 when not legal)",
        )
        for k in range(self.players):
            p = f"players[{k}]."
            who = "this seat" if k == 0 else f"the player {k} seat(s) to the left"
            lay.add(p + "wonder", self.wonders, 0, 1, f"{who}: wonder, one-hot")
            lay.add(p + "night", 1, 0, 1, "its side is night (0: day)")
            lay.add(p + "coins", 1, 0, MAX_COINS, "coins")
            lay.add(p + "city", cards, 0, MAX_COUNT, "the cards built in its city")
            lay.add(p + "stages_built", 1, 0, self.max_stages, "wonder stages built")
            lay.add(p + "stages_total", 1, 0, self.max_stages, "wonder stages on its side")
            lay.add(p + "built_stages", self.max_stages, 0, 1, "which stages are built (Siracusa builds in any order)")
            lay.add(
                p + "military",
                ["victory_points", "defeat_tokens", "total"],
                -MAX_POINTS,
                MAX_POINTS,
                "military tokens: points of its victories, number of defeats, their sum",
            )
            lay.add(p + "shields", 1, 0, MAX_POINTS, "shields")
            lay.add(p + "science", self.symbols, 0, MAX_COUNT, "science symbols (and wildcards)")
            lay.add(p + "has_chosen", 1, 0, 1, "it has picked this turn (never what)")
            lay.add(p + "to_act", 1, 0, 1, "it owes a decision now")
            lay.add(p + "hand_size", 1, 0, MAX_COUNT, "cards in its hand")
            lay.add(p + "production", res, 0, MAX_COUNT, "units it produces of each resource for sure")
            lay.add(p + "production_choices", res, 0, MAX_COUNT, "its either/or productions offering each resource")
            lay.add(p + "sells", res, 0, MAX_COUNT, "units it sells to neighbours for sure")
            lay.add(p + "sells_choices", res, 0, MAX_COUNT, "its either/or productions for sale offering each resource")
            lay.add(p + "price_left", res, 0, 10, "what it pays its left neighbour for a unit")
            lay.add(p + "price_right", res, 0, 10, "what it pays its right neighbour for a unit")
            if self.armada:
                lay.add(p + "shipyard", self.shipyards, 0, 1, "Armada: its shipyard board, one-hot")
                lay.add(p + "wonder_track", self.tracks, 0, 1, "the track bearing the wonder symbol")
                lay.add(p + "ships", self.tracks, 0, 6, "each ship's space (0-6)")
                lay.add(p + "naval_strength", 1, 0, MAX_POINTS, "naval strength")
                lay.add(p + "commercial_level", 1, 0, MAX_COUNT, "commercial level")
                lay.add(p + "islands", self.islands, 0, 1, "the islands it kept")
                lay.add(
                    p + "naval_tokens",
                    ["victory_points", "defeat_points", "total"],
                    -MAX_POINTS,
                    MAX_POINTS,
                    "naval tokens: points won, points lost (positive), their sum",
                )
                lay.add(p + "next_cost_coins", self.tracks, 0, 10, "the next step's coins on each track")
                lay.add(
                    p + "next_cost_resources",
                    [f"{t}.{r}" for t in self.tracks for r in res],
                    0,
                    10,
                    "the next step's resources on each track",
                )
                lay.add(p + "track_done", self.tracks, 0, 1, "the ship is at the top (no next step)")
                lay.add(p + "landings", ["owner", "target"], 0, 7, "landings this Age it owns / aimed at it")
        self.layout = lay
        self.low, self.high = lay.bounds()
        self._offsets = [
            {
                name[len(f"players[{k}].") :]: f.start
                for name, f in lay.fields.items()
                if name.startswith(f"players[{k}].")
            }
            for k in range(self.players)
        ]

    # ----- the observation ---------------------------------------------------------------------------

    def encode(
        self,
        view: dict[str, Any],
        legal: Sequence[Action],
        pending: Pending | None = None,
        owes: bool | None = None,
    ) -> dict[str, np.ndarray]:
        """The observation of the seat whose view this is, from that view, its legal actions and its
        own choice in progress only."""
        seat = view["seat"]
        owes = bool(legal) if owes is None else owes
        groups = self.groups(legal)
        lay = self.layout
        x = np.zeros(lay.size, dtype=np.float32)
        ci = self.card_index
        x[lay["age"]] = view["age"]
        x[lay["turn"]] = view["turn"]
        x[lay["turns_per_age"]] = view["turns_per_age"]
        x[lay["phase"] + self.phases.index(view["phase"])] = 1
        x[lay["direction"]] = 1 if view["direction"] == "left" else -1
        x[lay["discard_pile_size"]] = view["discard_pile_size"]
        decision = view.get("decision")
        if decision is not None and (decision["kind"] != "pick" or decision.get("pending")):
            x[lay["decision"] + self.decisions.index(decision["kind"])] = 1
        for card in view["hand"]:
            x[lay["hand"] + ci[card]] += 1
        if decision is not None:
            for card in decision.get("options", ()):
                x[lay["discard_options"] + ci[card]] += 1
            for island in decision.get("islands", ()):
                x[lay["island_offer"] + self.island_index[island]] = 1
        pick = view.get("pick")
        if pick is not None:
            x[lay["own_pick"] + PICK_TYPES.index(pick["type"])] = 1
            x[lay["own_pick_card"] + ci[pick["card"]]] = 1
        if self.armada:
            for level, left in view["armada"]["island_decks"].items():
                x[lay["island_decks"] + int(level) - 1] = left
            if pending is not None:
                step = self.follow_up(self.candidates(groups, pending), pending)
                if step is not None:
                    x[lay["follow_up"] + FOLLOW_UPS.index(step)] = 1
                key = self.action_keys[pending.index]
                x[lay["pending_kind"] + PENDING_KINDS.index(key[0])] = 1
                if key[0] == "keep_island":
                    x[lay["pending_island"] + self.island_index[key[1]]] = 1
                else:
                    x[lay["pending_card"] + ci[key[1]]] = 1
                    x[lay["pending_naval"]] = key[0] in ("build", "wonder") and key[2]
                if pending.stage is not None:
                    x[lay["pending_stage"] + pending.stage - 1] = 1
        cost = lay["action_cost"]
        for index, options in groups.items():
            x[cost + index] = min(cost_of(a) for a in options)
        n = self.players
        landings = view["armada"]["landings"] if self.armada else []
        for k in range(n):
            self._player(x, k, view["players"][(seat + k) % n], view, landings)
        np.clip(x, self.low, self.high, out=x)
        return {"observation": x, "action_mask": self.mask(groups, pending, owes)}

    def _player(self, x: np.ndarray, k: int, pl: dict[str, Any], view: dict[str, Any], landings: list[Any]) -> None:
        o = self._offsets[k]
        ci, res = self.card_index, self.resources
        x[o["wonder"] + self.wonder_index[pl["wonder"]]] = 1
        x[o["night"]] = pl["side"] == "night"
        x[o["coins"]] = pl["coins"]
        city = o["city"]
        for card in pl["city"]:
            x[city + ci[card]] += 1
        x[o["stages_built"]] = pl["stages_built"]
        x[o["stages_total"]] = pl["stages_total"]
        for stage in pl["built_stages"]:
            x[o["built_stages"] + stage - 1] = 1
        self._tokens(x, o["military"], pl["military_tokens"], count_defeats=True)
        x[o["shields"]] = pl["shields"]
        science = pl["science"]
        at = o["science"]
        for i, symbol in enumerate(self.symbols):
            x[at + i] = science.get(symbol, 0)
        x[o["has_chosen"]] = pl["has_chosen"]
        x[o["to_act"]] = pl["seat"] in view["to_act"]
        x[o["hand_size"]] = pl["hand_size"]
        for name in ("production", "sells"):
            self._production(x, o[name], o[name + "_choices"], pl[name])
        for side in ("left", "right"):
            at, prices = o["price_" + side], pl["prices"][side]
            for i, r in enumerate(res):
                x[at + i] = prices.get(r, 0)
        if not self.armada:
            return
        yard = pl["shipyard"]
        x[o["shipyard"] + self.shipyards.index(yard["board"])] = 1
        x[o["wonder_track"] + self.tracks.index(yard["wonder_track"])] = 1
        for i, t in enumerate(self.tracks):
            x[o["ships"] + i] = yard["ships"][t]
            cost = yard["next_costs"][t]
            if cost is None:
                x[o["track_done"] + i] = 1
                continue
            x[o["next_cost_coins"] + i] = cost.get("coins", 0)
            at = o["next_cost_resources"] + i * len(res)
            for r, n in cost.items():
                if r != "coins":
                    x[at + self.resource_index[r]] = n
        x[o["naval_strength"]] = yard["naval_strength"]
        x[o["commercial_level"]] = yard["commercial_level"]
        for island in yard["islands"]:
            x[o["islands"] + self.island_index[island]] = 1
        self._tokens(x, o["naval_tokens"], yard["naval_tokens"], count_defeats=False)
        if landings:
            x[o["landings"]] = sum(1 for landing in landings if landing["owner"] == pl["seat"])
            x[o["landings"] + 1] = sum(1 for landing in landings if landing["target"] == pl["seat"])

    @staticmethod
    def _tokens(x: np.ndarray, at: int, tokens: Sequence[int], count_defeats: bool) -> None:
        x[at] = sum(t for t in tokens if t > 0)
        losses = [t for t in tokens if t < 0]
        x[at + 1] = len(losses) if count_defeats else -sum(losses)
        x[at + 2] = sum(tokens)

    def _production(self, x: np.ndarray, fixed: int, choices: int, production: dict[str, Any]) -> None:
        ri = self.resource_index
        for r, n in production["resources"].items():
            x[fixed + ri[r]] = n
        for options in production["choices"]:
            for r in set(options):
                x[choices + ri[r]] += 1


def observation_space(spec: Any) -> spaces.Dict:
    """The observation space of a spec (classic or Duel): the vector and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(spec.low, spec.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (len(spec.action_names),), dtype=np.int8),
        }
    )


class ClassicEnv(ParallelEnv):
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

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def action_names(self) -> list[str]:
        return self.spec.action_names

    def observation_layout(self) -> list[dict[str, Any]]:
        return self.spec.layout.describe()

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
