"""The Armada expansion as a part of the classic game: shipyards, naval construction, ship
moves and their spaces, islands, taxes and piracy, landings, naval conflicts.

ArmadaRules is mixed into ClassicGame; every method here runs only when the game was set
up with `expansions=["armada"]`, so a game without Armada never reaches this code. The
numbers come from ArmadaData (app/engine/data/armada/armada.json), never from here.
"""

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from app.engine.classic.armada_data import (
    TRACKS,
    ArmadaData,
    CoinsPerShipMove,
    CommercialLevel,
    Explore,
    FarTrade,
    Flag,
    Landing,
    NavalStrength,
    Piracy,
    ShipMove,
    StepCost,
    TakeIsland,
    Tax,
)
from app.engine.classic.data import CardDef, Effects, StageDef
from app.engine.classic.move import ARMADA_CARD_ACTION_FIELDS, Move
from app.engine.classic.player import copy_slots
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, check_keys
from app.engine.common.payment import Seller
from app.engine.common.resources import N_RESOURCES, cost_items, to_dict

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame
    from app.engine.classic.player import Player

TOP = 6  # spaces above the start on each track
FAR_SIDES = {"left": "far_left", "right": "far_right"}
EXPLORE = "explore"
NO_MOVES: list[tuple[str, ...]] = [()]


class Fleet:
    """One player's shipyard: ship positions and what the fleets and islands give."""

    __slots__ = ("board", "ships", "naval", "commerce", "islands", "naval_tokens", "far", "flags", "coins_per_move")

    def __init__(self, board: int) -> None:
        self.board = board  # index into ArmadaData.shipyards
        self.ships = dict.fromkeys(TRACKS, 0)
        self.naval = 0  # naval strength
        self.commerce = 0  # commercial level
        self.islands: list[int] = []  # island ids, in the order kept
        self.naval_tokens: list[int] = []
        self.far: list[FarTrade] = []  # Emporiums owned
        self.flags: set[str] = set()
        self.coins_per_move = 0

    def copy(self) -> "Fleet":
        return copy_slots(self)


_COMBINED: dict[tuple[int, int], tuple[Any, StepCost, StepCost]] = {}  # by identity, the objects kept alive


def combined(card_cost: tuple, step: StepCost) -> StepCost:
    """A card's (or stage's) cost plus a naval step, paid with one payment plan."""
    cost, coins = card_cost
    total = tuple(a + b for a, b in zip(cost, step.cost, strict=True))
    return StepCost(total, coins + step.coin_cost, cost_items(total))


@cache
def discounted(step: StepCost) -> StepCost:
    """A naval step with one unit less of its most needed resource (or one coin less)."""
    cost = list(step.cost)
    if any(cost):
        cost[max(range(N_RESOURCES), key=lambda r: (cost[r], -r))] -= 1
        return StepCost(tuple(cost), step.coin_cost, cost_items(tuple(cost)))
    return StepCost(step.cost, max(0, step.coin_cost - 1), step.cost_items)


def _stamp(action: Action, way: tuple, sides: tuple[str, ...]) -> Action:
    """Complete an action with one payment variant (see ArmadaRules._payment_variants)."""
    bank, coins, named, naval, moves = way
    if coins is None:
        action["trade"] = {side: {} for side in sides}
        action["cost"] = {"bank": bank, **dict.fromkeys(sides, 0)}
    elif len(sides) == 2:  # the common case, written out for speed
        action["trade"] = {"left": dict(named[0]), "right": dict(named[1])}
        action["cost"] = {"bank": bank, "left": coins[0], "right": coins[1]}
    else:
        action["trade"] = {side: dict(bought) for side, bought in zip(sides, named, strict=True)}
        action["cost"] = {"bank": bank, **dict(zip(sides, coins, strict=True))}
    if naval:
        action["naval"] = True
    if moves:
        action["moves"] = list(moves)
    return action


