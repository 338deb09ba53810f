"""The classic 7 Wonders game: setup, simultaneous picks, turn resolution, Ages, scoring."""

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from app.engine.classic import scoring
from app.engine.classic.armada import EXPLORE, ArmadaRules, ship_move_of
from app.engine.classic.armada_data import ArmadaData, StepCost, armada_data
from app.engine.classic.data import CardDef, ClassicData, Effects, StageDef, WonderDef, classic_data
from app.engine.classic.move import CARD_ACTION_FIELDS, Move
from app.engine.classic.player import LEFT, RIGHT, SIDE_NAMES, Player
from app.engine.classic.unplayable import hand_reasons
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, Game, check_keys, require_dict
from app.engine.common.payment import (
    Market,
    PaymentOption,
    Seller,
    affordable,
    free_option,
    plan_coins,
    plan_is_feasible,
)
from app.engine.common.resources import INDEX, N_RESOURCES, RESOURCES, ZERO, Vector, to_dict
from app.engine.config import GameConfig

STARTING_COINS = 3
HAND_SIZE = 7
DISCARD_COINS = 3
VICTORY_TOKENS = {1: 1, 2: 3, 3: 5}
DEFEAT_TOKEN = -1
AGES = 3

PICK, LAST_CARD, DISCARD_BUILD, OVER = "pick", "last_card", "discard_build", "over"
Price = CardDef | StageDef | StepCost  # anything with a resource cost and a coin cost

FREE_REASONS = {
    "chain": "you own a card that chains to it",
    "first_of_color": "Olympia builds the first card of each colour free",
    "first_of_age": "Olympia builds the first card of each Age free",
    "last_of_age": "Olympia builds the last card of each Age free",
}


