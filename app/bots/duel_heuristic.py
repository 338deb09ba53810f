"""A 7 Wonders Duel bot that weighs each legal action in points of lead over the opponent.

It sees only what its seat sees (its view and its legal actions) plus the engine's public
description of the cards, Wonders and progress tokens (as app.bots.duel_box gives them).

An action is worth what it brings this seat (points, coins, production while the game has turns
left to use it, shields by where they move the conflict pawn, science symbols by how near they
bring a supremacy, chains, abilities), less the coins it costs, less the best reply it leaves the
opponent: the opponent's best use of the cards accessible after it (its cost to them from their
production and prices, the same weights from their side), so the bot denies the cards the
opponent needs most, above all those that would win them the game, and avoids uncovering them.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.bots.base import Action
from app.bots.duel_box import DuelPart, duel_cards, duel_tokens, duel_wonders, military_track

WIN = 200.0  # a supremacy, in points of lead
SCIENCE_SUPREMACY = 6  # different symbols
PAIR_SYMBOLS_GIVE_TOKEN = 2
# What having k different science symbols is worth (the nearer a supremacy, the more the threat
# weighs on the opponent's choices), for k = 0..5
SCIENCE_THREAT = (0.0, 0.0, 0.8, 2.0, 5.0, 14.0)
# What leading the conflict by d is worth beyond its points (d = 0..8): the nearer the capital,
# the likelier a supremacy
MILITARY_THREAT = (0.0, 0.0, 0.5, 1.0, 2.0, 4.0, 7.0, 12.0, 22.0)
NEED = {"wood": 3, "clay": 3, "stone": 3, "glass": 2, "papyrus": 2}  # units a city wants at most
ABILITY = {"receive_trade_payments": 3.0}
CARDS_PER_GAME = 60


@dataclass(slots=True)
class Weights:
    """The bot's tunable weights."""

    coin: float = 0.33  # a coin at the end of the game
    coin_early: float = 0.6  # a coin's extra worth while the game has turns left (times the share left)
    unit: float = 10.0  # a resource unit over the whole game (times the share left and its scarcity)
    raise_price: float = 1.0  # a tradable unit raises the opponent's price of it
    chain: float = 1.6  # a chain to a card of a later Age
    play_again: float = 3.0
    reply: float = 0.8  # the opponent's best reply, subtracted


class Side:
    """One seat's city as its view shows it."""

    def __init__(self, view: dict[str, Any], seat: int) -> None:
        p = view["players"][seat]
        self.seat = seat
        self.coins: int = p["coins"]
        self.city: list[str] = p["city"]
        self.city_set = set(self.city)
        self.production: dict[str, int] = p["production"]
        self.choices: list[list[str]] = p["choices"]
        self.prices: dict[str, int] = p["trade_prices"]
        self.tokens: list[str] = p["progress_tokens"]
        self.science: dict[str, int] = p["science"]
        self.discard_gain: int = p["discard_gain"]
        self.unbuilt = [w["name"] for w in p["wonders"] if not w["built"]]
        self.built_wonders = sum(1 for w in p["wonders"] if w["built"])
        cards = duel_cards()
        self.colors: dict[str, int] = {}
        for name in self.city:
            color = cards[name].color
            self.colors[color] = self.colors.get(color, 0) + 1
        pawn = view["conflict_pawn"]  # positive: toward seat 1's capital
        self.lead = pawn if seat == 0 else -pawn

    def has_token(self, effect: str, **match: Any) -> bool:
        tokens = duel_tokens()
        return any(
            e["type"] == effect and all(e.get(k) == v for k, v in match.items())
            for t in self.tokens
            for e in tokens[t].effects
        )

    def cost(self, part: DuelPart, *, wonder: bool = False) -> int:
        """The coins this city pays for the part now (printed coins and the resources it buys)."""
        if not wonder and any(c in self.city_set for c in part.chain_from):
            return 0
        missing = {r: n - self.production.get(r, 0) for r, n in part.resources.items()}
        missing = {r: n for r, n in missing.items() if n > 0}
        for options in self.choices:
            wanted = [r for r in options if missing.get(r, 0) > 0]
            if wanted:
                best = max(wanted, key=lambda r: self.prices.get(r, 2))
                missing[best] -= 1
        units = sorted((self.prices.get(r, 2) for r, n in missing.items() for _ in range(n)), reverse=True)
        applies = "wonder" if wonder else part.color
        if self.has_token("cost_reduction", applies_to=applies):
            units = units[2:]
        return part.coins + sum(units)

    def distinct_symbols(self) -> int:
        return sum(1 for n in self.science.values() if n > 0)


