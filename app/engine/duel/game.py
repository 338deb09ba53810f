"""7 Wonders Duel: setup, the Wonder draft, turns, pending decisions, Ages and the three victories."""

import random
from typing import Any

from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, Game, require_dict
from app.engine.config import GameConfig
from app.engine.duel import options, scoring, validate, view
from app.engine.duel.costs import SeatCosts
from app.engine.duel.data import AGES, CardDef, DuelData, Effects, duel_data
from app.engine.duel.military import Military
from app.engine.duel.phases import (
    BOX_TOKEN,
    CHOOSE_PROGRESS,
    CHOOSE_STARTER,
    DESTROY,
    DISCARD_BUILD,
    DRAFT,
    OVER,
    PHASE_TEXT,
    PLAY,
)
from app.engine.duel.player import DuelPlayer
from app.engine.duel.structure import Structure


class DuelGame(Game):
    """7 Wonders Duel for two seats. Seat 0's shields push the conflict pawn toward positive positions."""

    def __init__(self, config: GameConfig) -> None:
        if config.game != "duel":
            raise ValueError("DuelGame plays 7 Wonders Duel")
        self.config = config
        self.data: DuelData = duel_data()
        self.cards = self.data.cards
        self.log = []
        rng = random.Random(config.seed)
        setup, rules = self.data.setup, self.data.rules
        self.players = [DuelPlayer(seat, setup.starting_coins) for seat in (0, 1)]
        self.military = Military(self.data.track)
        tokens = list(range(len(self.data.tokens)))
        rng.shuffle(tokens)
        self.board_tokens: list[int] = sorted(tokens[: setup.progress_tokens_on_board])
        self.box_tokens: list[int] = tokens[setup.progress_tokens_on_board :]  # in the order they would be drawn
        self.box_offer: list[int] = []  # the tokens drawn for the Great Library's owner
        wonders = list(range(len(self.data.wonders)))
        rng.shuffle(wonders)
        per_round = setup.wonders_per_round
        self.draft_pool: list[int] = wonders[: 2 * per_round]
        self.wonder_box: list[int] = wonders[2 * per_round :]
        self.first = rng.randrange(2)
        self.draft_order = self._draft_order(per_round)
        self.draft_step = 0
        self.draft_offer: list[int] = self.draft_pool[:per_round]
        self.decks: dict[int, list[int]] = {}
        self.removed: list[int] = []
        self._deal(rng)
        self.structure: Structure | None = None
        self.discard: list[int] = []
        self.age = 0
        self.current = self.first  # the seat whose turn it is to take a card
        self.actor: int | None = self.draft_order[0]  # the seat that owes the decision now
        self.phase = DRAFT
        self.pending: list[str] = []  # decisions the current seat still owes for this turn
        self.destroy_color: str | None = None
        self.play_again = False
        self.winners: list[int] = []
        self.victory: str | None = None
        self.max_wonders = rules.max_wonders_built
        self.wonders_total = 0
        self._costs: list[SeatCosts | None] = [None, None]
        self._result: dict[str, Any] | None = None

    def _draft_order(self, per_round: int) -> list[int]:
        """A B B A, then B A A B (for 4 Wonders a round): who takes each Wonder of the draft."""
        a, b = self.first, 1 - self.first
        first_round = [a] + [b, b, a, a] * per_round
        second_round = [b] + [a, a, b, b] * per_round
        return first_round[:per_round] + second_round[:per_round]

    def _deal(self, rng: random.Random) -> None:
        """Shuffle each Age deck, set 3 cards aside unseen, and add 3 random guilds to Age III."""
        removed = self.data.setup.cards_removed_per_age
        guilds = list(self.data.guild_ids)
        rng.shuffle(guilds)
        keep = self.data.setup.guilds_in_age_3
        for age in AGES:
            deck = list(self.data.age_ids[age])
            rng.shuffle(deck)
            self.removed.extend(deck[:removed])
            deck = deck[removed:]
            if age == 3:
                deck.extend(guilds[:keep])
                self.removed.extend(guilds[keep:])
                rng.shuffle(deck)
            self.decks[age] = deck

    # ----- the public face -------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        return [] if self.actor is None else [self.actor]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of seat now (none unless seat is to act), as JSON-able dicts."""
        if type(seat) is not int or seat != self.actor:
            seat = self.check_seat(seat)
            if seat != self.actor:
                return []
        return options.legal(self)

    def apply(self, seat: int, action: Action) -> list[Event]:
        if (
            type(seat) is not int
            or seat != self.actor
            or type(action) is not dict
            or type(action.get("type")) is not str
        ):
            self._refuse(seat, action)
        info = validate.match(self, action)
        self.log.append({"seat": seat, "action": dict(action)})
        self._result = None
        return PERFORM[action["type"]](self, info)

    def _refuse(self, seat: Any, action: Any) -> None:
        """Raise IllegalAction for a wrong seat, a game over, or a malformed action."""
        seat = self.check_seat(seat)
        if self.phase == OVER:
            raise IllegalAction("the game is over: no action is legal")
        require_dict(action)
        if seat != self.actor:
            raise IllegalAction(
                f"seat {seat} has nothing to decide now: seat {self.actor} must {PHASE_TEXT[self.phase]}"
            )

    def view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            seat = self.check_seat(seat)
        return view.view(self, seat)

    def result(self) -> dict[str, Any]:
        if self._result is None:
            self._result = scoring.result(self)
        return self._result

    def snapshot(self) -> dict[str, Any]:
        return view.snapshot(self)

    def clone(self) -> "DuelGame":
        other = DuelGame.__new__(DuelGame)
        other.__dict__.update(self.__dict__)
        other.players = [self.players[0].copy(), self.players[1].copy()]
        other.military = self.military.copy()
        other.structure = None if self.structure is None else self.structure.copy()
        other.board_tokens = self.board_tokens[:]
        other.box_tokens = self.box_tokens[:]
        other.box_offer = self.box_offer[:]
        other.draft_offer = self.draft_offer[:]
        other.wonder_box = self.wonder_box[:]
        other.removed = self.removed[:]
        other.discard = self.discard[:]
        other.pending = self.pending[:]
        other.winners = self.winners[:]
        other.decks = {age: deck[:] for age, deck in self.decks.items()}
        other.log = self.log[:]
        other._costs = [None, None]
        return other

    # ----- the Wonder draft --------------------------------------------------------------------

    def _do_draft(self, info: tuple) -> list[Event]:
        events = [self._draft(info[0], auto=False)]
        if len(self.draft_offer) == 1:
            events.append(self._draft(self.draft_offer[0], auto=True))
        per_round = self.data.setup.wonders_per_round
        if self.draft_step == per_round:
            self.draft_offer = self.draft_pool[per_round:]
            names = [self.data.wonders[w].name for w in self.draft_offer]
            events.append({"type": "draft_round", "round": 2, "wonders": names})
        if self.draft_step == len(self.draft_order):
            return events + self._start_age(1, self.first)
        self.actor = self.draft_order[self.draft_step]
        return events

    def _draft(self, wonder: int, auto: bool) -> Event:
        seat = self.draft_order[self.draft_step]
        self.draft_offer.remove(wonder)
        self.players[seat].wonders.append(wonder)
        self.players[seat].unbuilt.append(wonder)
        self.draft_step += 1
        event: Event = {"type": "wonder_drafted", "seat": seat, "wonder": self.data.wonders[wonder].name}
        if auto:
            event["last_of_round"] = True
        return event

    # ----- taking a card: build, discard, Wonder -------------------------------------------------

    def _do_build(self, info: tuple) -> list[Event]:
        card_id, slot, cost, trade, free = info
        seat = self.current
        card = self.data.cards[card_id]
        event: Event = {"type": "built", "seat": seat, "card": card.name, "cost": cost}
        if free:
            event["free"] = free
        events = [event, *self._pay(seat, cost, trade)]
        p = self.players[seat]
        if free == "chain" and p.chain_coins:
            p.coins += p.chain_coins
            events.append({"type": "coins", "seat": seat, "amount": p.chain_coins, "reason": "chain"})
        events += self._take(slot)
        events += self._construct(seat, card)
        return events + self._finish()

    def _do_discard(self, info: tuple) -> list[Event]:
        card_id, slot, gain = info
        seat = self.current
        events: list[Event] = [
            {"type": "discarded", "seat": seat, "card": self.data.cards[card_id].name, "coins": gain}
        ]
        events += self._take(slot)
        self.discard.append(card_id)
        self.players[seat].coins += gain
        return events + self._finish()

    def _do_wonder(self, info: tuple) -> list[Event]:
        card_id, slot, wonder_id, cost, trade = info
        seat = self.current
        p = self.players[seat]
        wonder = self.data.wonders[wonder_id]
        card_name = self.data.cards[card_id].name
        events = [{"type": "wonder_built", "seat": seat, "wonder": wonder.name, "card": card_name, "cost": cost}]
        events += self._pay(seat, cost, trade)
        events += self._take(slot)
        p.built[wonder_id] = card_id
        p.unbuilt.remove(wonder_id)
        self.wonders_total += 1
        p.gain_production(wonder.effects)
        if wonder.effects.economic:
            self._costs[seat] = None
        events += self._wonder_effects(seat, wonder.effects)
        if self.phase != OVER and self.wonders_total >= self.max_wonders:
            events += self._return_last_wonders()
        return events + self._finish()

    def _wonder_effects(self, seat: int, effects: Effects) -> list[Event]:
        p, opponent = self.players[seat], self.players[1 - seat]
        events: list[Event] = []
        if effects.coins:
            p.coins += effects.coins
            events.append({"type": "coins", "seat": seat, "amount": effects.coins})
        if effects.opponent_loses:
            lost = min(effects.opponent_loses, opponent.coins)
            opponent.coins -= lost
            events.append({"type": "coins", "seat": 1 - seat, "amount": -lost})
        if effects.shields:
            events += self._push(seat, effects.shields)
            if self.phase == OVER:
                return events
        if effects.destroy:
            if opponent.colors.get(effects.destroy):
                self.destroy_color = effects.destroy
                self.pending.append(DESTROY)
            else:
                events.append({"type": "skipped", "seat": seat, "kind": DESTROY, "reason": "no card of that colour"})
        if "build_from_discard" in effects.abilities:
            if self.discard:
                self.pending.append(DISCARD_BUILD)
            else:
                events.append({"type": "skipped", "seat": seat, "kind": DISCARD_BUILD, "reason": "empty discard pile"})
        if effects.box_draw:
            self.box_offer = self.box_tokens[: effects.box_draw]
            self.pending.append(BOX_TOKEN)
        if "play_again" in effects.abilities or "wonders_play_again" in p.abilities:
            self.play_again = True
        return events

    def _return_last_wonders(self) -> list[Event]:
        """Only 7 Wonders are built: the ones still unbuilt go back to the box."""
        events: list[Event] = []
        for p in self.players:
            for w in p.unbuilt:
                p.wonders.remove(w)
                self.wonder_box.append(w)
                events.append({"type": "wonder_returned", "seat": p.seat, "wonder": self.data.wonders[w].name})
            p.unbuilt = []
        return events

    def _pay(self, seat: int, cost: int, trade: int) -> list[Event]:
        self.players[seat].coins -= cost
        opponent = self.players[1 - seat]
        if trade and "receive_trade_payments" in opponent.abilities:
            opponent.coins += trade
            return [{"type": "coins", "seat": 1 - seat, "amount": trade, "reason": "trade"}]
        return []

    def _take(self, slot: int) -> list[Event]:
        """Take the card of an accessible slot; the cards it uncovers turn face up."""
        structure = self.structure
        assert structure is not None
        cards = self.cards
        return [
            {"type": "card_revealed", "slot": s, "card": cards[structure.cards[s]].name}  # type: ignore[index]
            for s in structure.take(slot)
        ]

    def _construct(self, seat: int, card: CardDef) -> list[Event]:
        """Put a card into seat's city and apply what it does when built."""
        p = self.players[seat]
        p.add_card(card)
        effects = card.effects
        if effects.economic:
            self._costs[seat] = None
            if effects.raises_prices:
                self._costs[1 - seat] = None
        events: list[Event] = []
        gain = effects.coins
        for per in effects.coins_per:
            gain += per.amount * (p.count(per.colors or ()) if per.what == "card" else p.wonders_built)
        if effects.guild and effects.guild.coins_per:
            gain += effects.guild.coins_per * scoring.guild_count(self, effects.guild)
        if gain:
            p.coins += gain
            events.append({"type": "coins", "seat": seat, "amount": gain})
        if effects.shields:
            events += self._push(seat, effects.shields + p.extra_shields.get(card.color, 0))
        if effects.science:
            events += self._science(seat, effects.science)
        return events

    def _economy_changed(self) -> None:
        """Production or prices of both seats may have changed: forget what purchases cost."""
        self._costs = [None, None]

    def _push(self, seat: int, shields: int) -> list[Event]:
        events: list[Event] = []
        for victim, coins in self.military.push(seat, shields):
            lost = min(coins, self.players[victim].coins)
            self.players[victim].coins -= lost
            events.append({"type": "loot", "seat": victim, "token": coins, "lost": lost})
        events.insert(0, {"type": "military", "seat": seat, "shields": shields, "pawn": self.military.pawn})
        winner = self.military.supremacy()
        if winner is not None:
            events += self._win(winner, "military")
        return events

    def _science(self, seat: int, symbol: str) -> list[Event]:
        p = self.players[seat]
        if p.symbols() >= self.data.rules.science_symbols_to_win:
            return self._win(seat, "science")
        if p.science[symbol] == 2 and self.board_tokens:
            self.pending.append(CHOOSE_PROGRESS)
        return []

    def _gain_token(self, seat: int, token_id: int) -> list[Event]:
        p = self.players[seat]
        token = self.data.tokens[token_id]
        p.tokens.append(token_id)
        p.gain(token.effects)
        if token.effects.economic:
            self._costs[seat] = None
        events: list[Event] = [{"type": "progress_token", "seat": seat, "token": token.name}]
        if token.effects.coins:
            p.coins += token.effects.coins
            events.append({"type": "coins", "seat": seat, "amount": token.effects.coins})
        if token.effects.science:
            events += self._science(seat, token.effects.science)
        return events

    def _win(self, seat: int, victory: str) -> list[Event]:
        self.phase = OVER
        self.actor = None
        self.pending.clear()
        self.play_again = False
        self.winners = [seat]
        self.victory = victory
        self._result = None
        return [{"type": "game_over", "victory": victory, "winners": [seat], "result": self.result()}]

    # ----- decisions ----------------------------------------------------------------------------

    def _do_choose_progress(self, info: tuple) -> list[Event]:
        self.pending.pop(0)
        self.board_tokens.remove(info[0])
        return self._gain_token(self.current, info[0]) + self._finish()

    def _do_choose_box_token(self, info: tuple) -> list[Event]:
        self.pending.pop(0)
        self.box_tokens.remove(info[0])
        self.box_offer = []
        return self._gain_token(self.current, info[0]) + self._finish()

    def _do_destroy(self, info: tuple) -> list[Event]:
        self.pending.pop(0)
        seat, card = self.current, self.data.cards[info[0]]
        opponent = self.players[1 - seat]
        effects = [self.data.wonders[w].effects for w in opponent.built]
        effects += [self.data.tokens[t].effects for t in opponent.tokens]
        opponent.remove_card(card, self.data.cards, effects)
        self._economy_changed()
        self.discard.append(card.id)
        self.destroy_color = None
        return [{"type": "destroyed", "seat": seat, "owner": 1 - seat, "card": card.name}, *self._finish()]

    def _do_build_from_discard(self, info: tuple) -> list[Event]:
        self.pending.pop(0)
        card = self.data.cards[info[0]]
        self.discard.remove(card.id)
        events: list[Event] = [{"type": "built_from_discard", "seat": self.current, "card": card.name}]
        return events + self._construct(self.current, card) + self._finish()

    def _do_choose_starter(self, info: tuple) -> list[Event]:
        chooser = self.actor
        events: list[Event] = [{"type": "starter_chosen", "seat": chooser, "starter": info[0]}]
        return events + self._start_age(self.age + 1, info[0])

    # ----- turns and Ages -------------------------------------------------------------------------

    def _finish(self) -> list[Event]:
        """After an action: the next pending decision, the end of the Age, another turn or the other seat."""
        if self.phase == OVER:
            return []
        if self.pending:
            self.phase = self.pending[0]
            self.actor = self.current
            return [{"type": "decision", "kind": self.phase, "seat": self.current}]
        assert self.structure is not None
        if self.structure.empty:
            return self._end_age()
        events: list[Event] = []
        if self.play_again:
            self.play_again = False
            events.append({"type": "play_again", "seat": self.current})
        else:
            self.current = 1 - self.current
        self.phase = PLAY
        self.actor = self.current
        return events

    def _end_age(self) -> list[Event]:
        self.play_again = False  # lost at the end of an Age (see board.json doubts)
        events: list[Event] = [{"type": "age_over", "age": self.age}]
        if self.age == AGES[-1]:
            self.phase = OVER
            self.actor = None
            self.victory = "civilian"
            self._result = None
            result = self.result()
            self.winners = list(result["winners"])
            return events + [{"type": "game_over", "victory": "civilian", "winners": self.winners, "result": result}]
        weaker = self.military.weaker()
        self.actor = self.current if weaker is None else weaker
        self.phase = CHOOSE_STARTER
        return events + [{"type": "decision", "kind": CHOOSE_STARTER, "seat": self.actor}]

    def _start_age(self, age: int, starter: int) -> list[Event]:
        self.age = age
        self.structure = Structure(age, self.data.layouts[age], self.decks.pop(age))
        self.current = starter
        self.actor = starter
        self.phase = PLAY
        return [{"type": "age_started", "age": age, "starter": starter}]


PERFORM = {
    "draft_wonder": DuelGame._do_draft,
    "build": DuelGame._do_build,
    "discard": DuelGame._do_discard,
    "wonder": DuelGame._do_wonder,
    "choose_progress": DuelGame._do_choose_progress,
    "choose_box_token": DuelGame._do_choose_box_token,
    "destroy": DuelGame._do_destroy,
    "build_from_discard": DuelGame._do_build_from_discard,
    "choose_starter": DuelGame._do_choose_starter,
}
