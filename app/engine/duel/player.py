"""One city of 7 Wonders Duel: coins, cards, Wonders, progress tokens and what they produce."""

from collections.abc import Sequence

from app.engine.common.resources import ZERO, Choices, Vector, add
from app.engine.duel.definitions import CardDef, Effects
from app.engine.duel.trading import NO_CAPS


class DuelPlayer:
    __slots__ = (
        "seat",
        "coins",
        "city",
        "names",
        "colors",
        "wonders",
        "unbuilt",
        "built",
        "tokens",
        "science",
        "fixed",
        "trade_fixed",
        "choices",
        "caps",
        "reductions",
        "extra_shields",
        "chain_coins",
        "abilities",
    )

    def __init__(self, seat: int, coins: int) -> None:
        self.seat = seat
        self.coins = coins
        self.city: list[int] = []  # card ids in build order
        self.names: set[str] = set()
        self.colors: dict[str, int] = {}
        self.wonders: list[int] = []  # wonder ids drafted and still in play
        self.unbuilt: list[int] = []  # the ones of them not built yet
        self.built: dict[int, int] = {}  # wonder id -> id of the Age card tucked under it
        self.tokens: list[int] = []  # progress token ids
        self.science: dict[str, int] = {}
        self.fixed: Vector = ZERO
        self.trade_fixed: Vector = ZERO  # what raises the opponent's prices
        self.choices: Choices = ()
        self.caps: Vector = NO_CAPS  # fixed trading prices
        self.reductions: dict[str, int] = {}  # "wonder" or colour -> resource units waived
        self.extra_shields: dict[str, int] = {}  # colour -> extra shields
        self.chain_coins = 0
        self.abilities: set[str] = set()

    def copy(self) -> "DuelPlayer":
        other = DuelPlayer.__new__(DuelPlayer)
        other.seat = self.seat
        other.coins = self.coins
        other.city = self.city[:]
        other.names = self.names.copy()
        other.colors = self.colors.copy()
        other.wonders = self.wonders[:]
        other.unbuilt = self.unbuilt[:]
        other.built = self.built.copy()
        other.tokens = self.tokens[:]
        other.science = self.science.copy()
        other.fixed = self.fixed  # vectors and choices are immutable tuples
        other.trade_fixed = self.trade_fixed
        other.choices = self.choices
        other.caps = self.caps
        other.reductions = self.reductions.copy()
        other.extra_shields = self.extra_shields.copy()
        other.chain_coins = self.chain_coins
        other.abilities = self.abilities.copy()
        return other

    def add_card(self, card: CardDef) -> None:
        self.city.append(card.id)
        self.names.add(card.name)
        self.colors[card.color] = self.colors.get(card.color, 0) + 1
        self.gain(card.effects)

    def remove_card(self, card: CardDef, every: Sequence[CardDef], lasting: list[Effects]) -> None:
        """Take a card out of the city (destroyed) and rebuild the production it took part in."""
        self.city.remove(card.id)
        self.names.discard(card.name)
        self.colors[card.color] -= 1
        self.fixed, self.trade_fixed, self.choices, self.caps = ZERO, ZERO, (), NO_CAPS
        for effects in [every[c].effects for c in self.city] + lasting:
            self.gain_production(effects)

    def gain(self, effects: Effects) -> None:
        """Add the lasting effects of a card or progress token (a Wonder's only lasting effect is production)."""
        if effects.economic:
            self.gain_production(effects)
        if effects.science:
            self.science[effects.science] = self.science.get(effects.science, 0) + 1
        if effects.is_token:
            for what, amount in effects.reductions:
                self.reductions[what] = self.reductions.get(what, 0) + amount
            for color, amount in effects.extra_shields:
                self.extra_shields[color] = self.extra_shields.get(color, 0) + amount
            self.chain_coins += effects.coins_on_chain
            self.abilities |= effects.abilities

    def gain_production(self, effects: Effects) -> None:
        """Add what effects produce, and the fixed trading prices they set."""
        if effects.produce != ZERO:
            self.fixed = add(self.fixed, effects.produce)
            self.trade_fixed = add(self.trade_fixed, effects.trade_produce)
        if effects.choices:
            self.choices = self.choices + effects.choices
        if effects.fixed_prices:
            caps = list(self.caps)
            for r, price in effects.fixed_prices:
                caps[r] = min(caps[r], price)
            self.caps = tuple(caps)

    def count(self, colors: list[str] | tuple[str, ...]) -> int:
        return sum(self.colors.get(c, 0) for c in colors)

    @property
    def wonders_built(self) -> int:
        return len(self.built)

    def symbols(self) -> int:
        """How many different science symbols the city has."""
        return sum(1 for n in self.science.values() if n)
