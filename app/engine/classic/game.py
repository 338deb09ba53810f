"""The classic 7 Wonders game: its state, setup, trading and public face.

The rules are found by concern, as in Duel: `actions.py` lists the legal actions, `checks.py`
validates one, `turn.py` resolves the picks and runs the steps after a turn (an explicit table),
`decisions.py` the decisions outside the pick phase, `view.py` what a seat may see, `scoring.py`
the score sheet. A variant of the game (an expansion, in a package beside this one) subclasses ClassicGame and
overrides the hooks at the end of the class; the base game never runs a variant's code.
"""

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, ClassVar, NamedTuple

from app.engine.classic import actions, decisions, scoring, turn, view
from app.engine.classic.actions import FREE, NO_EXTRA, NOTHING_TO_PAY, Extra, Payments
from app.engine.classic.data import CardDef, ClassicData, Effects, StageDef, WonderDef, classic_data
from app.engine.classic.move import CARD_ACTION_FIELDS, Move
from app.engine.classic.phases import DISCARD_BUILD, LAST_CARD, OVER, PICK
from app.engine.classic.player import LEFT, RIGHT, SIDE_NAMES, Player
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, Game, check_keys, require_dict
from app.engine.common.payment import TOTAL, Market, PaymentOption, Seller, affordable, free_options
from app.engine.config import GameConfig

new_tuple = tuple.__new__
DISCARD_FIELDS = frozenset({"card"})
DISCARD_KEYS = DISCARD_FIELDS | {"type"}
STARTING_COINS = 3
HAND_SIZE = 7
AGES = 3


class Decision(NamedTuple):
    """A decision outside the pick phase: its legal actions and how one is applied."""

    legal: Callable[[Any, int], Sequence[Action]]
    apply: Callable[[Any, int, dict[str, Any]], list[Event]]


