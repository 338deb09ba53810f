"""The classic environment's observation: its layout field by field, and the encoding of one
seat's view, legal actions and choice in progress."""

from collections.abc import Sequence
from typing import Any

import numpy as np

from app.engine.env._layout import Layout
from app.engine.env.classic_actions import Pending
from app.engine.env.common import MAX_COINS, MAX_COUNT, MAX_POINTS, Action, cost_of

PHASES = ("pick", "last_card", "discard_build", "over")
ARMADA_PHASES = ("pick", "last_card", "discard_build", "explore", "over")
DECISIONS = ("pick", "last_card", "build_from_discard")
ARMADA_DECISIONS = ("pick", "last_card", "build_from_discard", "keep_island")
PICK_TYPES = ("build", "wonder", "discard")
PENDING_KINDS = ("build", "wonder", "discard", "build_from_discard", "keep_island")
FOLLOW_UPS = ("stage", "moves")


class ClassicObservation:
    """The observation part of ClassicSpec (which sets the names and indexes it reads; the action
    index part gives groups, candidates, follow_up and mask)."""

    players: int
    armada: bool
    cards: list[str]
    wonders: list[str]
    resources: list[str]
    symbols: list[str]
    islands: list[str]
    tracks: list[str]
    shipyards: list[str]
    max_stages: int
    phases: tuple[str, ...]
    decisions: tuple[str, ...]
    card_index: dict[str, int]
    resource_index: dict[str, int]
    wonder_index: dict[str, int]
    island_index: dict[str, int]
    action_names: list[str]
    action_keys: list[tuple[Any, ...]]

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
