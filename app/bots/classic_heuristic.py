"""A classic 7 Wonders bot that weighs what each legal action is worth at the end of the game.

It sees only what its seat sees (its view and its legal actions) plus the engine's public
description of the cards and wonders (as app.bots.box sums it up).
Each action is scored in victory points: points now, what shields change in the conflicts
with each neighbour, what a science symbol adds, production and discounts while Ages are
left to use them (more for a resource the city lacks), coins, less the coins it costs.
"""

from typing import Any

from app.bots.armada import ArmadaValues, is_armada
from app.bots.base import Action, GreedyBot
from app.bots.box import VICTORY, Card, Effects, all_cards, all_wonders, science_symbols
from app.bots.duel_heuristic import DuelHeuristic
from app.engine import science_points

ABILITY_VALUE = {
    "build_from_discard": 4.0,
    "play_last_card_each_age": 2.5,
    "free_first_card_each_color": 5.0,
    "free_first_card_each_age": 3.0,
    "free_last_card_each_age": 3.0,
}
# The weights below were measured with `python -m bench.bots` against tables of greedy bots (see
# the README): production is worth far more than its points say (a city short of resources pays
# for them every turn, or discards), most in Age 1 and less the more of a resource the city makes
# already; a coin counts 0.4 of a point gained or paid, a coin paid to a neighbour 0.1 more; a
# wonder stage is worth half a point more than its effects (it also hides a card); from 5 players
# on, shields weigh 0.7 of what they change in the conflicts (measured: more tables to watch, and
# the points lie elsewhere).
UNIT_WORTH = {1: 6.0, 2: 3.5, 3: 0.5}  # a unit of production built in Age 1, 2, 3
CHOICE_UNIT = 0.8  # a unit of one of several resources, as a share of a unit
WANTED = {"wood": 3, "stone": 3, "clay": 3, "ore": 3, "glass": 2, "papyrus": 2, "loom": 2}  # at most
SCARCITY_FLOOR = 0.15  # a unit of a resource the city has WANTED of already
COIN_WORTH = 0.4
TRADE_COST = 0.1
STAGE_BONUS = 0.5
MILITARY_SCALE = {3: 1.0, 4: 1.0}  # by players; 0.7 at 5 to 7
SCIENCE_LATER = 0.8  # a science symbol's worth per Age to come, whatever it is
# With Armada (against the greedy bot, which builds nearly every turn and hoards coins): naval
# steps cost resources, so production weighs more still; naval strength counts double (fleets
# grow all game long), a coin gained a third of a point, a coin paid half a point and a coin paid
# to another player 0.7 more (it feeds them and Armada's taxes and piracy drain coins anyway), and
# a card built (or tucked) is worth 1.5 points more than its effects say (each one may carry a
# naval step).
ARMADA_UNIT_WORTH = {1: 8.0, 2: 5.0, 3: 1.0}
ARMADA_NAVAL_WEIGHT = 2.0
ARMADA_COIN_GAINED = 1 / 3
ARMADA_COIN = 0.5
ARMADA_TRADE = 0.7
ARMADA_BUILD = 1.5