class ClassicGame(Game):
    """7 Wonders for 3-7 players. Seat i's left neighbour is seat i+1, its right seat i-1."""

    CARD_FIELDS: ClassVar[frozenset[str]] = CARD_ACTION_FIELDS
    DISCARD_BUILD_FIELDS: ClassVar[frozenset[str]] = frozenset({"card"})
    # the card actions are the base game's (two sellers, no payment or discard variants): the
    # builder makes them inline, without calling the hooks (see actions.card_actions)
    PLAIN_CARD_ACTIONS: ClassVar[bool] = True
    SHARED_DATA: ClassVar[tuple[str, ...]] = ("app.engine.classic.data:classic_data",)
    CACHES: ClassVar[dict[str, Callable[[], Any]]] = {"market_cache": dict}
    CATEGORIES: ClassVar[tuple[str, ...]] = scoring.CATEGORIES
    STEPS: ClassVar[dict[str, Callable[[Any], list[Event]]]] = turn.STEPS
    DECISIONS: ClassVar[dict[str, Decision]] = {
        LAST_CARD: Decision(decisions.last_card_actions, decisions.apply_last_card),
        DISCARD_BUILD: Decision(decisions.discard_build_actions, decisions.apply_discard_build),
    }
    move_type: ClassVar[type[Move]] = Move

    def __init__(self, config: GameConfig) -> None:
        if config.game != "classic":
            raise ValueError("ClassicGame plays the classic game")
        self.config = config
        self.n = config.seats
        self.data: ClassicData = classic_data()
        rng = random.Random(config.seed)
        self.cards: tuple[CardDef, ...] = ()
        self.decks: dict[int, list[int]] = {}
        self.unique_names: dict[int, bool] = {}  # per Age: no two of its cards share a name (see _make_decks)
        self._make_decks(rng)
        self.players = self._seat_players(rng)
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.discard: list[int] = []
        self.picks: dict[int, Move] = {}
        self.pending: set[int] = set()  # seats owing a decision outside the pick phase
        self.queue: list[str] = []  # steps left to run after the current decisions
        self.discard_builders: list[int] = []  # seats that may build from the discard this turn
        self.age = 0
        self.turn = 0
        self.phase = PICK
        self.log = []
        self._result: dict[str, Any] | None = None
        self.market_cache: dict[int, Market] = {}  # per seat, until a city changes
        self.setup_variant(rng)
        turn.start_age(self)

    # ----- setup -------------------------------------------------------------------------

    def _make_decks(self, rng: random.Random) -> None:
        cards: list[CardDef] = []
        for age in range(1, AGES + 1):
            pool = list(age_cards(self.data, age, self.n))
            if age == AGES:
                pool += rng.sample(self.data.guilds, self.n + 2)
            pool += self.extra_cards(age, rng)
            first = len(cards)
            cards += pool
            # then a hand needs no deduplication (in 3-player games, every Age)
            self.unique_names[age] = len({card.name for card in pool}) == len(pool)
            self.decks[age] = shuffled(range(first, len(cards)), rng)
        self.cards = tuple(cards)

    def _seat_players(self, rng: random.Random) -> list[Player]:
        pool = {w.name: w for w in self.wonder_pool}
        known = list(pool)
        if self.config.wonders is None:
            names = rng.sample(known, self.n)
        else:
            for name in self.config.wonders:
                if name not in known:
                    raise ValueError(f"unknown wonder '{name}'; wonders: {known}")
            names = list(self.config.wonders)
        players = []
        for seat, name in enumerate(names):
            side = self.config.side_for(seat)
            if side == "random":
                side = rng.choice(("day", "night"))
            players.append(Player(seat, pool[name], side, STARTING_COINS))
        return players

    @property
    def turns_per_age(self) -> int:
        return self.hand_size - 1

    # ----- neighbours and trading ----------------------------------------------------------

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self.n

    def seat_at(self, seat: int, side: str) -> int:
        """The seat a payment to `side` goes to."""
        return self.left_of(seat) if side == "left" else self.right_of(seat)

    def check_seat(self, seat: Any) -> int:
        if type(seat) is int and 0 <= seat < self.n:
            return seat
        return super().check_seat(seat)

    def market(self, p: Player) -> Market:
        found = self.market_cache.get(p.seat)
        if found is None:
            found = self.market_cache[p.seat] = Market(p.fixed, p.choices, self.sellers(p), p.supply, p.masks)
        return found

    def production_changed(self, seat: int, effects: Effects) -> None:
        """Forget the markets that depended on this seat's production or prices: its own, and those
        of the seats buying from it when what it sells changed (sellers offer tradable production
        only; discounts change the owner's prices only)."""
        if effects.changes_trading:
            if effects.changes_goods:
                for s in self.markets_depending_on(seat):
                    self.market_cache.pop(s, None)
            else:
                self.market_cache.pop(seat, None)

    def sellers(self, p: Player) -> tuple[Seller, ...]:
        left = self.players[self.left_of(p.seat)]
        right = self.players[self.right_of(p.seat)]
        prices = p.prices
        left_offer = (left.trade_fixed, left.trade_choices, prices[LEFT], None, left.trade_supply, left.trade_masks)
        right_offer = (
            right.trade_fixed,
            right.trade_choices,
            prices[RIGHT],
            None,
            right.trade_supply,
            right.trade_masks,
        )
        # tuple.__new__ makes each Seller without the Python frame of a NamedTuple's __new__ (a hot path)
        return new_tuple(Seller, left_offer), new_tuple(Seller, right_offer)

    def ways_to_pay(self, p: Player, what: "Price") -> Sequence[PaymentOption]:
        """The affordable ways to pay for a card or stage, on top of its coin cost, cheapest first."""
        coin_cost = what.coin_cost
        if coin_cost > p.coins:
            return ()
        if not what.cost_items:
            return NOTHING_TO_PAY if self.PLAIN_CARD_ACTIONS else free_options(len(self.trade_sides(p)))
        market = self.market_cache.get(p.seat) or self.market(p)
        ways = market.options(what.cost, what.cost_items)
        budget = p.coins - coin_cost
        return affordable(ways, budget) if ways and ways[-1][TOTAL] > budget else ways  # most fit: no call

    def free_reason(self, p: Player, card: CardDef) -> str | None:
        """Why this card would be free for this player now (None: it must be paid)."""
        if not p.names.isdisjoint(card.chain_from):
            return "chain"
        return actions.ability_free(self, p, card) if p.abilities else None

    def open_stages(self, p: Player) -> list[int]:
        """The stages that may be built next: the next one, or any unbuilt one (a wonder built in
        any order)."""
        if p.wonder.any_order:
            return [i for i in range(len(p.stages)) if i not in p.built_stages]
        stage = p.next_stage()
        return [] if stage is None else [stage]

    # ----- the public face ---------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        if self.phase == PICK:
            if not self.picks:  # a turn's start
                return list(range(self.n))
            return [s for s in range(self.n) if s not in self.picks]
        if self.phase == OVER:
            return []
        return sorted(self.pending)

    @property
    def epoch(self) -> int:
        """Another seat's new pick changes nobody's legal actions (picks resolve only together)."""
        return self.version - len(self.picks)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> list[Action]:
        if type(seat) is not int or not 0 <= seat < self.n:  # check_seat's fast path, inline
            seat = self.check_seat(seat)
        if self.phase == PICK:
            if self.PLAIN_CARD_ACTIONS:  # card_actions' first test
                return actions.plain_card_actions(self, self.players[seat], self.hands[seat])
            return actions.card_actions(self, self.players[seat], self.hands[seat])  # type: ignore[return-value]
        if seat not in self.pending:
            return []
        decision = self.DECISIONS.get(self.phase)
        return [] if decision is None else decision.legal(self, seat)  # type: ignore[return-value]

    # the base game's actions are built lists even when asked for lazily (see actions.card_actions)
    lazy_legal_actions = legal_actions

    def variant_lazy_legal_actions(self, seat: int) -> Sequence[Action]:
        """A variant's lazy_legal_actions: its picks as LazyActions (see actions.card_actions)."""
        if self.phase == PICK and type(seat) is int and 0 <= seat < self.n:
            return actions.card_actions(self, self.players[seat], self.hands[seat], lazy=True)
        return self.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        if type(seat) is not int or not 0 <= seat < self.n:  # check_seat's fast path, inline
            seat = self.check_seat(seat)
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if type(action) is not dict or type(action.get("type")) is not str:  # require_dict's fast path
            action = require_dict(action)
        if self.phase == PICK:
            return turn.apply_pick(self, seat, action)
        if seat not in self.pending:
            raise IllegalAction(f"seat {seat} has nothing to decide now; waiting for seats {self.to_act}")
        self.own()
        return self.DECISIONS[self.phase].apply(self, seat, action)

    def result(self) -> dict[str, Any]:
        if self._result is None:
            self._result = scoring.result(self)
        return self._result

    def public_view(self) -> dict[str, Any]:
        return view.public_view(self)

    def own_view(self, seat: int | None) -> dict[str, Any]:
        return view.own_view(self, seat)

    # True while the parts only a turn's resolution or a decision changes (players, hands, decks,
    # discard, the variant's state) may be shared with successors of this game (see successor and own)
    _shared = False

    def clone(self) -> "ClassicGame":
        """A perfect-information copy (every hand, deck and pending pick): for the server and tests."""
        other = self._copy_head()
        other._shared = True
        other.own()
        return other

    def successor(self, seat: int, action: Action) -> tuple["ClassicGame", list[Event]]:
        """The successor shares with this game the parts a secret pick leaves alone, until either of
        the two is about to change them (own): a pick copies only its own bookkeeping."""
        other = self._copy_head()
        self._shared = other._shared = True
        return other, other.apply(seat, action)

    def _copy_head(self) -> "ClassicGame":
        """A copy with its own picks, pending seats and log; every other part is this game's."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.picks = dict(self.picks)
        other.pending = set(self.pending)
        other.log = list(self.log)
        return other

    def own(self) -> None:
        """Copy the parts shared with successors, before changing them (a turn's resolution, a decision)."""
        if not self._shared:
            return
        self._shared = False
        self.players = [p.copy() for p in self.players]
        self.hands = [list(h) for h in self.hands]
        self.decks = {age: list(deck) for age, deck in self.decks.items()}
        self.discard = list(self.discard)
        self.queue = list(self.queue)
        self.discard_builders = list(self.discard_builders)
        self.market_cache = dict(self.market_cache)
        self.own_variant()

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_shared", None)  # a loaded state shares nothing
        return state

    def snapshot(self) -> dict[str, Any]:
        return view.snapshot(self)

    # ----- variant hooks (the base game's rules) ---------------------------------------------

    @property
    def hand_size(self) -> int:
        return HAND_SIZE

    @property
    def wonder_pool(self) -> tuple[WonderDef, ...]:
        """The wonders this game may deal."""
        return self.data.wonders

    def extra_cards(self, age: int, rng: random.Random) -> list[CardDef]:
        """Cards a variant shuffles into an Age's deck."""
        return []

    def setup_variant(self, rng: random.Random) -> None:
        """A variant's own setup, once the players are seated and before the first Age."""

    def markets_depending_on(self, seat: int) -> Iterable[int]:
        """The seats whose market reads this seat's production or prices."""
        return (seat, self.left_of(seat), self.right_of(seat))

    def trade_sides(self, p: Player) -> tuple[str, ...]:
        """The names of p's sellers, in the order of its market's sellers."""
        return SIDE_NAMES

    def payment_variants(self, p: Player, price: "Price | None", source: "CardDef | StageDef") -> Sequence[Payments]:
        """Every way to build `source` (a card, or a wonder stage) for `price` (None: free)."""
        if price is None:
            return FREE
        return (Payments(price.coin_cost, self.ways_to_pay(p, price), NO_EXTRA),)

    def discard_variants(self, p: Player) -> tuple[Extra, ...]:
        """The discards p may make of a card: the extra fields of each."""
        return NO_EXTRA

    def parse_discard(self, p: Player, card_id: int, action: dict[str, Any]) -> Move:
        if not action.keys() <= DISCARD_KEYS:  # a set test in C first: most discards pass
            check_keys(action, DISCARD_FIELDS)
        return self.move_type("discard", card_id)

    def parse_priced(self, p: Player, move: Move, price: "Price | None", action: dict[str, Any], *, what: str) -> Move:
        """Complete a build or stage with its payment (`price` None: free), as the action gives it
        (a variant's hook: the base game checks its payments inline, see checks.parse_card_action)."""
        raise NotImplementedError

    # a move's immediate effects, once every card of the turn is on the table: turn.take_effects
    # itself (the hook of every move, one call fewer than a method calling it)
    take_effects: Callable[[Any, int, Move], Any] = turn.take_effects

    def turn_steps(self, last: bool) -> list[str]:
        """The steps after a turn's picks are resolved (see turn.STEPS)."""
        return ["last_card", "discard_hands", "discard_build", "end_age"] if last else ["discard_build", "next_turn"]

    def battles(self, victory: int) -> list[dict[str, Any]]:
        """The ground conflicts at the end of an Age: each seat against its left neighbour."""
        return [turn.battle(self, seat, self.left_of(seat), victory) for seat in range(self.n)]

    def end_of_age(self) -> list[Event]:
        """What a variant adds at the end of an Age, after the military conflicts."""
        return []

    def discard_build_choices(self, seat: int, card: CardDef) -> list[tuple[tuple[str, Any], ...]]:
        """The extra fields each way to build this card from the discard may take."""
        return [()]

    def built_from_discard(self, seat: int, card: CardDef, action: dict[str, Any]) -> dict[str, Any]:
        """Check a variant's fields of a build from the discard (before anything changes); answers
        the fields to log."""
        return {}

    def after_discard_build(self, seat: int, card: CardDef, extra: dict[str, Any]) -> None:
        """A variant's effects of a card built from the discard, once it is in the city."""

    def view_variant(self, out: dict[str, Any]) -> None:
        """A variant's part of every view."""

    def player_variant(self, p: Player, out: dict[str, Any]) -> None:
        """A variant's part of each player in a view."""

    def decision_view(self, seat: int) -> dict[str, Any] | None:
        """The decision a variant's own phase asks of this seat."""
        return None

    def score_variant(self, seat: int, points: dict[str, int]) -> None:
        """A variant's score categories (and its science); the base game scores science here."""
        compass, gear, tablet, wild = self.players[seat].science
        points["science"] = scoring.science_points((compass, gear, tablet), wild)

    def card_points(self, seat: int, card: CardDef, vp: int) -> int:
        """A card's points once a variant has had its say (e.g. a cap on guilds)."""
        return vp

    def science_counter(self, seat: int) -> Callable[[tuple[int, int, int]], int]:
        """The science points of a seat's symbols once its symbols of choice are placed."""
        return scoring.science_points

    def science_sources(self, seat: int) -> list[dict[str, Any]]:
        """What gave the seat its science symbols of choice: built stages, then cards in build order."""
        p = self.players[seat]
        out: list[dict[str, Any]] = [
            {"wonder": p.wonder.name, "stage": i + 1} for i in p.built_stages if p.stages[i].effects.science == "any"
        ]
        out += [{"card": self.cards[c].name} for c in p.city if self.cards[c].effects.science == "any"]
        return out

    def own_variant(self) -> None:
        """Copy a variant's own state, shared with successors until now (see own)."""

    def snapshot_variant(self, out: dict[str, Any]) -> None:
        """A variant's part of the snapshot."""


Price = CardDef | StageDef  # anything with a resource cost and a coin cost (a variant may add others)


@cache
def age_cards(data: ClassicData, age: int, players: int) -> tuple[CardDef, ...]:
    """The Age's buildings for this player count: one entry per copy whose icon is at most N."""
    return tuple(card for card in data.cards if card.age == age for icon in card.copies if icon <= players)


def shuffled(items: Iterable[int], rng: random.Random) -> list[int]:
    """A seeded shuffle (sorting on random keys is faster than random.shuffle in Python)."""
    keyed = [(rng.random(), item) for item in items]
    keyed.sort()
    return [item for _, item in keyed]