_TRAITS: dict[int, tuple[CardDef, str | None, ShipMove | None]] = {}  # by identity, the card kept alive


def _naval_traits(card: CardDef) -> tuple[str | None, ShipMove | None]:
    """The track a card's naval step advances (its colour's, if it has one) and its free ship move."""
    found = _TRAITS.get(id(card))
    if found is None or found[0] is not card:
        track = card.color if card.color in TRACKS else None
        found = _TRAITS[id(card)] = (card, track, ship_move_of(card.effects))
    return found[1], found[2]


def ship_move_of(effects: Effects) -> ShipMove | None:
    for e in effects.extra:
        if isinstance(e, ShipMove):
            return e
    return None


class ArmadaRules:
    """Armada's part of ClassicGame (see the module docstring)."""

    armada: ArmadaData | None
    fleets: list[Fleet]
    island_decks: dict[int, list[int]]
    offers: dict[int, list[int]]
    explorations: list[tuple[int, int, int]]  # (seat, level, islands to draw)
    coin_losses: list[tuple[str, int, int]]  # ("tax", seat, amount) or ("piracy", seat, 0)
    landings: list[tuple[int, int]]  # (owner, target) in this Age
    rng: random.Random
    _returned: list[tuple[int, int]]

    # ----- setup ----------------------------------------------------------------------------

    def _setup_armada(self: "ClassicGame", rng: random.Random) -> None:
        assert self.armada is not None
        boards = rng.sample(range(len(self.armada.shipyards)), self.n)
        self.fleets = [Fleet(b) for b in boards]
        self.island_decks = {}
        for level in (1, 2, 3):
            ids = [i for i, island in enumerate(self.armada.islands) if island.level == level]
            rng.shuffle(ids)
            self.island_decks[level] = ids
        self.offers = {}
        self.explorations = []
        self.coin_losses = []
        self.landings = []
        self._returned: list[tuple[int, int]] = []  # (level, island) drawn and not kept this round
        self.rng = random.Random(rng.random())

    def armada_cards(self: "ClassicGame", age: int, rng: random.Random) -> list[CardDef]:
        """As many of the Age's Armada cards as players, drawn at random (some never at 3 players)."""
        assert self.armada is not None
        pool = [
            c for c in self.armada.cards if c.age == age and not (self.n == 3 and c.name in self.armada.not_at_three)
        ]
        return rng.sample(pool, min(self.n, len(pool)))

    # ----- trading with the player two seats away ----------------------------------------------

    def seat_at(self: "ClassicGame", seat: int, side: str) -> int:
        if side == "left":
            return self.left_of(seat)
        if side == "right":
            return self.right_of(seat)
        step = 2 if side == "far_left" else -2
        return (seat + step) % self.n

    def _far_sellers(self: "ClassicGame", p: "Player") -> tuple[Seller, ...]:
        out = []
        for far in self.fleets[p.seat].far:
            o = self.players[self.seat_at(p.seat, FAR_SIDES[far.side])]
            price = (far.price,) * N_RESOURCES
            out.append(Seller(o.trade_fixed, o.trade_choices, price, far.limit, o.trade_supply, o.trade_masks))
        return tuple(out)

    def _far_sides(self: "ClassicGame", p: "Player") -> tuple[str, ...]:
        return tuple(FAR_SIDES[far.side] for far in self.fleets[p.seat].far)

    # ----- naval construction ------------------------------------------------------------------

    def naval_track(self: "ClassicGame", p: "Player", kind: str, color: str | None) -> str | None:
        """The track a build of this kind may advance: the card's colour, or the wonder symbol's."""
        assert self.armada is not None
        if kind == "wonder":
            return self.armada.shipyards[self.fleets[p.seat].board].wonder_track
        return color if color in TRACKS else None

    def next_step(self: "ClassicGame", seat: int, track: str) -> StepCost | None:
        """The price of moving this ship one space up now (None at the top)."""
        assert self.armada is not None
        fleet = self.fleets[seat]
        position = fleet.ships[track]
        if position >= TOP:
            return None
        step = self.armada.shipyards[fleet.board].costs[track][position]
        return discounted(step) if "naval_discount" in fleet.flags else step

    def with_step(self, price: CardDef | StageDef | None, step: StepCost) -> StepCost:
        if price is None:
            return step
        key = (id(price), id(step))
        found = _COMBINED.get(key)
        if found is None or found[0] is not price or found[1] is not step:
            found = _COMBINED[key] = (price, step, combined((price.cost, price.coin_cost), step))
        return found[2]

    def move_choices(self: "ClassicGame", seat: int, spec: ShipMove | None, after: str | None) -> list[tuple[str, ...]]:
        """Every choice of ships for a free ship move, after a naval step on `after`."""
        if spec is None:
            return [()]
        ships = dict(self.fleets[seat].ships)
        if after is not None:
            ships[after] += 1
        open_tracks = [t for t in (spec.tracks or TRACKS) if ships[t] < TOP]
        return list(combinations(open_tracks, min(spec.count, len(open_tracks))))

    def check_moves(
        self: "ClassicGame", seat: int, spec: ShipMove | None, after: str | None, given: Any
    ) -> tuple[str, ...]:
        choices = self.move_choices(seat, spec, after)
        if spec is None:
            if given not in (None, []):
                raise IllegalAction("this card or stage moves no ship: leave out 'moves'")
            return ()
        if given is None and choices == [()]:
            return ()
        if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
            raise IllegalAction(f"'moves' must list the ships to move, one of {[list(c) for c in choices]}")
        wanted = tuple(sorted(given, key=lambda t: TRACKS.index(t) if t in TRACKS else 9))
        if wanted not in choices:
            raise IllegalAction(f"cannot move the ships {given}; choose one of {[list(c) for c in choices]}")
        return wanted

    # ----- legal actions -------------------------------------------------------------------------

    def _armada_card_actions(self: "ClassicGame", p: "Player", hand: list[int]) -> list[Action]:
        """As the classic card actions, each build and stage also with its naval step and ship moves."""
        assert self.armada is not None
        sides = self.trade_sides(p)
        wonder_track = self.armada.shipyards[self.fleets[p.seat].board].wonder_track
        stage_ways = [
            (stage + 1, self._payment_variants(p, p.stages[stage], wonder_track, ship_move_of(p.stages[stage].effects)))
            for stage in self.open_stages(p)
        ]
        builds: list[Action] = []
        wonders: list[Action] = []
        discards: list[Action] = []
        seen: set[str] = set()
        yellow_open = self.fleets[p.seat].ships["yellow"] < TOP
        for card_id in hand:
            card = self.cards[card_id]
            name = card.name
            if name in seen:
                continue
            seen.add(name)
            if name not in p.names:
                free = self._free_reason(p, card)
                track, spec = _naval_traits(card)
                ways = self._payment_variants(p, None if free else card, track, spec)
                for way in ways:
                    action = _stamp({"type": "build", "card": name}, way, sides)
                    if free:
                        action["free"] = free
                    builds.append(action)
            for stage, ways in stage_ways:
                for way in ways:
                    wonders.append(_stamp({"type": "wonder", "card": name, "stage": stage}, way, sides))
            discards.append({"type": "discard", "card": name})
            if yellow_open:
                discards.append({"type": "discard", "card": name, "reward": "yellow"})
        return builds + wonders + discards

    def _payment_variants(
        self: "ClassicGame", p: "Player", price: CardDef | StageDef | None, track: str | None, spec: ShipMove | None
    ) -> list[tuple]:
        """(bank, coins per seller, bought per seller, naval, moves) for every way to build it."""
        step = None if track is None else self.next_step(p.seat, track)
        if step is None and spec is None:  # no variant: the classic ways to pay
            if price is None:
                return [(0, None, None, False, ())]
            bank = price.coin_cost
            return [(bank, way.coins, way.named, False, ()) for way in self._ways_to_pay(p, price)]
        out: list[tuple] = []
        cheapest = 0  # the least the build costs without its naval step
        for naval in (False, True) if step is not None else (False,):
            paid = self.with_step(price, step) if naval and step is not None else price
            if paid is None:
                ways: Sequence[Any] = (None,)
                bank = 0
            elif naval and cheapest + paid.coin_cost > p.coins:
                break  # the naval step on top cannot be cheaper than the build alone
            else:
                ways = self._ways_to_pay(p, paid)
                bank = paid.coin_cost
                if not ways:
                    break
                cheapest = ways[0].total
            moves = NO_MOVES if spec is None else self.move_choices(p.seat, spec, track if naval else None)
            for way in ways:
                coins, named = (None, None) if way is None else (way.coins, way.named)
                for choice in moves:
                    out.append((bank, coins, named, naval, choice))
        return out

    def open_stages(self: "ClassicGame", p: "Player") -> list[int]:
        """The stages that may be built next: the next one, or any unbuilt one (Siracusa)."""
        if p.wonder.any_order:
            return [i for i in range(len(p.stages)) if i not in p.built_stages]
        stage = p.next_stage()
        return [] if stage is None else [stage]

    # ----- validating a card action -------------------------------------------------------------

    def _parse_armada_card_action(self: "ClassicGame", p: "Player", hand: list[int], action: dict[str, Any]) -> Move:
        kind, card_id = self._card_action_of(hand, action, ARMADA_CARD_ACTION_FIELDS)
        card = self.cards[card_id]
        if kind == "discard":
            check_keys(action, {"card", "reward"})
            reward = action.get("reward", "coins")
            if reward not in ("coins", "yellow"):
                raise IllegalAction(f"a discard gives 'coins' (3) or moves the 'yellow' ship, not {reward!r}")
            if reward == "yellow" and self.fleets[p.seat].ships["yellow"] >= TOP:
                raise IllegalAction("your yellow ship is at the top of its track: discard for coins")
            return Move("discard", card_id, reward="yellow" if reward == "yellow" else None)
        if "reward" in action:
            raise IllegalAction("'reward' belongs to a discard (coins or the yellow ship), not to a build or stage")
        naval = action.get("naval", False)
        if not isinstance(naval, bool):
            raise IllegalAction(f"'naval' must be true or false, not {naval!r}")
        sides = self.trade_sides(p)
        if kind == "build":
            self._check_buildable(p, action, card)
            free = self._free_reason(p, card)
            if "free" in action and action["free"] != free:
                raise IllegalAction(
                    f"{card.name} is not free for you" if not free else f"{card.name} is free ('{free}')"
                )
            price: CardDef | StageDef | None = None if free else card
            what, stage, spec = card.name, None, ship_move_of(card.effects)
        else:
            if "free" in action:
                raise IllegalAction("wonder stages are never free")
            stage = self._chosen_stage(p, action.get("stage"))
            price, free = p.stages[stage], None
            what, spec = f"stage {stage + 1} of {p.wonder.name}", ship_move_of(p.stages[stage].effects)
        track = self.naval_track(p, kind, card.color)
        if naval:
            step = None if track is None else self.next_step(p.seat, track)
            if step is None:
                where = "no ship track" if track is None else f"your {track} ship is at the top"
                raise IllegalAction(f"no naval construction with this {kind}: {where}")
            price = self.with_step(price, step)
            what += f" with the {track} naval step"
        moves = self.check_moves(p.seat, spec, track if naval else None, action.get("moves"))
        if price is None:
            self._check_free(action, free or "", card.name, sides)
            bank, coins, trade = 0, (0,) * len(sides), None
        else:
            bank, coins, trade = self._check_payment(p, action, price, what)
        return Move(
            kind,
            card_id,
            stage=stage,
            bank=bank,
            coins=coins,
            free=free,
            trade=trade,
            sides=sides,
            naval=naval,
            moves=moves,
        )

    def _chosen_stage(self: "ClassicGame", p: "Player", given: Any) -> int:
        stages = self.open_stages(p)
        if not stages:
            raise IllegalAction("your wonder is complete: every stage is built")
        if given is None:
            return stages[0]
        if isinstance(given, bool) or not isinstance(given, int) or given - 1 not in stages:
            raise IllegalAction(f"you may build stage {' or '.join(str(s + 1) for s in stages)} now, not {given!r}")
        return given - 1

    # ----- resolving a move ------------------------------------------------------------------------

    def _armada_after_placing(self: "ClassicGame", seat: int, move: Move) -> None:
        """Step 2 and 3 of the turn: ships move, then every effect except coin losses."""
        p = self.players[seat]
        if move.kind == "discard":
            if move.reward == "yellow":
                self._advance(seat, "yellow")
            return
        if move.naval:
            color = self.cards[move.card].color if move.kind == "build" else None
            track = self.naval_track(p, move.kind, color)
            assert track is not None
            self._advance(seat, track)
        effects = self.cards[move.card].effects if move.kind == "build" else p.stages[move.stage].effects  # type: ignore[index]
        self._armada_effects(seat, effects, move.moves)

    def _armada_effects(self: "ClassicGame", seat: int, effects: Effects, moves: tuple[str, ...]) -> None:
        fleet = self.fleets[seat]
        for e in effects.extra:
            match e:
                case NavalStrength():
                    fleet.naval += e.amount
                case CommercialLevel():
                    fleet.commerce += e.amount
                case ShipMove():
                    for track in moves:
                        self._advance(seat, track)
                case Piracy():
                    self.coin_losses.append(("piracy", seat, 0))
                case Tax():
                    self.coin_losses.append(("tax", seat, e.amount))
                case Landing():
                    assert self.armada is not None
                    side = self.armada.landing_targets[self.age]
                    self.landings.append((seat, self.seat_at(seat, FAR_SIDES[side])))
                case TakeIsland():
                    self.explorations.append((seat, e.level, 1))
                case Explore():
                    assert self.armada is not None
                    self.explorations.append((seat, e.level, self.armada.explore_draw))
                case FarTrade():
                    fleet.far.append(e)
                    self._markets.pop(seat, None)
                case CoinsPerShipMove():
                    fleet.coins_per_move += e.amount
                case Flag():
                    fleet.flags.add(e.type)

    def _advance(self: "ClassicGame", seat: int, track: str) -> None:
        """Move a ship one space up and take what the space gives."""
        assert self.armada is not None
        fleet = self.fleets[seat]
        fleet.ships[track] += 1
        space = self.armada.spaces[track][fleet.ships[track] - 1]
        self.players[seat].coins += space.coins + fleet.coins_per_move
        self._armada_effects(seat, space, ())

    # ----- exploration ------------------------------------------------------------------------------

    def _step_explore(self: "ClassicGame") -> list[Event]:
        """Step 4: deal the islands of this round's explorations; each explorer keeps one."""
        if not self.explorations:
            return []
        this_round: dict[int, tuple[int, int]] = {}
        later = []
        for seat, level, draw in self.explorations:
            if seat in this_round:
                later.append((seat, level, draw))
            else:
                this_round[seat] = (level, draw)
        self.explorations = later
        events: list[Event] = []
        for level in (1, 2, 3):
            seats = sorted(s for s, (lv, _) in this_round.items() if lv == level)
            if not seats:
                continue
            deck = self.island_decks[level]
            share = len(deck) // len(seats)
            for seat in seats:
                draw = this_round[seat][1]
                count = min(draw, share) if share else (1 if deck else 0)
                self.offers[seat] = [deck.pop() for _ in range(count)]
                events.append({"type": "exploration", "seat": seat, "level": level, "drawn": count})
        for seat in sorted(self.offers):
            if not self.offers[seat]:
                del self.offers[seat]
            elif len(self._keep_island_actions(seat)) == 1:
                events += self._keep_island(
                    seat, self.offers[seat][0], tuple(self._keep_island_actions(seat)[0].get("moves", ()))
                )
        if self.offers:
            self.pending = set(self.offers)
            self.phase = EXPLORE
            events.append({"type": "decision", "kind": "keep_island", "seats": sorted(self.offers)})
        else:
            events += self._end_exploration()
        return events

    def _keep_island_actions(self: "ClassicGame", seat: int) -> list[Action]:
        assert self.armada is not None
        out: list[Action] = []
        for island_id in self.offers.get(seat, ()):
            island = self.armada.islands[island_id]
            for choice in self.move_choices(seat, ship_move_of(island.effects), None):
                action: Action = {"type": "keep_island", "island": island.name}
                if choice:
                    action["moves"] = list(choice)
                out.append(action)
        return out

    def _apply_keep_island(self: "ClassicGame", seat: int, action: dict[str, Any]) -> list[Event]:
        assert self.armada is not None
        if action["type"] != "keep_island":
            raise IllegalAction("now keep one of the islands you drew: {'type': 'keep_island', 'island': name}")
        check_keys(action, {"island", "moves"})
        name = action.get("island")
        offered = self.offers[seat]
        island_id = next((i for i in offered if self.armada.islands[i].name == name), None)
        if island_id is None:
            names = [self.armada.islands[i].name for i in offered]
            raise IllegalAction(f"'{name}' is not among the islands you drew: {names}")
        moves = self.check_moves(seat, ship_move_of(self.armada.islands[island_id].effects), None, action.get("moves"))
        canonical: dict[str, Any] = {"type": "keep_island", "island": name}
        if moves:
            canonical["moves"] = list(moves)
        self.log.append({"seat": seat, "action": canonical})
        events = self._keep_island(seat, island_id, moves)
        self.pending.discard(seat)
        if not self.pending:
            events += self._end_exploration()
        return events + self._run_queue()

    def _keep_island(self: "ClassicGame", seat: int, island_id: int, moves: tuple[str, ...]) -> list[Event]:
        assert self.armada is not None
        island = self.armada.islands[island_id]
        self.offers[seat].remove(island_id)
        self._returned.extend((island.level, i) for i in self.offers.pop(seat))
        self.fleets[seat].islands.append(island_id)
        p = self.players[seat]
        p.gain(island.effects)
        p.coins += island.effects.coins
        self._production_changed(seat, island.effects)
        self._armada_effects(seat, island.effects, moves)
        event: Event = {"type": "island_kept", "seat": seat, "island": island.name}
        if moves:
            event["moves"] = list(moves)
        return [event]

    def _end_exploration(self: "ClassicGame") -> list[Event]:
        """The islands not kept go back and their decks are shuffled; explore again if a move asks."""
        for level in sorted({level for level, _ in self._returned}):
            deck = self.island_decks[level]
            deck.extend(i for lv, i in self._returned if lv == level)
            self.rng.shuffle(deck)
        self._returned = []
        self.pending = set()
        if self.explorations:
            self.queue.insert(0, "explore")
        return []

    # ----- coin losses, conflicts ---------------------------------------------------------------------

    def _step_coin_losses(self: "ClassicGame") -> list[Event]:
        """Step 6: taxes and piracy, after every income of the turn."""
        if not self.coin_losses:
            return []
        owed = [0] * self.n
        for kind, seat, amount in self.coin_losses:
            level = self.fleets[seat].commerce
            for other in range(self.n):
                if other == seat:
                    continue
                if kind == "piracy":
                    owed[other] += self.fleets[other].commerce
                elif self.fleets[other].commerce < level:
                    owed[other] += amount
        self.coin_losses = []
        lost = []
        for seat, amount in enumerate(owed):
            p = self.players[seat]
            taken = 0 if "coin_loss_immunity" in self.fleets[seat].flags else min(amount, p.coins)
            p.coins -= taken
            lost.append(taken)
        return [{"type": "coin_losses", "lost": lost}] if any(lost) else []

    def _naval_conflict(self: "ClassicGame") -> Event:
        """Everyone against everyone by naval strength; ties as ArmadaData's naval_conflicts.ties says."""
        assert self.armada is not None
        strengths = [f.naval for f in self.fleets]
        tokens: list[int | None] = [None] * self.n
        if len(set(strengths)) > 1:
            weakest = min(strengths)
            ranks = self.armada.ranks[self.age]
            for seat, mine in enumerate(strengths):
                if mine == weakest:
                    if "naval_defeat_immunity" not in self.fleets[seat].flags:
                        tokens[seat] = self.armada.weakest[self.age]
                    continue
                position = 1 + sum(1 for s in strengths if s > mine)
                rank = position + (1 if strengths.count(mine) > 1 else 0)
                if rank <= len(ranks):
                    tokens[seat] = ranks[rank - 1]
        for seat, token in enumerate(tokens):
            if token is not None:
                self.fleets[seat].naval_tokens.append(token)
        return {"type": "naval_conflict", "age": self.age, "strengths": strengths, "tokens": tokens}

    # ----- views ------------------------------------------------------------------------------------

    def _shipyard_view(self: "ClassicGame", seat: int) -> dict[str, Any]:
        assert self.armada is not None
        fleet = self.fleets[seat]
        board = self.armada.shipyards[fleet.board]
        next_costs = {}
        for track in TRACKS:
            step = self.next_step(seat, track)
            next_costs[track] = (
                None
                if step is None
                else {**to_dict(step.cost), **({"coins": step.coin_cost} if step.coin_cost else {})}
            )
        return {
            "board": board.name,
            "wonder_track": board.wonder_track,
            "ships": dict(fleet.ships),
            "naval_strength": fleet.naval,
            "commercial_level": fleet.commerce,
            "islands": [self.armada.islands[i].name for i in fleet.islands],
            "naval_tokens": list(fleet.naval_tokens),
            "next_costs": next_costs,
        }

    def _armada_view(self: "ClassicGame") -> dict[str, Any]:
        assert self.armada is not None
        return {
            "provisional_notice": self.armada.notice,
            "island_decks": {str(level): len(deck) for level, deck in self.island_decks.items()},
            "landings": [{"owner": o, "target": t} for o, t in self.landings],
        }

    def _armada_snapshot(self: "ClassicGame") -> dict[str, Any]:
        return {
            "fleets": [self._shipyard_view(s) for s in range(self.n)],
            "island_decks": {str(k): list(v) for k, v in self.island_decks.items()},
            "offers": {str(k): list(v) for k, v in sorted(self.offers.items())},
            "returned": [list(r) for r in self._returned],
            "fleet_state": [
                {"flags": sorted(f.flags), "far": [e.side for e in f.far], "coins_per_move": f.coins_per_move}
                for f in self.fleets
            ],
            "explorations": [list(e) for e in self.explorations],
            "coin_losses": [list(c) for c in self.coin_losses],
            "landings": [list(x) for x in self.landings],
        }

    def _clone_armada(self: "ClassicGame", other: "ClassicGame") -> None:
        other.fleets = [f.copy() for f in self.fleets]
        other.island_decks = {k: list(v) for k, v in self.island_decks.items()}
        other.offers = {k: list(v) for k, v in self.offers.items()}
        other.explorations = list(self.explorations)
        other.coin_losses = list(self.coin_losses)
        other.landings = list(self.landings)
        other._returned = list(self._returned)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