class HeuristicBot(GreedyBot):
    """Scores every legal action in estimated end-of-game points and takes the best (classic, with
    or without Armada); a Duel is weighed by app.bots.duel_heuristic."""

    name = "heuristic"
    plays = frozenset({"classic", "duel"})
    duel = DuelHeuristic()

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        if view.get("game") == "duel":
            return self.duel.choose(view, actions, self.rng.random)
        if view.get("game") != "classic":
            return super().choose(view, actions)
        seat = view["seat"]
        armada = self.armada_values(view, seat) if is_armada(view) else None
        return max(actions, key=lambda a: (self.value(view, seat, a, armada), self.rng.random()))

    def armada_values(self, view: dict[str, Any], seat: int) -> ArmadaValues:
        """How this bot values Armada's parts of an action (naval strength weighs double); a subclass
        may return a subclass of ArmadaValues that values some ship steps differently."""
        return ArmadaValues(view, seat, naval_weight=ARMADA_NAVAL_WEIGHT)

    def value(self, view: dict[str, Any], seat: int, action: Action, armada: ArmadaValues | None = None) -> float:
        kind = action["type"]
        if kind == "pass":
            return 0.0
        if armada is None and is_armada(view):
            armada = self.armada_values(view, seat)
        if kind == "keep_island":
            assert armada is not None
            return armada.keep_island_value(action, base=lambda fx: self.effects_value(view, seat, fx))
        if kind == "discard":
            if action.get("reward") == "yellow" and armada is not None:
                return armada.ships_value(action)  # the yellow ship's next space instead of 3 coins
            return 3 * COIN_WORTH  # 3 coins
        me = view["players"][seat]
        if kind == "wonder":
            effects = all_wonders()[me["wonder"]].sides[me["side"]][action["stage"] - 1]
            worth = self.effects_value(view, seat, effects) + STAGE_BONUS  # stages also hide a card
        else:
            card = all_cards()[action["card"]]
            effects = card.effects
            worth = self.effects_value(view, seat, effects) + self.card_extras(view, seat, card)
        if armada is not None:
            worth += armada.extra_value(effects, lambda s: self.science_value(view, seat, s))
            worth += armada.ships_value(action)  # the naval step and the free ship moves
        cost = action.get("cost") or {}
        paid = sum(cost.values()) if isinstance(cost, dict) else 0
        trading = paid - cost.get("bank", 0) if isinstance(cost, dict) else 0
        if armada is not None:
            return worth + ARMADA_BUILD - paid * ARMADA_COIN - trading * ARMADA_TRADE
        return worth - paid * COIN_WORTH - trading * TRADE_COST

    def effects_value(self, view: dict[str, Any], seat: int, effects: Effects) -> float:
        age = view["age"]
        ages_left = 3 - age  # Ages after this one
        worth = effects.vp + effects.coins * (ARMADA_COIN_GAINED if is_armada(view) else COIN_WORTH)
        if effects.shields:
            worth += MILITARY_SCALE.get(len(view["players"]), 0.7) * self.military_value(view, seat, effects.shields)
        if effects.science:
            worth += self.science_value(view, seat, effects.science)
        if effects.units or effects.choices:
            worth += self.production_value(view, seat, effects)
        if effects.discounts:
            worth += 1.2 * ages_left
        worth += sum(ABILITY_VALUE.get(a, 1.0) * (0.5 + ages_left / 4) for a in effects.abilities)
        for per in effects.coins_per:
            worth += per.amount * self.count(view, seat, per.what, per.colors, per.whose) / 3
        for per in effects.vp_per:
            worth += per.amount * self.count(view, seat, per.what, per.colors, per.whose) * (1 + 0.15 * ages_left)
        if effects.vp_if_wonder_complete:
            me = view["players"][seat]
            left_to_build = me["stages_total"] - me["stages_built"]
            worth += effects.vp_if_wonder_complete * (1.0 if left_to_build == 0 else 0.5 if left_to_build == 1 else 0.2)
        return worth

    def production_value(self, view: dict[str, Any], seat: int, effects: Effects) -> float:
        """Units produced from now on: each worth the Age's unit worth, less the more of that resource
        the city makes already (a city wants WANTED units of each, at most)."""
        per_unit = (ARMADA_UNIT_WORTH if is_armada(view) else UNIT_WORTH)[view["age"]]
        made = view["players"][seat]["production"]
        have = dict(made["resources"])
        for options in made["choices"]:
            for r in options:
                have[r] = have.get(r, 0) + 1 / len(options)
        worth = 0.0
        for resource, n in effects.produced:
            for k in range(n):
                worth += per_unit * self.scarcity(have.get(resource, 0) + k, resource)
        for options in effects.choices:
            worth += CHOICE_UNIT * per_unit * max(self.scarcity(have.get(r, 0), r) for r in options)
        return worth

    @staticmethod
    def scarcity(have: float, resource: str) -> float:
        wanted = WANTED.get(resource, 2)
        return max(SCARCITY_FLOOR, (wanted - have) / wanted)

    def card_extras(self, view: dict[str, Any], seat: int, card: Card) -> float:
        """Chains into later Ages are worth something while those Ages are to come."""
        later = [age for age in card.chain_to_ages if age > view["age"]]
        return 0.6 * len(later)

    def military_value(self, view: dict[str, Any], seat: int, shields: int) -> float:
        players = view["players"]
        me = players[seat]
        age = view["age"]
        worth = 0.0
        for side in ("left", "right"):
            theirs = players[me[side]]["shields"]
            before = _outcome(me["shields"], theirs, age)
            after = _outcome(me["shields"] + shields, theirs, age)
            future = sum(VICTORY[a] for a in range(age + 1, 4)) * 0.35
            worth += after - before + (future if me["shields"] <= theirs < me["shields"] + shields else 0.0)
        return worth

    def science_value(self, view: dict[str, Any], seat: int, symbol: str) -> float:
        science = view["players"][seat]["science"]
        symbols = science_symbols()
        counts = [science.get(s, 0) for s in symbols]
        wild = science.get("any", 0)
        before = science_points((counts[0], counts[1], counts[2]), wild)
        if symbol == "any":
            wild += 1
        else:
            counts[symbols.index(symbol)] += 1
        after = science_points((counts[0], counts[1], counts[2]), wild)
        return after - before + (3 - view["age"]) * SCIENCE_LATER

    @staticmethod
    def count(view: dict[str, Any], seat: int, what: str, colors: list[str] | None, whose: list[str]) -> int:
        players = view["players"]
        me = players[seat]
        total = 0
        for who in whose:
            p = me if who == "self" else players[me[who]]
            if what == "card":
                total += sum(1 for name in p["city"] if all_cards()[name].color in (colors or ()))
            elif what == "wonder_stage":
                total += p["stages_built"]
            else:
                total += sum(1 for t in p["military_tokens"] if t < 0)
        return total


def _outcome(mine: int, theirs: int, age: int) -> float:
    if mine > theirs:
        return VICTORY[age]
    return -1.0 if mine < theirs else 0.0
