"""7 Wonders Duel: the game's state and its public face.

The rules are found by concern, as in the classic game: `setup.py` deals, `options.py` lists the
legal actions, `validate.py` makes a submitted action a move (`moves.py`), then `draft.py`,
`actions.py` (build, discard, Wonder) or `decisions.py` performs it, with `effects.py` for what
cards, Wonders and tokens do and `turn.py` for turns, Ages and the end; `view.py` is what a
seat may see, `scoring.py` the result.
"""

import random
from collections.abc import Callable
from typing import Any, ClassVar

from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, Game, require_dict
from app.engine.config import GameConfig
from app.engine.duel import actions, decisions, draft, options, scoring, validate, view
from app.engine.duel.costs import SeatCosts
from app.engine.duel.data import duel_data
from app.engine.duel.definitions import DuelData
from app.engine.duel.military import Military
from app.engine.duel.phases import DRAFT, OVER, PHASE_TEXT
from app.engine.duel.player import DuelPlayer
from app.engine.duel.setup import deal, draft_order
from app.engine.duel.structure import Structure


class DuelGame(Game):
    """7 Wonders Duel for two seats. Seat 0's shields push the conflict pawn toward positive positions."""

    SHARED_DATA: ClassVar[tuple[str, ...]] = ("app.engine.duel.data:duel_data",)
    CACHES: ClassVar[dict[str, Callable[[], Any]]] = {"cost_cache": lambda: [None, None]}

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
        self.draft_order = draft_order(self.first, per_round)
        self.draft_step = 0
        self.draft_offer: list[int] = self.draft_pool[:per_round]
        self.decks: dict[int, list[int]] = {}
        self.removed: list[int] = []
        deal(self, rng)
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
        self.cost_cache: list[SeatCosts | None] = [None, None]
        self._result: dict[str, Any] | None = None

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
        maker = options.MAKERS.get(self.phase)  # options.legal, one call less
        return [] if maker is None else maker(self)

    def apply(self, seat: int, action: Action) -> list[Event]:
        if (
            type(seat) is not int
            or seat != self.actor
            or type(action) is not dict
            or type(action.get("type")) is not str
        ):
            self._refuse(seat, action)
        move, logged = validate.match(self, action)
        self.log.append({"seat": seat, "action": logged})
        self._result = None
        return PERFORM[action["type"]](self, move)

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

    def public_view(self) -> dict[str, Any]:
        return view.public_view(self)

    def own_view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            seat = self.check_seat(seat)
        return view.own_view(self, seat)

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
        other.cost_cache = [None, None]
        return other

    def _economy_changed(self) -> None:
        """Production or prices of both seats may have changed: forget what purchases cost."""
        self.cost_cache = [None, None]


# What each action type does, once validate.match has made it a move (see moves.py).
PERFORM: dict[str, Callable[[DuelGame, Any], list[Event]]] = {
    "draft_wonder": draft.do_draft,
    "build": actions.do_build,
    "discard": actions.do_discard,
    "wonder": actions.do_wonder,
    "choose_progress": decisions.do_choose_progress,
    "choose_box_token": decisions.do_choose_box_token,
    "destroy": decisions.do_destroy,
    "build_from_discard": decisions.do_build_from_discard,
    "choose_starter": decisions.do_choose_starter,
}
