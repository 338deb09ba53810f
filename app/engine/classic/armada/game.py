"""7 Wonders with the Armada expansion: a variant of the classic game, in the way python-chess's
variants subclass its Board. ArmadaGame overrides ClassicGame's hooks (cards and wonders dealt,
setup, card actions and their checks, after placing, the turn's steps, decisions, end of Age,
views, scoring, clone and snapshot); every number comes from ArmadaData (armada.json).

Where the rules live: fleet.py (shipyards and step prices), naval.py (naval construction and ship
moves), effects.py (what Armada's effects do), islands.py (exploration), conflicts.py (taxes,
piracy, landings, naval conflicts), scoring.py, view.py.
"""

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from app.engine.classic import turn
from app.engine.classic.actions import NO_EXTRA, Extra
from app.engine.classic.armada import conflicts, effects, islands, naval, scoring, view
from app.engine.classic.armada.data import ArmadaData, armada_data
from app.engine.classic.armada.effects import FAR_SIDES
from app.engine.classic.armada.fleet import TOP, Fleet, ship_move_of
from app.engine.classic.armada.pending import CoinLoss, Drawn, Exploration, LandingConflict
from app.engine.classic.data import CardDef, WonderDef
from app.engine.classic.game import ClassicGame, Decision
from app.engine.classic.move import CARD_ACTION_FIELDS, Move
from app.engine.classic.player import SIDE_NAMES, Player
from app.engine.classic.turn import STEPS
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Event, check_keys
from app.engine.common.payment import Seller
from app.engine.common.resources import N_RESOURCES
from app.engine.config import GameConfig

EXPLORE = islands.EXPLORE
YELLOW: tuple[Extra, ...] = ((), (("reward", "yellow"),))


@dataclass(slots=True)
class NavalMove(Move):
    """A move with Armada's fields: the naval step paid with it, the ships a free ship move
    advances, and a discard's reward ("yellow": the yellow ship moves instead of 3 coins)."""

    naval: bool = False
    moves: tuple[str, ...] = ()
    reward: str | None = None

    def action(self, name: str) -> dict[str, Any]:
        return self._naval_fields(Move.action(self, name))

    def public(self, seat: int, name: str) -> dict[str, Any]:
        return self._naval_fields(Move.public(self, seat, name))

    def _naval_fields(self, out: dict[str, Any]) -> dict[str, Any]:
        if self.naval:
            out["naval"] = True
        if self.moves:
            out["moves"] = list(self.moves)
        if self.reward:
            out["reward"] = self.reward
        return out


