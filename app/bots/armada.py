"""What Armada's parts of an action are worth to a bot, in estimated end-of-game points.

Only what a seat may know is used: its view (shipyards, islands kept, island decks, the Age) and
the engine's public description of the components (what each ship space, card and island does,
as app.bots.box sums it up). Shared by GreedyBot and
HeuristicBot: a naval step is worth what the ship's next space gives (naval strength, points,
coins, a commercial level, an exploration), each free ship move likewise, a kept island what its
effects give, and the yellow discard what the yellow ship's next space gives. A bot that values
Armada differently subclasses ArmadaValues (ArmadaValues.step_value values each ship step).
"""

from dataclasses import dataclass
from functools import cache
from typing import Any

from app.bots.box import VICTORY, Effects, all_cards, islands, science_symbols, ship_spaces, ship_tracks
from app.engine import Action, describe_components

# What keeping one island of a level is worth on average (an exploration draws several and keeps
# the best, a take_island effect draws one).
ISLAND_WORTH = {1: 2.5, 2: 3.5, 3: 5.0}
EXPLORE_BONUS = 1.0

__all__ = ["ArmadaValues", "NavalRules", "all_cards", "is_armada", "islands", "naval_rules", "naval_tokens"]


@dataclass(frozen=True, slots=True)
class NavalRules:
    """Armada's naval conflicts (the weakest's token and the ranks' rewards per Age) and which way
    the landing token goes per Age, from the engine's public description."""

    weakest: dict[int, int]
    ranks: dict[int, tuple[int, ...]]
    landing_targets: dict[int, str]


@cache
def naval_rules() -> NavalRules:
    armada = describe_components()["armada"]
    naval = armada["naval_conflicts"]
    return NavalRules(
        {int(age): v for age, v in naval["weakest"].items()},
        {int(age): tuple(v) for age, v in naval["ranks"].items()},
        {int(age): side for age, side in armada["landing"]["targets"].items()},
    )


def is_armada(view: dict[str, Any]) -> bool:
    return "armada" in view and bool(view.get("players")) and "shipyard" in view["players"][0]


def naval_tokens(strengths: list[int], age: int) -> list[int]:
    """Each seat's naval conflict token of this Age for these strengths (the engine's rule, from the
    public data: the weakest lose, the others rank; ties step down a rank; all equal, nobody)."""
    data = naval_rules()
    tokens = [0] * len(strengths)
    if len(set(strengths)) <= 1:
        return tokens
    weakest = min(strengths)
    ranks = data.ranks[age]
    for seat, mine in enumerate(strengths):
        if mine == weakest:
            tokens[seat] = data.weakest[age]
            continue
        position = 1 + sum(1 for s in strengths if s > mine)
        rank = position + (1 if strengths.count(mine) > 1 else 0)
        if rank <= len(ranks):
            tokens[seat] = ranks[rank - 1]
    return tokens