class DuelJudge:
    """Weighs actions for one seat of one view."""

    def __init__(self, view: dict[str, Any], seat: int, weights: Weights) -> None:
        self.view = view
        self.w = weights
        self.age: int = view["age"]
        self.structure: list[dict[str, Any]] = view["structure"]
        left_now = sum(1 for s in self.structure if not s.get("taken"))
        self.share_left = max(0.0, (left_now + 20 * (3 - self.age)) / CARDS_PER_GAME)
        self.board_tokens: list[str] = view["progress_tokens_board"]
        self.sides = {seat: Side(view, seat), 1 - seat: Side(view, 1 - seat)}
        self.seat = seat
        self.loot = [(t["seat"], t["from"], t["coins"]) for t in view["military_tokens"]]
        self.last_card = left_now == 1

    # ----- what things are worth to one side --------------------------------------------------

    def coin(self) -> float:
        return self.w.coin + self.w.coin_early * self.share_left

    def part_value(self, me: Side, part: DuelPart, *, wonder: bool = False) -> float:
        them = self.sides[1 - me.seat]
        worth = 0.0
        shields = part.amount("shields")
        if shields and not wonder and part.color == "red" and me.has_token("extra_shields"):
            shields += 1
        if shields:
            worth += self.military_value(me, them, shields)
        for e in part.effects:
            worth += self.effect_value(me, them, part, e)
        if not wonder:
            worth += self.chain_value(me, part)
        return worth

    def effect_value(self, me: Side, them: Side, part: DuelPart, e: Mapping[str, Any]) -> float:
        match e["type"]:
            case "vp":
                return float(e["amount"])
            case "coins":
                return e["amount"] * self.coin()
            case "opponent_loses_coins":
                return min(e["amount"], them.coins) * self.coin()
            case "produce":
                return sum(self.unit_value(me, them, r, tradable=True) * n for r, n in e["resources"].items())
            case "produce_one_of":
                return 0.8 * max(self.unit_value(me, them, r, tradable=False) for r in e["options"])
            case "fixed_price":
                return sum(
                    self.w.unit * 0.5 * self.share_left * max(0, me.prices.get(r, 2) - 1) / 2 for r in e["resources"]
                )
            case "science":
                return self.science_value(me, them, e["symbol"])
            case "coins_per":
                return e["amount"] * self.count(me, e) * self.coin()
            case "guild":
                return self.guild_value(me, them, e)
            case "vp_per_progress_token":
                return e["amount"] * (len(me.tokens) + 1 + self.share_left)
            case "cost_reduction":
                if e["applies_to"] == "wonder":
                    return 2.5 * len(me.unbuilt)
                return 4.0 * self.share_left
            case "extra_shields":
                return 4.0 * self.share_left
            case "coins_on_chain":
                return 6.0 * self.share_left
            case "destroy":
                targets = [duel_cards()[n] for n in them.city if duel_cards()[n].color == e["color"]]
                return max((self.part_value(them, c) for c in targets), default=0.0) * 0.8
            case "progress_from_box":
                return 4.0
            case "ability":
                return self.ability_value(me, them, e["ability"])
        return 0.0

    def ability_value(self, me: Side, them: Side, ability: str) -> float:
        if ability == "play_again":
            return 0.0 if self.last_card else self.w.play_again
        if ability == "wonders_play_again":
            return self.w.play_again * 0.8 * len(me.unbuilt)
        if ability == "build_from_discard":
            cards = duel_cards()
            return max((self.part_value(me, cards[n]) for n in self.view["discard"]), default=0.0)
        return ABILITY.get(ability, 1.0) * self.share_left

    def unit_value(self, me: Side, them: Side, resource: str, *, tradable: bool) -> float:
        have = me.production.get(resource, 0)
        scarcity = max(0, NEED.get(resource, 2) - have) / NEED.get(resource, 2)
        price = me.prices.get(resource, 2)
        worth = self.w.unit * self.share_left * scarcity * price / 2
        if tradable:
            worth += self.w.raise_price * self.share_left * (1.0 if them.production.get(resource, 0) == 0 else 0.5)
        return worth

    def chain_value(self, me: Side, part: DuelPart) -> float:
        cards = duel_cards()
        later = [t for t in part.chain_to if cards[t].age > self.age]
        bonus = 4 * self.coin() if me.has_token("coins_on_chain") else 0.0
        return sum(self.w.chain + bonus for _ in later)

    def military_value(self, me: Side, them: Side, shields: int) -> float:
        before = me.lead
        after = min(military_track().capital, before + shields)
        if after >= military_track().capital:
            return WIN
        worth = self.military_standing(after) - self.military_standing(before)
        for seat, distance, coins in self.loot:  # tokens on the opponent's half the pawn reaches
            if seat == them.seat and before < distance <= after:
                worth += min(coins, them.coins) * self.coin()
        return worth

    def military_standing(self, lead: int) -> float:
        distance = min(abs(lead), len(MILITARY_THREAT) - 1)
        value = military_track().points(distance) + MILITARY_THREAT[distance] * (0.5 + self.share_left)
        return value if lead >= 0 else -value

    def science_value(self, me: Side, them: Side, symbol: str) -> float:
        have = me.science.get(symbol, 0)
        if have == 0:
            k = me.distinct_symbols() + 1
            if k >= SCIENCE_SUPREMACY:
                return WIN
            return SCIENCE_THREAT[k] - SCIENCE_THREAT[k - 1] + 0.5
        if have + 1 == PAIR_SYMBOLS_GIVE_TOKEN and self.board_tokens:
            return max(self.token_value(me, t) for t in self.board_tokens)
        return 0.0

    def token_value(self, me: Side, name: str) -> float:
        return self.part_value(me, duel_tokens()[name])

    def guild_value(self, me: Side, them: Side, e: Mapping[str, Any]) -> float:
        if e["what"] == "card":
            colors = e["colors"]
            best = max(sum(s.colors.get(c, 0) for c in colors) for s in (me, them))
        elif e["what"] == "wonder":
            best = max(me.built_wonders, them.built_wonders)
        else:  # coin_sets: a point per 3 coins of the richer city
            return e["vp_per"] * max(me.coins, them.coins) / 3
        return best * (e["coins_per"] * self.coin() + e["vp_per"]) + 0.5 * self.share_left * e["vp_per"]

    @staticmethod
    def count(me: Side, e: Mapping[str, Any]) -> int:
        if e["what"] == "wonder_stage":
            return me.built_wonders
        return sum(me.colors.get(c, 0) for c in e.get("colors") or ())

    # ----- the structure ------------------------------------------------------------------------

    def accessible_after(self, taken: str | None) -> list[str]:
        """The face-up cards accessible once the card `taken` (None: nothing) leaves the structure."""
        gone = {s["slot"] for s in self.structure if s.get("taken")}
        if taken is not None:
            gone |= {s["slot"] for s in self.structure if s.get("card") == taken}
        left = [s for s in self.structure if s["slot"] not in gone]
        out = []
        for s in left:
            covered = any(o["row"] == s["row"] + 1 and abs(o["col"] - s["col"]) == 1 for o in left)
            if not covered and "card" in s:
                out.append(s["card"])
        return out

    # ----- actions ----------------------------------------------------------------------------

    def gain(self, me: Side, action: Action) -> float:
        """What the action brings `me` now, less its cost (no reply counted)."""
        kind = action["type"]
        cards = duel_cards()
        if kind == "build":
            cost = action.get("cost", me.cost(cards[action["card"]]))
            return self.part_value(me, cards[action["card"]]) - cost * self.coin()
        if kind == "wonder":
            cost = action.get("cost", me.cost(duel_wonders()[action["wonder"]], wonder=True))
            worth = self.part_value(me, duel_wonders()[action["wonder"]], wonder=True) - cost * self.coin()
            if me.has_token("ability", ability="wonders_play_again") and not self.last_card:
                worth += self.w.play_again
            return worth
        if kind == "discard":
            return me.discard_gain * self.coin()
        if kind == "build_from_discard":
            return self.part_value(me, cards[action["card"]])
        if kind in ("choose_progress", "choose_box_token"):
            return self.token_value(me, action["token"])
        if kind == "destroy":
            them = self.sides[1 - me.seat]
            return self.part_value(them, cards[action["card"]])
        if kind == "draft_wonder":
            wonder = duel_wonders()[action["wonder"]]
            return self.part_value(me, wonder, wonder=True) - 0.4 * sum(wonder.resources.values())
        if kind == "choose_starter":
            return 1.0 if action["seat"] == me.seat else 0.0
        return 0.0

    def plays_again(self, me: Side, action: Action) -> bool:
        if action["type"] != "wonder" or self.last_card:
            return False
        wonder = duel_wonders()[action["wonder"]]
        return (wonder.has("ability") and any(e.get("ability") == "play_again" for e in wonder.effects)) or (
            me.has_token("ability", ability="wonders_play_again")
        )

    def best_use(self, who: Side, cards: Iterable[str]) -> float:
        """The most a side can make of one of these cards (build, Wonder or discard), with its coins."""
        best = who.discard_gain * self.coin()
        parts = duel_cards()
        wonders = [(duel_wonders()[w], who.cost(duel_wonders()[w], wonder=True)) for w in who.unbuilt]
        wonder_best = max(
            (self.part_value(who, w, wonder=True) - c * self.coin() for w, c in wonders if c <= who.coins),
            default=None,
        )
        for name in cards:
            part = parts[name]
            cost = who.cost(part)
            if cost <= who.coins:
                best = max(best, self.part_value(who, part) - cost * self.coin())
            if wonder_best is not None:
                best = max(best, wonder_best)
        return best

    def value(self, action: Action) -> float:
        me, them = self.sides[self.seat], self.sides[1 - self.seat]
        worth = self.gain(me, action)
        if worth >= WIN:
            return worth
        if action["type"] in ("build", "wonder", "discard"):
            after = self.accessible_after(action["card"])
            if self.plays_again(me, action):
                worth += 0.5 * self.best_use(me, after)
            elif after:
                worth -= self.w.reply * self.best_use(them, after)
        return worth


class DuelHeuristic:
    """Chooses, for one seat of a Duel, the action of highest value (see DuelJudge)."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights()

    def choose(self, view: dict[str, Any], actions: list[Action], tiebreak: Any) -> Action:
        judge = DuelJudge(view, view["seat"], self.weights)
        return max(actions, key=lambda a: (judge.value(a), tiebreak()))