class ArmadaGame(ClassicGame):
    """7 Wonders with Armada, 3-7 players."""

    CARD_FIELDS: ClassVar[frozenset[str]] = CARD_ACTION_FIELDS | {"naval", "moves", "reward"}
    DISCARD_BUILD_FIELDS: ClassVar[frozenset[str]] = frozenset({"card", "moves"})
    SHARED_DATA: ClassVar[tuple[str, ...]] = (
        *ClassicGame.SHARED_DATA,
        "app.engine.classic.armada.data:armada_data",
    )
    PLAIN_CARD_ACTIONS: ClassVar[bool] = False
    CATEGORIES: ClassVar[tuple[str, ...]] = (*ClassicGame.CATEGORIES, *scoring.CATEGORIES)
    STEPS: ClassVar[dict[str, Any]] = {
        **STEPS,
        "explore": islands.step_explore,
        "coin_losses": conflicts.step_coin_losses,
    }
    DECISIONS: ClassVar[dict[str, Decision]] = {
        **ClassicGame.DECISIONS,
        EXPLORE: Decision(islands.keep_island_actions, islands.apply_keep_island),
    }
    move_type: ClassVar[type[Move]] = NavalMove

    armada: ArmadaData
    fleets: list[Fleet]
    island_decks: dict[int, list[int]]
    offers: dict[int, list[int]]  # islands drawn, by explorer, until one is kept
    explorations: list[Exploration]
    coin_losses: list[CoinLoss]
    landings: list[LandingConflict]  # in this Age
    rng: random.Random
    _returned: list[Drawn]

    def __init__(self, config: GameConfig) -> None:
        if "armada" not in config.expansions:
            raise ValueError("ArmadaGame plays 7 Wonders with the Armada expansion")
        self.armada = armada_data()
        super().__init__(config)

    # ----- setup -------------------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return self.armada.hand_size

    @property
    def wonder_pool(self) -> tuple[WonderDef, ...]:
        return self.data.wonders + self.armada.wonders

    def extra_cards(self, age: int, rng: random.Random) -> list[CardDef]:
        """As many of the Age's Armada cards as players, drawn at random (some never at 3 players)."""
        pool = [
            c for c in self.armada.cards if c.age == age and not (self.n == 3 and c.name in self.armada.not_at_three)
        ]
        return rng.sample(pool, min(self.n, len(pool)))

    def setup_variant(self, rng: random.Random) -> None:
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
        self._returned = []
        self.rng = random.Random(rng.random())

    # ----- trading with the player two seats away (Emporiums) -----------------------------------

    def seat_at(self, seat: int, side: str) -> int:
        if side in SIDE_NAMES:
            return super().seat_at(seat, side)
        return (seat + (2 if side == "far_left" else -2)) % self.n

    def sellers(self, p: Player) -> tuple[Seller, ...]:
        near = super().sellers(p)
        far = []
        for trade in self.fleets[p.seat].far:
            o = self.players[self.seat_at(p.seat, FAR_SIDES[trade.side])]
            price = (trade.price,) * N_RESOURCES
            far.append(Seller(o.trade_fixed, o.trade_choices, price, trade.limit, o.trade_supply, o.trade_masks))
        return near + tuple(far)

    def trade_sides(self, p: Player) -> tuple[str, ...]:
        far = self.fleets[p.seat].far
        if not far:
            return SIDE_NAMES
        return SIDE_NAMES + tuple(FAR_SIDES[trade.side] for trade in far)

    def markets_depending_on(self, seat: int) -> Iterable[int]:
        near = super().markets_depending_on(seat)
        far = [s for s in ((seat + 2) % self.n, (seat - 2) % self.n) if self.fleets[s].far]
        return (*near, *far)

    # ----- card actions and their checks -------------------------------------------------------

    payment_variants = naval.payment_variants  # type: ignore[assignment]  # the listing's hot path: no extra call
    lazy_legal_actions = ClassicGame.variant_lazy_legal_actions  # type: ignore[assignment]

    def discard_variants(self, p: Player) -> tuple[Extra, ...]:
        """A discard for 3 coins, or (while the yellow ship can move) one that moves it instead."""
        return YELLOW if self.fleets[p.seat].ships["yellow"] < TOP else NO_EXTRA

    def parse_discard(self, p: Player, card_id: int, action: dict[str, Any]) -> Move:
        check_keys(action, {"card", "reward"})
        reward = action.get("reward", "coins")
        if reward not in ("coins", "yellow"):
            raise IllegalAction(f"a discard gives 'coins' (3) or moves the 'yellow' ship, not {reward!r}")
        if reward == "yellow" and self.fleets[p.seat].ships["yellow"] >= TOP:
            raise IllegalAction("your yellow ship is at the top of its track: discard for coins")
        return NavalMove("discard", card_id, reward="yellow" if reward == "yellow" else None)

    parse_priced = naval.parse_priced  # type: ignore[assignment]

    # ----- resolving moves --------------------------------------------------------------------------

    def take_effects(self, seat: int, move: Move) -> None:
        if move.reward == "yellow":  # type: ignore[attr-defined]
            effects.advance(self, seat, "yellow")  # instead of the discard's coins
            return
        effects.after_placing(self, seat, move, turn.take_effects(self, seat, move))

    def turn_steps(self, last: bool) -> list[str]:
        """Islands, then discard builds, then coin losses (Armada's order of a turn)."""
        if last:
            return [
                "explore", "coin_losses", "last_card", "explore", "coin_losses",
                "discard_hands", "discard_build", "explore", "coin_losses", "end_age",
            ]  # fmt: skip
        return ["explore", "discard_build", "explore", "coin_losses", "next_turn"]

    def battles(self, victory: int) -> list[dict[str, Any]]:
        return super().battles(victory) + conflicts.landing_battles(self, victory)

    def end_of_age(self) -> list[Event]:
        return [conflicts.naval_conflict(self)]

    def discard_build_choices(self, seat: int, card: CardDef) -> list[tuple[tuple[str, Any], ...]]:
        choices = naval.move_choices(self, seat, ship_move_of(card.effects), None)
        return [(("moves", choice),) if choice else () for choice in choices]

    def built_from_discard(self, seat: int, card: CardDef, action: dict[str, Any]) -> dict[str, Any]:
        moves = naval.check_moves(self, seat, ship_move_of(card.effects), None, action.get("moves"))
        return {"moves": list(moves)} if moves else {}

    def after_discard_build(self, seat: int, card: CardDef, extra: dict[str, Any]) -> None:
        # its effects, but never a naval construction
        effects.apply_effects(self, seat, card.effects, tuple(extra.get("moves", ())))

    # ----- views, scores, copies ----------------------------------------------------------------------

    def view_variant(self, out: dict[str, Any]) -> None:
        out["armada"] = view.table(self)

    def player_variant(self, p: Player, out: dict[str, Any]) -> None:
        out["shipyard"] = view.shipyard(self, p.seat)

    def decision_view(self, seat: int) -> dict[str, Any] | None:
        return islands.island_decision(self, seat) if self.phase == EXPLORE else None

    def card_points(self, seat: int, card: CardDef, vp: int) -> int:
        return scoring.card_points(self, seat, card, vp)

    def score_variant(self, seat: int, points: dict[str, int]) -> None:
        scoring.score(self, seat, points)

    def science_counter(self, seat: int) -> Callable[[tuple[int, int, int]], int]:
        return scoring.science_counter(self, seat)

    def science_sources(self, seat: int) -> list[dict[str, Any]]:
        islands = [self.armada.islands[i] for i in self.fleets[seat].islands]
        return super().science_sources(seat) + [{"island": i.name} for i in islands if i.effects.science == "any"]

    def own_variant(self) -> None:
        view.own_state(self)

    def snapshot_variant(self, out: dict[str, Any]) -> None:
        out["armada"] = view.snapshot(self)