class ClassicGame(ArmadaRules, Game):
    """7 Wonders for 3-7 players. Seat i's left neighbour is seat i+1, its right seat i-1."""

    def __init__(self, config: GameConfig) -> None:
        if config.game != "classic":
            raise ValueError("ClassicGame plays the classic game")
        self.config = config
        self.n = config.seats
        self.data: ClassicData = classic_data()
        self.armada: ArmadaData | None = armada_data() if "armada" in config.expansions else None
        rng = random.Random(config.seed)
        self.cards: tuple[CardDef, ...] = ()
        self.decks: dict[int, list[int]] = {}
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
        self._markets: dict[int, Market] = {}  # per seat, until a city changes
        if self.armada is not None:
            self._setup_armada(rng)
        self._start_age()

    # ----- setup -------------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return HAND_SIZE if self.armada is None else self.armada.hand_size

    @property
    def turns_per_age(self) -> int:
        return self.hand_size - 1

    def _make_decks(self, rng: random.Random) -> None:
        cards: list[CardDef] = []
        for age in range(1, AGES + 1):
            pool = list(age_cards(self.data, age, self.n))
            if age == AGES:
                pool += rng.sample(self.data.guilds, self.n + 2)
            if self.armada is not None:
                pool += self.armada_cards(age, rng)
            first = len(cards)
            cards += pool
            self.decks[age] = shuffled(range(first, len(cards)), rng)
        self.cards = tuple(cards)

    @property
    def wonder_pool(self) -> tuple[WonderDef, ...]:
        """The wonders this game may deal: the base game's, and Siracusa with Armada."""
        return self.data.wonders + (self.armada.wonders if self.armada is not None else ())

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

    def _start_age(self) -> None:
        self.age += 1
        self.turn = 1
        deck = self.decks[self.age]
        size = self.hand_size
        self.hands = [deck[i * size : (i + 1) * size] for i in range(self.n)]
        self.decks[self.age] = deck[self.n * size :]
        self.phase = PICK

    # ----- neighbours and trading ----------------------------------------------------------

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.n

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self.n

    def check_seat(self, seat: Any) -> int:
        if type(seat) is int and 0 <= seat < self.n:
            return seat
        return super().check_seat(seat)

    def neighbours(self, seat: int) -> tuple[int, int]:
        return self.left_of(seat), self.right_of(seat)

    def market(self, p: Player) -> Market:
        found = self._markets.get(p.seat)
        if found is None:
            found = self._markets[p.seat] = Market(p.fixed, p.choices, self.sellers(p), p.supply, p.masks)
        return found

    def _production_changed(self, seat: int, effects: Effects) -> None:
        """Forget the markets that depended on this seat's production or prices."""
        if effects.changes_trading:
            markets = self._markets
            for s in (seat, self.left_of(seat), self.right_of(seat)):
                markets.pop(s, None)
            if self.armada is not None:  # Emporium owners buy from two seats away
                for far in ((seat + 2) % self.n, (seat - 2) % self.n):
                    if self.fleets[far].far:
                        markets.pop(far, None)

    def sellers(self, p: Player) -> tuple[Seller, ...]:
        left = self.players[self.left_of(p.seat)]
        right = self.players[self.right_of(p.seat)]
        near = tuple(
            Seller(n.trade_fixed, n.trade_choices, p.prices[side], None, n.trade_supply, n.trade_masks)
            for side, n in ((LEFT, left), (RIGHT, right))
        )
        return near if self.armada is None else near + self._far_sellers(p)

    def trade_sides(self, p: Player) -> tuple[str, ...]:
        """The names of p's sellers, in the order of its market's sellers."""
        if self.armada is None or not self.fleets[p.seat].far:
            return SIDE_NAMES
        return SIDE_NAMES + self._far_sides(p)

    # ----- the public face ---------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        if self.phase == PICK:
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
        seat = self.check_seat(seat)
        if self.phase == PICK:
            return self._pick_actions(self.players[seat], self.hands[seat])
        if seat not in self.pending:
            return []
        if self.phase == LAST_CARD:
            return self._pick_actions(self.players[seat], self.hands[seat])
        if self.phase == DISCARD_BUILD:
            return self._discard_build_actions(self.players[seat])
        if self.phase == EXPLORE:
            return self._keep_island_actions(seat)
        return []

    def _pick_actions(self, p: Player, hand: list[int]) -> list[Action]:
        if self.armada is None:
            return self._card_actions(p, hand)
        return self._armada_card_actions(p, hand)

    def apply(self, seat: int, action: Action) -> list[Event]:
        seat = self.check_seat(seat)
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        action = require_dict(action)
        if self.phase == PICK:
            events = self._apply_pick(seat, action)
        elif seat not in self.pending:
            raise IllegalAction(f"seat {seat} has nothing to decide now; waiting for seats {self.to_act}")
        elif self.phase == LAST_CARD:
            events = self._apply_last_card(seat, action)
        elif self.phase == EXPLORE:
            events = self._apply_keep_island(seat, action)
        else:
            events = self._apply_discard_build(seat, action)
        return events

    def result(self) -> dict[str, Any]:
        if self._result is None:
            self._result = scoring.result(self)
        return self._result

    # ----- legal actions -------------------------------------------------------------------

    def _card_actions(self, p: Player, hand: list[int]) -> list[Action]:
        """Builds first, then wonder stages, then discards; one entry per distinct card name."""
        stage = p.next_stage()
        stage_ways = () if stage is None else self._ways_to_pay(p, p.stages[stage])
        stage_bank = 0 if stage is None else p.stages[stage].coin_cost
        builds: list[Action] = []
        wonders: list[Action] = []
        discards: list[Action] = []
        seen: set[str] = set()
        cards = self.cards
        names = p.names
        for card_id in hand:
            card = cards[card_id]
            name = card.name
            if name in seen:
                continue
            seen.add(name)
            if name not in names:
                if card.chain_from and not names.isdisjoint(card.chain_from):
                    free: str | None = "chain"
                else:
                    free = self._ability_free(p, card) if p.abilities else None
                if free:
                    builds.append(
                        {
                            "type": "build",
                            "card": name,
                            "trade": {"left": {}, "right": {}},
                            "cost": {"bank": 0, "left": 0, "right": 0},
                            "free": free,
                        }
                    )
                else:
                    bank = card.coin_cost
                    for option in self._ways_to_pay(p, card):
                        left, right = option.coins
                        bought_left, bought_right = option.named
                        builds.append(
                            {
                                "type": "build",
                                "card": name,
                                "trade": {"left": dict(bought_left), "right": dict(bought_right)},
                                "cost": {"bank": bank, "left": left, "right": right},
                            }
                        )
            for option in stage_ways:
                left, right = option.coins
                bought_left, bought_right = option.named
                wonders.append(
                    {
                        "type": "wonder",
                        "card": name,
                        "stage": stage + 1,  # type: ignore[operator]
                        "trade": {"left": dict(bought_left), "right": dict(bought_right)},
                        "cost": {"bank": stage_bank, "left": left, "right": right},
                    }
                )
            discards.append({"type": "discard", "card": name})
        return builds + wonders + discards

    def _ways_to_pay(self, p: Player, what: Price) -> Sequence[PaymentOption]:
        """The affordable ways to pay for a card or stage, on top of its coin cost, cheapest first."""
        coin_cost = what.coin_cost
        if coin_cost > p.coins:
            return ()
        if not what.cost_items:
            return (free_option(2 if self.armada is None else len(self.trade_sides(p))),)
        market = self._markets.get(p.seat) or self.market(p)
        return affordable(market.options(what.cost, what.cost_items), p.coins - coin_cost)

    def _free_reason(self, p: Player, card: CardDef) -> str | None:
        """Why this card would be free for this player now (None: it must be paid)."""
        if not p.names.isdisjoint(card.chain_from):
            return "chain"
        return self._ability_free(p, card) if p.abilities else None

    def _ability_free(self, p: Player, card: CardDef) -> str | None:
        """Olympia's free builds."""
        if "free_first_card_each_color" in p.abilities and not p.colors.get(card.color):
            return "first_of_color"
        if self.phase == PICK:
            if self.turn == 1 and "free_first_card_each_age" in p.abilities:
                return "first_of_age"
            if self.turn == self.turns_per_age and "free_last_card_each_age" in p.abilities:
                return "last_of_age"
        return None

    def _discard_build_actions(self, p: Player) -> list[Action]:
        names = sorted({self.cards[c].name for c in self.discard} - p.names)
        if self.armada is None:
            return [{"type": "build_from_discard", "card": name} for name in names] + [{"type": "pass"}]
        cards = {self.cards[c].name: self.cards[c] for c in self.discard}
        out: list[Action] = []
        for name in names:
            for choice in self.move_choices(p.seat, ship_move_of(cards[name].effects), None):
                out.append({"type": "build_from_discard", "card": name, **({"moves": list(choice)} if choice else {})})
        return out + [{"type": "pass"}]

    # ----- validating actions -------------------------------------------------------------------

    def _parse_card_action(self, p: Player, hand: list[int], action: dict[str, Any]) -> Move:
        if self.armada is not None:
            return self._parse_armada_card_action(p, hand, action)
        kind, card_id = self._card_action_of(hand, action, CARD_ACTION_FIELDS)
        card = self.cards[card_id]
        if kind == "discard":
            check_keys(action, {"card"})
            return Move("discard", card_id)
        if kind == "build":
            self._check_buildable(p, action, card)
            free = self._free_reason(p, card)
            if free:
                self._check_free(action, free, card.name)
                return Move("build", card_id, free=free)
            if "free" in action:
                raise IllegalAction(f"{card.name} is not free for you")
            bank, coins, trade = self._check_payment(p, action, card, card.name)
            return Move("build", card_id, bank=bank, coins=coins, trade=trade)
        stage = p.next_stage()
        if stage is None:
            raise IllegalAction("your wonder is complete: every stage is built")
        if "stage" in action and action["stage"] != stage + 1:
            raise IllegalAction(f"the next stage of your wonder is stage {stage + 1}, not {action['stage']!r}")
        if "free" in action:
            raise IllegalAction("wonder stages are never free")
        bank, coins, trade = self._check_payment(p, action, p.stages[stage], f"stage {stage + 1} of {p.wonder.name}")
        return Move("wonder", card_id, stage=stage, bank=bank, coins=coins, trade=trade)

    @staticmethod
    def _check_buildable(p: Player, action: dict[str, Any], card: CardDef) -> None:
        if "stage" in action:
            raise IllegalAction("'stage' belongs to a wonder action, not a build")
        if card.name in p.names:
            raise IllegalAction(f"you already have {card.name} in your city; a city never holds two of one name")

    def _card_action_of(self, hand: list[int], action: dict[str, Any], fields: frozenset[str]) -> tuple[str, int]:
        """The kind of a card action (build, wonder, discard) and the card in hand it names."""
        kind = action["type"]
        if kind not in ("build", "wonder", "discard"):
            raise IllegalAction(f"unknown action type '{kind}' now; choose build, wonder or discard with a card")
        check_keys(action, fields)
        return kind, self._card_in_hand(hand, action.get("card"))

    def _card_in_hand(self, hand: list[int], name: Any) -> int:
        cards = self.cards
        for card_id in hand:
            if cards[card_id].name == name:
                return card_id
        held = sorted({cards[c].name for c in hand})
        raise IllegalAction(f"'{name}' is not in your hand; your hand holds {held}")

    def _check_free(self, action: dict[str, Any], free: str, name: str, sides: tuple[str, ...] = SIDE_NAMES) -> None:
        trade = action.get("trade")
        if trade is not None and not (
            isinstance(trade, dict) and trade.keys() <= set(sides) and not any(trade.values())
        ):
            raise IllegalAction(f"{name} is free for you ({FREE_REASONS[free]}): buy nothing for it")
        expected = {"bank": 0, **dict.fromkeys(sides, 0)}
        if action.get("cost", expected) != expected:
            raise IllegalAction(f"{name} is free for you ({FREE_REASONS[free]}): its cost is {expected}")
        if action.get("free", free) != free:
            raise IllegalAction(f"{name} is free because {FREE_REASONS[free]} ('{free}')")

    def _check_payment(
        self, p: Player, action: dict[str, Any], paid: Price, what: str
    ) -> tuple[int, tuple[int, ...], dict[str, dict[str, int]]]:
        """Bank coins, coins to each seller and the canonical trade, or IllegalAction."""
        cost, coin_cost = paid.cost, paid.coin_cost
        trade = action.get("trade")
        market = self.market(p)
        sides = self.trade_sides(p)
        offered = self._offered_trade(market, paid, trade, sides)
        if offered is not None:
            coins = offered.coins
            canonical = {side: dict(named) for side, named in zip(sides, offered.named, strict=True)}
        else:  # not one of the offered ways: check it from scratch
            buys = self._parse_trade(trade, sides)
            sellers = market.sellers
            if not plan_is_feasible(cost, p.fixed, p.choices, sellers, buys):
                hint = self._payment_hint(p, paid, sides)
                raise IllegalAction(f"that trade does not pay for {what} (costs {_cost_text(cost, coin_cost)}); {hint}")
            coins = plan_coins(sellers, buys)
            canonical = {side: to_dict(buy) for side, buy in zip(sides, buys, strict=True)}
        total = coin_cost + sum(coins)
        if total > p.coins:
            raise IllegalAction(f"{what} would cost {total} coins with that trade; you have {p.coins}")
        computed = {"bank": coin_cost, **dict(zip(sides, coins, strict=True))}
        if "cost" in action and action["cost"] != computed:
            raise IllegalAction(f"the stated cost {action['cost']} is wrong: that trade costs {computed}")
        return coin_cost, tuple(coins), canonical

    @staticmethod
    def _offered_trade(market: Market, paid: Price, trade: Any, sides: tuple[str, ...]) -> PaymentOption | None:
        """The offered payment option this trade is, if it is one (the common, fast case)."""
        if trade is None:
            trade = {}
        if not isinstance(trade, dict) or not trade.keys() <= set(sides):
            return None
        wanted = tuple(trade.get(side) or {} for side in sides)
        for option in market.options(paid.cost, paid.cost_items):
            if all(w == dict(named) for w, named in zip(wanted, option.named, strict=True)):
                return option
        return None

    def _payment_hint(self, p: Player, paid: Price, sides: tuple[str, ...]) -> str:
        ways = self._ways_to_pay(p, paid)
        if not ways:
            return "you cannot afford it this turn"
        example = {side: dict(named) for side, named in zip(sides, ways[0].named, strict=True)}
        return f"one way to pay: trade {example}"

    @staticmethod
    def _parse_trade(trade: Any, sides: tuple[str, ...]) -> tuple[Vector, ...]:
        if trade is None:
            return (ZERO,) * len(sides)
        if not isinstance(trade, dict) or set(trade) - set(sides):
            raise IllegalAction(
                f'\'trade\' must be an object with the keys {list(sides)}, like {{"left": {{"wood": 1}}}}'
            )
        out = []
        for side in sides:
            bought = trade.get(side) or {}
            if not isinstance(bought, dict):
                raise IllegalAction(f"trade.{side} must map resources to counts")
            vec = [0] * N_RESOURCES
            for resource, count in bought.items():
                if resource not in INDEX:
                    raise IllegalAction(f"unknown resource '{resource}' in trade.{side}")
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    raise IllegalAction(f"trade.{side}.{resource} must be a whole number, not {count!r}")
                vec[INDEX[resource]] = count
            out.append(tuple(vec))
        return tuple(out)

    # ----- the pick phase ------------------------------------------------------------------------

    def _apply_pick(self, seat: int, action: dict[str, Any]) -> list[Event]:
        move = self._parse_card_action(self.players[seat], self.hands[seat], action)
        changed = seat in self.picks
        self.picks[seat] = move
        self.log.append({"seat": seat, "action": move.action(self.cards[move.card].name)})
        events: list[Event] = [{"type": "chosen", "seat": seat, "changed": changed}]
        if len(self.picks) == self.n:
            events.extend(self._resolve_turn())
        return events

    def _resolve_turn(self) -> list[Event]:
        moves = sorted(self.picks.items())
        self.picks = {}
        income = [0] * self.n
        for seat, move in moves:
            self._pay(seat, move, income)
        for seat, move in moves:
            self._place(seat, move)
        for seat, move in moves:
            self._after_placing(seat, move)
        for seat, coins in enumerate(income):
            self.players[seat].coins += coins
        events: list[Event] = [
            {
                "type": "reveal",
                "age": self.age,
                "turn": self.turn,
                "moves": [m.public(s, self.cards[m.card].name) for s, m in moves],
            }
        ]
        last = self.turn == self.turns_per_age
        if self.armada is not None:  # islands, then discard builds, then coin losses (Armada's order)
            if last:
                self.queue = ["explore", "coin_losses", "last_card", "explore", "coin_losses", "discard_hands"]
                self.queue += ["discard_build", "explore", "coin_losses", "end_age"]
            else:
                self.queue = ["explore", "discard_build", "explore", "coin_losses", "next_turn"]
        elif last:
            self.queue = ["last_card", "discard_hands", "discard_build", "end_age"]
        else:
            self.queue = ["discard_build", "next_turn"]
        return events + self._run_queue()

    def _pay(self, seat: int, move: Move, income: list[int]) -> None:
        p = self.players[seat]
        p.coins -= move.bank + sum(move.coins)
        if move.sides is SIDE_NAMES:
            income[self.left_of(seat)] += move.coins[LEFT]
            income[self.right_of(seat)] += move.coins[RIGHT]
        else:
            for side, coins in zip(move.sides, move.coins, strict=True):
                income[self.seat_at(seat, side)] += coins

    def _place(self, seat: int, move: Move) -> None:
        """Put the card where it goes; lasting effects count from the next turn."""
        p = self.players[seat]
        self.hands[seat].remove(move.card)
        if move.kind == "build":
            p.add_card(move.card, self.cards[move.card])
            self._production_changed(seat, self.cards[move.card].effects)
        elif move.kind == "wonder":
            assert move.stage is not None
            p.add_stage(move.stage, move.card)
            self._production_changed(seat, p.stages[move.stage].effects)
        else:
            self.discard.append(move.card)

    def _after_placing(self, seat: int, move: Move) -> None:
        """Immediate effects, once every card of the turn is on the table."""
        p = self.players[seat]
        if move.kind == "discard":
            if move.reward is None:
                p.coins += DISCARD_COINS
        elif move.kind == "build":
            self._gain_coins(p, self.cards[move.card].effects)
        else:
            assert move.stage is not None
            effects = p.stages[move.stage].effects
            self._gain_coins(p, effects)
            if "build_from_discard" in effects.abilities:
                self.discard_builders.append(seat)
        if self.armada is not None:
            self._armada_after_placing(seat, move)

    def _gain_coins(self, p: Player, effects: Effects) -> None:
        p.coins += effects.coins
        for per in effects.coins_per:
            p.coins += per.amount * scoring.count(self, p.seat, per)

    # ----- steps after a turn ---------------------------------------------------------------------

    def _run_queue(self) -> list[Event]:
        events: list[Event] = []
        while self.queue and not self.pending:
            step = self.queue.pop(0)
            events.extend(getattr(self, f"_step_{step}")())
        return events

    def _step_last_card(self) -> list[Event]:
        seats = {s for s, p in enumerate(self.players) if "play_last_card_each_age" in p.abilities and self.hands[s]}
        if seats:
            self.pending = seats
            self.phase = LAST_CARD
            return [{"type": "decision", "kind": "last_card", "seats": sorted(seats)}]
        return []

    def _step_discard_hands(self) -> list[Event]:
        for hand in self.hands:
            self.discard.extend(hand)
            hand.clear()
        return []

    def _step_discard_build(self) -> list[Event]:
        events: list[Event] = []
        seats = set()
        for seat in self.discard_builders:
            if len(self._discard_build_actions(self.players[seat])) > 1:
                seats.add(seat)
            else:
                events.append(
                    {
                        "type": "discard_build_skipped",
                        "seat": seat,
                        "reason": "nothing in the discard pile can be built",
                    }
                )
        self.discard_builders = []
        if seats:
            self.pending = seats
            self.phase = DISCARD_BUILD
            events.append({"type": "decision", "kind": "build_from_discard", "seats": sorted(seats)})
        return events

    def _step_next_turn(self) -> list[Event]:
        if self.age == 2:
            self.hands = [self.hands[self.left_of(s)] for s in range(self.n)]
        else:
            self.hands = [self.hands[self.right_of(s)] for s in range(self.n)]
        self.turn += 1
        self.phase = PICK
        return []

    def _step_end_age(self) -> list[Event]:
        events = [self._military()]
        if self.armada is not None:
            events.append(self._naval_conflict())
        if self.age == AGES:
            self.phase = OVER
            events.append({"type": "game_over", "result": self.result()})
        else:
            self._start_age()
            events.append({"type": "age_started", "age": self.age})
        return events

    def _military(self) -> Event:
        victory = VICTORY_TOKENS[self.age]
        # each pair fought once: seat against its left neighbour; with Armada, then the landings
        pairs = [(seat, self.left_of(seat)) for seat in range(self.n)]
        battles = [self._battle(a, b, victory) for a, b in pairs]
        if self.armada is not None:
            battles += [{**self._battle(a, b, victory), "landing": True} for a, b in self.landings]
            self.landings = []
        return {"type": "military", "age": self.age, "battles": battles}

    def _battle(self, a: int, b: int, victory: int) -> dict[str, Any]:
        """One ground conflict: the stronger takes the Age's victory token, the weaker a defeat."""
        mine, theirs = self.players[a].shields, self.players[b].shields
        winner = None
        if mine != theirs:
            winner, loser = (a, b) if mine > theirs else (b, a)
            self.players[winner].tokens.append(victory)
            self.players[loser].tokens.append(DEFEAT_TOKEN)
        return {"seats": [a, b], "shields": [mine, theirs], "winner": winner}

    # ----- decisions outside the pick phase ---------------------------------------------------------

    def _apply_last_card(self, seat: int, action: dict[str, Any]) -> list[Event]:
        move = self._parse_card_action(self.players[seat], self.hands[seat], action)
        self.log.append({"seat": seat, "action": move.action(self.cards[move.card].name)})
        income = [0] * self.n
        self._pay(seat, move, income)
        self._place(seat, move)
        self._after_placing(seat, move)
        for s, coins in enumerate(income):
            self.players[s].coins += coins
        self.pending.discard(seat)
        events: list[Event] = [{"type": "last_card_played", "move": move.public(seat, self.cards[move.card].name)}]
        return events + self._run_queue()

    def _apply_discard_build(self, seat: int, action: dict[str, Any]) -> list[Event]:
        p = self.players[seat]
        if action["type"] == "pass":
            check_keys(action, set())
            canonical: dict[str, Any] = {"type": "pass"}
            events: list[Event] = [{"type": "discard_build_passed", "seat": seat}]
        elif action["type"] == "build_from_discard":
            check_keys(action, {"card"} if self.armada is None else {"card", "moves"})
            name = action.get("card")
            card_id = next((c for c in self.discard if self.cards[c].name == name), None)
            if card_id is None:
                raise IllegalAction(f"'{name}' is not in the discard pile")
            if name in p.names:
                raise IllegalAction(f"you already have {name} in your city")
            card = self.cards[card_id]
            moves: tuple[str, ...] = ()
            if self.armada is not None:
                moves = self.check_moves(seat, ship_move_of(card.effects), None, action.get("moves"))
            self.discard.remove(card_id)
            p.add_card(card_id, card)
            self._production_changed(seat, card.effects)
            self._gain_coins(p, card.effects)
            canonical = {"type": "build_from_discard", "card": name}
            events = [{"type": "built_from_discard", "seat": seat, "card": name}]
            if self.armada is not None:  # its effects, but never a naval construction
                self._armada_effects(seat, card.effects, moves)
                if moves:
                    canonical["moves"] = list(moves)
                    events[0]["moves"] = list(moves)
        else:
            raise IllegalAction(
                "now choose a card from the discard pile to build free ('build_from_discard') or 'pass'"
            )
        self.log.append({"seat": seat, "action": canonical})
        self.pending.discard(seat)
        return events + self._run_queue()

    # ----- what seats may see ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            seat = self.check_seat(seat)
        out: dict[str, Any] = {
            "game": "classic",
            "expansions": list(self.config.expansions),
            "version": self.version,
            "age": self.age,
            "turn": self.turn,
            "turns_per_age": self.turns_per_age,
            "phase": self.phase,
            "direction": "right" if self.age == 2 else "left",
            "to_act": self.to_act,
            "seat": seat,
            "hand": [] if seat is None else [self.cards[c].name for c in self.hands[seat]],
            "players": [self._public_player(p) for p in self.players],
            "discard_pile_size": len(self.discard),
        }
        if self.armada is not None:
            out["armada"] = self._armada_view()
        if seat is not None:
            pick = self.picks.get(seat)
            out["pick"] = None if pick is None else self._own_move(seat, pick)
            out["decision"] = self._decision(seat)
            if self.phase == PICK or (self.phase == LAST_CARD and seat in self.pending):
                # why a card of the hand cannot be built, or the wonder (see unplayable.py)
                out["unplayable"], out["wonder_unplayable"] = hand_reasons(self, seat)
        if self.phase == OVER:
            out["result"] = self.result()
        return out

    def _public_player(self, p: Player) -> dict[str, Any]:
        return {
            "seat": p.seat,
            "wonder": p.wonder.name,
            "side": p.side,
            "coins": p.coins,
            "city": [self.cards[c].name for c in p.city],
            "stages_built": p.stages_built,
            "stages_total": len(p.stages),
            "built_stages": [i + 1 for i in p.built_stages],
            "military_tokens": list(p.tokens),
            "shields": p.shields,
            "science": dict(zip(("compass", "gear", "tablet", "any"), p.science, strict=True)),
            "has_chosen": p.seat in self.picks,
            "hand_size": len(self.hands[p.seat]),
            "left": self.left_of(p.seat),
            "right": self.right_of(p.seat),
            "production": _production(p.fixed, p.choices),
            "sells": _production(p.trade_fixed, p.trade_choices),
            "prices": {side: dict(zip(RESOURCES, p.prices[i], strict=True)) for i, side in enumerate(SIDE_NAMES)},
            **({} if self.armada is None else {"shipyard": self._shipyard_view(p.seat)}),
        }

    def _own_move(self, seat: int, move: Move) -> dict[str, Any]:
        out = move.public(seat, self.cards[move.card].name)
        out["card"] = self.cards[move.card].name
        return out

    def _decision(self, seat: int) -> dict[str, Any] | None:
        if self.phase == PICK:
            return {"kind": "pick", "pending": seat not in self.picks}
        if seat not in self.pending:
            return None
        if self.phase == LAST_CARD:
            return {"kind": "last_card"}
        if self.phase == EXPLORE:
            assert self.armada is not None
            return {"kind": "keep_island", "islands": [self.armada.islands[i].name for i in self.offers[seat]]}
        return {"kind": "build_from_discard", "options": [a["card"] for a in self.legal_actions(seat) if "card" in a]}

    # ----- copies and snapshots ---------------------------------------------------------------------------

    def clone(self) -> "ClassicGame":
        other = ClassicGame.__new__(ClassicGame)
        other.__dict__.update(self.__dict__)
        other.players = [p.copy() for p in self.players]
        other.hands = [list(h) for h in self.hands]
        other.decks = {age: list(deck) for age, deck in self.decks.items()}
        other.discard = list(self.discard)
        other.picks = dict(self.picks)
        other.pending = set(self.pending)
        other.queue = list(self.queue)
        other.discard_builders = list(self.discard_builders)
        other.log = list(self.log)
        other._markets = dict(self._markets)
        if self.armada is not None:
            self._clone_armada(other)
        return other

    def snapshot(self) -> dict[str, Any]:
        return {
            "config": self.config.model_dump(),
            "age": self.age,
            "turn": self.turn,
            "phase": self.phase,
            "cards": [c.name for c in self.cards],
            "decks": {str(a): list(d) for a, d in self.decks.items()},
            "hands": [list(h) for h in self.hands],
            "discard": list(self.discard),
            "picks": {str(s): self._own_move(s, m) for s, m in sorted(self.picks.items())},
            "pending": sorted(self.pending),
            "queue": list(self.queue),
            "players": [
                {
                    "wonder": p.wonder.name,
                    "side": p.side,
                    "coins": p.coins,
                    "city": list(p.city),
                    "tucked": list(p.tucked),
                    "stages": list(p.built_stages),
                    "tokens": list(p.tokens),
                    "shields": p.shields,
                    "science": list(p.science),
                    "fixed": list(p.fixed),
                    "choices": [list(c) for c in p.choices],
                    "prices": [list(v) for v in p.prices],
                    "abilities": sorted(p.abilities),
                }
                for p in self.players
            ],
            **({} if self.armada is None else {"armada": self._armada_snapshot()}),
        }


@cache
def age_cards(data: ClassicData, age: int, players: int) -> tuple[CardDef, ...]:
    """The Age's buildings for this player count: one entry per copy whose icon is at most N."""
    return tuple(card for card in data.cards if card.age == age for icon in card.copies if icon <= players)


def shuffled(items: Iterable[int], rng: random.Random) -> list[int]:
    """A seeded shuffle (sorting on random keys is faster than random.shuffle in Python)."""
    keyed = [(rng.random(), item) for item in items]
    keyed.sort()
    return [item for _, item in keyed]


def _cost_text(cost: Vector, coins: int) -> str:
    parts = [f"{n} {name}" for name, n in to_dict(cost).items()]
    if coins:
        parts.append(f"{coins} coin{'s' if coins > 1 else ''}")
    return ", ".join(parts) or "nothing"


def _production(fixed: Vector, choices: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    """What a city produces each turn: fixed units, and one unit of each choice's resources."""
    return {"resources": to_dict(fixed), "choices": [[RESOURCES[i] for i in choice] for choice in choices]}