class ArmadaValues:
    """The Armada side of one seat's situation, read once per decision from its view."""

    def __init__(self, view: dict[str, Any], seat: int, *, naval_weight: float = 1.0) -> None:
        self.naval_weight = naval_weight  # a multiplier on naval strength's estimated worth
        self.view = view
        self.seat = seat
        self.players = view["players"]
        self.n = len(self.players)
        self.me = self.players[seat]
        self.yard = self.me["shipyard"]
        self.age = view.get("age", 1)
        self.ages_left = 3 - self.age
        self.decks = view.get("armada", {}).get("island_decks", {})
        own = [islands().get(name) for name in self.yard["islands"]]
        extra = [e for fx in own if fx is not None for e in fx.extra]
        self.coins_per_move = sum(e["amount"] for e in extra if e["type"] == "coins_per_ship_move")
        self.immune_to_defeat = any(e["type"] == "naval_defeat_immunity" for e in extra)

    # ----- a naval step, ship moves, a discard for the yellow ship -------------------------------

    def track_of(self, action: Action) -> str | None:
        """The track a naval step of this build or wonder stage advances."""
        if action["type"] == "wonder":
            return self.yard["wonder_track"]
        card = all_cards().get(action.get("card", ""))
        return card.color if card is not None and card.color in ship_tracks() else None

    def ships_value(self, action: Action) -> float:
        """The naval step of the action (if any) and then its free ship moves, step by step (each
        valued by `step_value`)."""
        ships = dict(self.yard["ships"])
        worth = 0.0
        steps: list[tuple[str, str]] = []
        if action.get("naval"):
            track = self.track_of(action)
            if track is not None:
                steps.append((track, "naval"))
        if action["type"] == "discard" and action.get("reward") == "yellow":
            steps.append(("yellow", "discard"))
        steps += [(t, "move") for t in action.get("moves") or () if t in ship_tracks()]
        spaces = ship_spaces()
        for track, how in steps:
            if ships[track] >= len(spaces[track]):  # the ship is at the top of its track
                continue
            ships[track] += 1
            worth += self.step_value(track, ships[track], how)
        return worth

    def step_value(self, track: str, position: int, how: str) -> float:
        """What one ship step that reaches this space (1..6) of a track is worth. `how` says what
        moves the ship: "naval" (a naval step paid with a build or wonder stage), "discard" (the
        yellow ship of a discard) or "move" (a free ship move). Here the space's worth whatever
        moves the ship; a subclass may prefer some steps (bench.armada_balance's fleet bots add a
        bonus for their own fleet's)."""
        return self.space_value(track, position)

    def space_value(self, track: str, position: int) -> float:
        """What reaching this space (1..6) of a track gives."""
        space = ship_spaces()[track][position - 1]
        return space.vp + (space.coins + self.coins_per_move) / 3 + self.extra_value(space)

    # ----- Armada effects of cards, stages, spaces and islands ------------------------------------

    def extra_value(self, effects: Effects, science: Any = None) -> float:
        """Armada's own effects (naval strength, commerce, taxes, piracy, islands, landings, ...).
        `science(symbol)` values a science symbol (for Flag science_most_common), if given."""
        worth = 0.0
        for e in effects.extra:
            match e["type"]:
                case "naval_strength":
                    worth += self.naval_value(e["amount"])
                case "commercial_level":
                    worth += e["amount"] * (0.4 + 0.15 * self.ages_left + self.per_commercial_level())
                case "tax":
                    mine = self.yard["commercial_level"]  # the space raises it: the others at it fall below
                    lower = sum(1 for p in self.others() if p["shipyard"]["commercial_level"] <= mine)
                    worth += 1.5 * e["amount"] * lower / (3 * max(1, self.n - 1))
                case "piracy":
                    lost = sum(p["shipyard"]["commercial_level"] for p in self.others())
                    worth += 1.5 * lost / (3 * max(1, self.n - 1))
                case "explore":
                    worth += self.island_value(e["level"]) + EXPLORE_BONUS
                case "take_island":
                    worth += self.island_value(e["level"])
                case "landing":
                    worth += self.landing_value()
                case "far_trade":
                    worth += 0.3 + 0.8 * self.ages_left
                case "vp_per_commercial_level" | "vp_per_island" | "vp_per_best_color":
                    worth += e["amount"] * self.per_own(e["type"])
                case "coins_per_ship_move":
                    worth += e["amount"] * (1 + 2 * self.ages_left) / 3
                case "science_most_common" | "coin_loss_immunity" | "naval_defeat_immunity" | "naval_discount":
                    worth += self.flag_value(e["type"], science)
                # ship_move: the action's "moves" say which ships move (ships_value values them)
        return worth

    def others(self) -> list[dict[str, Any]]:
        return [p for i, p in enumerate(self.players) if i != self.seat]

    def naval_value(self, amount: int) -> float:
        """Naval tokens gained by `amount` more naval strength in this Age's conflict and the later
        ones. Everyone's fleet grows until then, so the gain is averaged over where this seat may
        stand against the others by then: the further the conflict, the wider the spread."""
        strengths = [p["shipyard"]["naval_strength"] for p in self.players]
        turns_left = max(0, self.view.get("turns_per_age", 7) - self.view.get("turn", 1))
        worth = 0.0
        for age in range(self.age, 4):
            spread = min(2, turns_left // 2) if age == self.age else 2 + (age - self.age)
            gain = self.expected_token(strengths, amount, age, spread) - self.expected_token(strengths, 0, age, spread)
            worth += gain * (1.0 if age == self.age else 0.8)
        return worth * self.naval_weight

    def expected_token(self, strengths: list[int], extra: int, age: int, spread: int) -> float:
        total = weights = 0.0
        for offset in range(-spread, spread + 1):
            weight = spread + 1 - abs(offset)
            mine = list(strengths)
            mine[self.seat] += extra + offset
            token = naval_tokens(mine, age)[self.seat]
            if self.immune_to_defeat:
                token = max(0, token)
            total += weight * token
            weights += weight
        return total / weights

    def island_value(self, level: int) -> float:
        if not self.decks.get(str(level), 1):
            return 0.0  # that deck is empty
        return ISLAND_WORTH[level]

    def landing_value(self) -> float:
        side = naval_rules().landing_targets[self.age]
        target = (self.seat + (2 if side == "left" else -2)) % self.n
        mine, theirs = self.me["shields"], self.players[target]["shields"]
        if mine > theirs:
            return 0.8 * VICTORY[self.age]
        return -0.8 if mine < theirs else 0.0

    def per_commercial_level(self) -> float:
        """Points each commercial level will bring through cards and islands that count them."""
        total = 0.0
        for fx in self.owned_effects():
            total += sum(e["amount"] for e in fx.extra if e["type"] == "vp_per_commercial_level")
        return total

    def owned_effects(self) -> list[Effects]:
        cards = all_cards()
        out = [cards[name].effects for name in self.me["city"] if name in cards]
        out += [islands()[name] for name in self.yard["islands"] if name in islands()]
        return out

    def per_own(self, what: str) -> float:
        if what == "vp_per_commercial_level":
            return self.yard["commercial_level"] + 0.8 * self.ages_left
        if what == "vp_per_island":
            return len(self.yard["islands"]) + 1 + 0.7 * self.ages_left
        colors: dict[str, int] = {}
        cards = all_cards()
        for name in self.me["city"]:
            card = cards.get(name)
            if card is not None:
                colors[card.color] = colors.get(card.color, 0) + 1
        return max(colors.values(), default=0) + 1.2 * self.ages_left

    def flag_value(self, flag: str, science: Any) -> float:
        if flag == "science_most_common":
            counts = self.me.get("science", {})
            best = max(science_symbols(), key=lambda s: counts.get(s, 0))
            return science(best) if science is not None else 2.0
        if flag == "coin_loss_immunity":
            return 0.5 + 0.5 * self.ages_left
        if flag == "naval_defeat_immunity":
            if self.immune_to_defeat:
                return 0.0
            return sum(-naval_rules().weakest[a] for a in range(self.age, 4)) * 0.4
        return 0.3 + 0.6 * self.ages_left  # naval_discount

    # ----- whole Armada decisions ------------------------------------------------------------------

    def keep_island_value(self, action: Action, base: Any = None) -> float:
        """An island to keep: its effects (`base(effects)` values the classic part, e.g. production
        and science, if given), then its free ship moves."""
        effects = islands().get(action.get("island", ""))
        if effects is None:
            return 0.0
        if base is not None:
            worth = base(effects)
        else:
            worth = effects.vp + effects.coins / 3 + effects.shields * 0.8 + 1.2 * len(effects.choices)
            worth += 2.5 if effects.science else 0.0
        return worth + self.extra_value(effects) + self.ships_value(action)
