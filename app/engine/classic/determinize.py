"""What one seat knows of a classic game (and Armada's, see armada/determinize.py), and games
drawn from it (see app.engine.common.information).

A seat knows the public table (cities, wonder stages, coins, tokens, hand sizes, the discard
pile's size), its own hand and pick, the cards it tucked or discarded (from its own answers),
the hands it held this Age (a hand it passed is known to its next holders minus what each of
them built from it, seen in their cities, and minus one unknown card for each tuck or discard),
and the names a Halikarnassos decision showed of the discard. Everything else is drawn again:
the other hands (from a passed hand's candidates when it was seen), other seats' pending picks
(a random legal action of the drawn hand), the discard pile's unknown part, other seats'
tucked cards, the later Ages' decks, and which guilds (and Armada cards) are in the game.
"""

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from app.engine.classic.actions import card_actions
from app.engine.classic.card_pool import AGES, CardPool, claimed
from app.engine.classic.checks import parse_card_action
from app.engine.classic.data import CardDef
from app.engine.classic.phases import DISCARD_BUILD, LAST_CARD, OVER, PICK
from app.engine.classic.player import Player
from app.engine.common.information import UNKNOWN_STEP, InformationSet, View
from app.engine.common.kinds import new_game
from app.engine.common.payment import masks_of, supply_of
from app.engine.common.resources import INDEX, N_RESOURCES
from app.engine.config import GameConfig

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame


class ClassicInformation(InformationSet):
    """One seat's knowledge of a classic (or Armada) game."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.age = 0
        self.hands: dict[int, list[str]] = {}  # this Age: own hand at the start of each turn
        self.cities: dict[int, list[list[str]]] = {}  # this Age: every city at the start of each turn
        self.stages: dict[int, list[int]] = {}
        self.picks: dict[tuple[int, int], dict[str, Any]] = {}  # (age, turn): own last pick
        self.last_cards: dict[int, dict[str, Any]] = {}  # age: own last card (Babylon)
        self.last_hands: dict[int, tuple[list[str], int]] = {}  # age: own hand at its last pick turn
        self.discarded: Counter[str] = Counter()  # names known to be in the discard pile
        self.built_age: dict[tuple[int, str], int] = {}  # (seat, card): the Age it was built in

    # ----- taking views in ----------------------------------------------------------------------

    def learn(self, view: View) -> None:
        prev = self.last
        age, turn, phase = view["age"], view["turn"], view["phase"]
        if prev is not None:
            self._settle(prev, view)
            hint = self._age_of_new_cards(prev, view)
            for seat, (before, after) in enumerate(zip(prev["players"], view["players"], strict=True)):
                for name in Counter(after["city"]) - Counter(before["city"]):
                    if hint is not None:
                        self.built_age.setdefault((seat, name), hint)
                    if self.discarded[name]:  # perhaps built from the discard: no longer sure it is there
                        self.discarded[name] -= 1
        if age != self.age:
            self.age = age
            self.hands, self.cities, self.stages = {}, {}, {}
        if phase == PICK and turn not in self.hands:
            self.hands[turn] = list(view["hand"])
            self.cities[turn] = [list(p["city"]) for p in view["players"]]
            self.stages[turn] = [p["stages_built"] for p in view["players"]]
            if turn == view["turns_per_age"]:
                self.last_hands[age] = (list(view["hand"]), turn)
        decision = view.get("decision") or {}
        if decision.get("kind") == "build_from_discard":
            for name in decision.get("options", ()):
                self.discarded[name] = max(self.discarded[name], 1)

    def _settle(self, prev: View, view: View) -> None:
        """What this seat put in the discard since the last view: its pick once revealed, and the
        last card of its hand at the end of an Age."""
        if prev["phase"] == PICK and (view["age"], view["turn"], view["phase"]) != (prev["age"], prev["turn"], PICK):
            pick = self.picks.get((prev["age"], prev["turn"]))
            if pick is not None and pick.get("type") == "discard":
                self.discarded[pick["card"]] += 1
        if prev["phase"] == LAST_CARD and view["phase"] != LAST_CARD:
            last = self.last_cards.get(prev["age"])
            if last is not None and last.get("type") == "discard":
                self.discarded[last["card"]] += 1
        if view["age"] > prev["age"] or (view["phase"] == OVER and prev["phase"] != OVER):
            hand, turn = self.last_hands.get(prev["age"], ([], 0))
            pick = self.picks.get((prev["age"], turn))
            if hand and pick is not None:
                left = Counter(hand) - Counter([pick["card"]])
                last = self.last_cards.get(prev["age"])
                if last is not None and "card" in last:
                    left -= Counter([last["card"]])
                self.discarded += left  # the hand's last card goes to the discard at the end of the Age

    @staticmethod
    def _age_of_new_cards(prev: View, view: View) -> int | None:
        """The Age in which the cards that appeared since the last view were built, when sure."""
        if prev["age"] == view["age"]:
            return view["age"]
        if (view["age"] == prev["age"] + 1 and view["turn"] == 1) or view["phase"] == OVER:
            return prev["age"]
        return None

    def record(self, action: dict[str, Any]) -> None:
        view = self.last
        if view is None or not isinstance(action, dict):
            return
        if view["phase"] == PICK and action.get("type") in ("build", "wonder", "discard"):
            self.picks[(view["age"], view["turn"])] = action
        elif view["phase"] == LAST_CARD:
            self.last_cards[view["age"]] = action

    # ----- what is known where --------------------------------------------------------------------

    def _resolved_picks(self) -> list[tuple[int, dict[str, Any]]]:
        """Own picks that were revealed (the present turn's is not yet), with their Age."""
        view = self.last
        assert view is not None
        out = []
        for (age, turn), action in sorted(self.picks.items()):
            if (age, turn) == (view["age"], view["turn"]) and view["phase"] == PICK:
                continue
            out.append((age, action))
        out += [(age, a) for age, a in sorted(self.last_cards.items()) if a.get("type") in ("wonder", "discard")]
        return out

    def known_discard(self) -> Counter[str]:
        """Names the seat knows are in the discard pile (one fewer each time a card of that name
        may have been built from it)."""
        return +self.discarded

    def own_tucked(self) -> list[str]:
        return [a["card"] for _, a in self._resolved_picks() if a.get("type") == "wonder"]

    def packets(self, view: View) -> dict[int, tuple[Counter[str], int]]:
        """For each other seat holding a hand this seat held earlier this Age: the names that
        hand may still hold and how many of them (unknown) are gone."""
        seat, n = self.seat, len(view["players"])
        now = view["turn"]
        direction = -1 if view["age"] == 2 else 1
        resolved = view["phase"] != PICK  # this turn's picks are already made
        cities = dict(self.cities)
        stages = dict(self.stages)
        out: dict[int, tuple[Counter[str], int]] = {}
        for t in range(now - 1, max(0, now - n), -1):
            if t not in self.hands:
                continue
            holder = (seat + direction * (now - t)) % n
            if holder == seat or holder in out:
                continue
            candidates = Counter(self.hands[t])
            gone = 0
            pick = self.picks.get((view["age"], t))
            if pick is not None and candidates[pick["card"]]:
                candidates[pick["card"]] -= 1
            else:
                gone += 1
            last = now if resolved else now - 1
            for u in range(t + 1, last + 1):
                holder_u = (seat + direction * (u - t)) % n
                before_city, after_city = cities.get(u), cities.get(u + 1)
                before_stages, after_stages = stages.get(u), stages.get(u + 1)
                if u == now:
                    after_city = [p["city"] for p in view["players"]]
                    after_stages = [p["stages_built"] for p in view["players"]]
                built = None
                if before_city is not None and after_city is not None and before_stages and after_stages:
                    new = list((Counter(after_city[holder_u]) - Counter(before_city[holder_u])).elements())
                    if len(new) == 1 and before_stages[holder_u] == after_stages[holder_u]:
                        built = new[0]
                if built is not None and candidates[built]:
                    candidates[built] -= 1
                else:
                    gone += 1
            out[holder] = (+candidates, gone)
        return out

    # ----- rebuilding the public state from a view ----------------------------------------------------

    def rebuild(self, view: View, rng: random.Random) -> "ClassicGame":
        players = view["players"]
        config = GameConfig(
            game="classic",
            players=len(players),
            seed=rng.randrange(2**32),
            wonder_side=[p["side"] for p in players],
            wonders=[p["wonder"] for p in players],
            expansions=list(view["expansions"]),
        )
        game: ClassicGame = new_game(config)  # type: ignore[assignment]
        pool = CardPool(game, self.optional_groups(game))
        game.age, game.turn, game.phase = view["age"], view["turn"], view["phase"]
        game.players = []
        for seat, pv in enumerate(players):
            p = Player(seat, _wonder(game, pv["wonder"]), pv["side"], 0)
            for name in pv["city"]:
                card_id = pool.claim(name, self.built_age.get((seat, name)))
                assert card_id is not None, f"no card named {name} is left for seat {seat}'s city"
                p.add_card(card_id, game.cards[card_id])
            for stage in pv["built_stages"]:
                p.add_stage(stage - 1, -1)
            p.coins = pv["coins"]
            p.tokens = list(pv["military_tokens"])
            game.players.append(p)
        self.rebuild_variant(game, view)
        for seat, pv in enumerate(players):
            set_choices(game.players[seat], pv)
        game.hands = [[] for _ in players]
        game.hands[self.seat] = [claimed(pool, name, view["age"]) for name in view["hand"]]
        game.discard = []
        game.picks = {}
        game.pending = set(view["to_act"]) if view["phase"] not in (PICK, OVER) else set()
        game.queue = queue_after(game, view["phase"], view["turn"] == view["turns_per_age"])
        game.discard_builders = self.discard_builders(game, view)
        game.log = [UNKNOWN_STEP] * view["version"]
        game.market_cache = {}
        game._result = None
        if view.get("pick"):
            game.picks[self.seat] = own_pick(game, self.seat, view["pick"])
        return game

    def discard_builders(self, game: "ClassicGame", view: View) -> list[int]:
        """Mid-turn, before the discard builds: the seats that built a stage this turn that builds
        from the discard (seen against the turn's start)."""
        before = self.stages.get(view["turn"])
        if view["phase"] in (PICK, DISCARD_BUILD, OVER) or before is None or "discard_build" not in game.queue:
            return []
        out = []
        for seat, pv in enumerate(view["players"]):
            new = pv["built_stages"][before[seat] :]
            if any("build_from_discard" in game.players[seat].stages[i - 1].effects.abilities for i in new):
                out.append(seat)
        return out

    def rebuild_variant(self, game: "ClassicGame", view: View) -> None:
        """A variant's public state (Armada: the fleets and islands)."""

    def optional_groups(self, game: "ClassicGame") -> list[tuple[int, tuple[CardDef, ...], int]]:
        """(Age, pool, how many are dealt): the cards of which only some are in a game."""
        return [(3, game.data.guilds, game.n + 2)]

    # ----- drawing the hidden parts -------------------------------------------------------------------

    def resample(self, game: "ClassicGame", rng: random.Random, rebuilt: bool) -> None:  # type: ignore[override]
        view = self.last
        assert view is not None
        seat, age = self.seat, view["age"]
        pool = CardPool(game, self.optional_groups(game))
        me = game.players[seat]
        for p in game.players:
            pool.take_ids(p.city)
        pool.take_ids(game.hands[seat])
        known_tucked = [] if rebuilt else list(me.tucked)
        pool.take_ids(known_tucked)
        if rebuilt:
            for name in self.own_tucked()[: me.stages_built]:
                card_id = pool.claim(name, None)
                if card_id is not None:
                    known_tucked.append(card_id)
        discard_size = view["discard_pile_size"]
        discard: list[int] = []
        for name, count in self.known_discard().items():
            for _ in range(count):
                if len(discard) < discard_size:
                    card_id = pool.claim(name, None)
                    if card_id is not None:
                        discard.append(card_id)
        packets = self.packets(view) if age == self.age and view["phase"] != OVER else {}
        held: dict[int, list[int]] = {}
        for holder, (names, _gone) in packets.items():
            held[holder] = [i for i in (pool.claim(name, age) for name in names.elements()) if i is not None]
        hidden = pool.hidden(rng)  # every unplaced card of the game, by Age
        for later in AGES:
            if later > age:
                game.decks[later] = shuffled_list(hidden.pop(later, []), rng)
            else:
                game.decks[later] = []
        current = hidden.pop(age, [])
        rng.shuffle(current)
        past = [c for a in sorted(hidden) for c in hidden[a]]
        deciding = (view.get("decision") or {}).get("kind") == "build_from_discard"
        # deciding, the seat sees every name of the pile it lacks: the rest repeat them or are cards it has
        shown = me.names | set(view["decision"]["options"]) if deciding else set()
        leftovers: list[int] = []
        for holder, cards in held.items():
            size = view["players"][holder]["hand_size"]
            rng.shuffle(cards)
            cards.sort(key=lambda c: game.cards[c].name in shown)  # what is gone went to the pile
            held[holder], gone = cards[:size], cards[size:]
            leftovers += gone
        if deciding:
            for source in (leftovers, past, current):
                fits = [c for c in source if game.cards[c].name in shown]
                rng.shuffle(fits)
                while len(discard) < discard_size and fits:
                    card_id = fits.pop()
                    discard.append(card_id)
                    source.remove(card_id)
        for holder, pv in enumerate(view["players"]):
            if holder == seat:
                continue
            size = pv["hand_size"]
            keep = held.get(holder, [])
            while len(keep) < size and current:
                keep.append(current.pop())
            while len(keep) < size and past:  # only when what was seen cannot be told apart
                keep.append(past.pop(rng.randrange(len(past))))
            game.hands[holder] = keep
        rest = current + leftovers + past
        rng.shuffle(rest)
        while len(discard) < discard_size and rest:
            discard.append(rest.pop())
        rng.shuffle(discard)
        game.discard = discard
        for p in game.players:
            known = known_tucked if p.seat == seat else []
            p.tucked = known + [rest.pop() if rest else 0 for _ in range(p.stages_built - len(known))]
        self.resample_variant(game, rng)
        self.draw_picks(game, view, rng)

    def resample_variant(self, game: "ClassicGame", rng: random.Random) -> None:
        """A variant's hidden parts (Armada: the island decks, other explorers' draws, the deck shuffles)."""

    def draw_picks(self, game: "ClassicGame", view: View, rng: random.Random) -> None:
        """Another seat that has picked has picked something: a random legal action of its drawn hand."""
        own = game.picks.get(self.seat)
        game.picks = {} if own is None else {self.seat: own}
        if view["phase"] != PICK:
            return
        for holder, pv in enumerate(view["players"]):
            if holder != self.seat and pv["has_chosen"]:
                p, hand = game.players[holder], game.hands[holder]
                action = rng.choice(card_actions(game, p, hand, lazy=True))
                game.picks[holder] = parse_card_action(game, p, hand, action)


def _wonder(game: "ClassicGame", name: str) -> Any:
    return next(w for w in game.wonder_pool if w.name == name)


def set_choices(p: Player, pv: View) -> None:
    """The choice productions in the view's order (the order they were gained), and what the
    payment solver derives from them."""
    p.choices = tuple(tuple(sorted(INDEX[r] for r in c)) for c in pv["production"]["choices"])
    p.trade_choices = tuple(tuple(sorted(INDEX[r] for r in c)) for c in pv["sells"]["choices"])
    p.supply = supply_of((0,) * N_RESOURCES, p.choices)
    p.masks = masks_of(p.choices)
    p.trade_supply = supply_of(p.trade_fixed, p.trade_choices)
    p.trade_masks = masks_of(p.trade_choices)


def queue_after(game: "ClassicGame", phase: str, last: bool) -> list[str]:
    """The steps left after the step that asked the present decision (the earliest such step:
    the steps it repeats do nothing when nothing waits for them)."""
    steps = game.turn_steps(last)
    asked_by = {LAST_CARD: "last_card", DISCARD_BUILD: "discard_build"}.get(phase, phase)
    if phase in (PICK, OVER) or asked_by not in steps:
        return []
    return steps[steps.index(asked_by) + 1 :]


def own_pick(game: "ClassicGame", seat: int, pick: dict[str, Any]) -> Any:
    """The view's own pick as a move: the legal action it shows."""
    p, hand = game.players[seat], game.hands[seat]
    wanted = {k: v for k, v in pick.items() if k != "seat"}
    legal = card_actions(game, p, hand)
    for action in legal:
        shown = {k: v for k, v in action.items() if k != "trade"}
        if shown == wanted:
            return parse_card_action(game, p, hand, action)
    same = [a for a in legal if a["type"] == pick["type"] and a["card"] == pick["card"]]
    return parse_card_action(game, p, hand, (same or legal)[0])


def shuffled_list(items: list[int], rng: random.Random) -> list[int]:
    items = list(items)
    rng.shuffle(items)
    return items
