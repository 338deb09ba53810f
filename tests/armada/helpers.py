"""Helpers to arrange Armada situations: boards, ships, commercial levels, islands, Armada cards.

They build on tests/classic/helpers.py (coins, option, discard_all, finish_age work as they
are). Cards given or dealt here are new instances added to the game, as in the classic
helpers: these situations are rule examples, not card-conservation properties. Islands
given here are taken out of their deck, so islands stay conserved.

Every provisional number (step costs, what a space gives, card costs and effects) is read
from the loaded data (`armada_data()`), so the tests keep their meaning when the printed
values replace the provisional ones.
"""

from typing import Any

from app.engine import GameConfig, new_game
from app.engine.classic.armada.data import (
    TRACKS,
    CommercialLevel,
    Explore,
    FarTrade,
    Flag,
    NavalStrength,
    StepCost,
    armada_data,
)
from app.engine.classic.armada.effects import apply_effects
from app.engine.classic.armada.islands import keep_island
from app.engine.classic.data import Effects
from app.engine.classic.game import ClassicGame
from app.engine.common.resources import Vector
from tests.classic.helpers import card_def, coins, deal, discard_all, fetch, finish_age, option, play, to_turn

__all__ = [
    "board",
    "card_def",
    "coins",
    "commerce",
    "deal",
    "discard_all",
    "explore_space",
    "fetch",
    "finish_age",
    "give",
    "give_island",
    "give_stages",
    "island_id",
    "naval",
    "new",
    "option",
    "play",
    "produce",
    "ships",
    "space",
    "space_amount",
    "stack_island",
    "step",
    "to_turn",
]

WONDERS = ("Gizah", "Rhodos", "Ephesos", "Alexandria", "Babylon", "Olympia", "Halikarnassos")
LASTING = (NavalStrength, CommercialLevel, FarTrade, Flag)  # what a card given "as built earlier" keeps


def new(
    players: int = 3,
    wonders: list[str] | None = None,
    side: str | list[str] = "day",
    seed: int = 0,
    boards: list[int] | None = None,
) -> ClassicGame:
    """An Armada game with chosen wonders; seat i gets shipyard board i (Shipyard I, II, ...)
    unless `boards` says otherwise, so that costs read from the data are known per seat."""
    config = GameConfig(
        players=players,
        seed=seed,
        wonders=wonders or list(WONDERS[:players]),
        wonder_side=side,  # type: ignore[arg-type]
        expansions=["armada"],
    )
    game = new_game(config)
    assert isinstance(game, ClassicGame) and game.armada is not None
    for seat, index in enumerate(boards or range(players)):
        game.fleets[seat].board = index
    return game


# ----- cards --------------------------------------------------------------------------------------


def give(game: ClassicGame, seat: int, *names: str) -> None:
    """Put these cards in a city as if built earlier: lasting effects (production, shields,
    naval strength, commercial level, Emporium trade, flags), no coins, no one-off effects."""
    for name in names:
        card_id = fetch(game, name)
        card = game.cards[card_id]
        game.players[seat].add_card(card_id, card)
        _lasting(game, seat, card.effects)
    game.market_cache = {}


def give_stages(game: ClassicGame, seat: int, *numbers: int) -> None:
    """Build these wonder stages (numbered from 1, in this order) as if built earlier."""
    p = game.players[seat]
    for number in numbers:
        p.add_stage(number - 1, fetch(game, "Lumber Yard"))
        _lasting(game, seat, p.stages[number - 1].effects)
    game.market_cache = {}


def _lasting(game: ClassicGame, seat: int, effects: Effects) -> None:
    kept = tuple(e for e in effects.extra if isinstance(e, LASTING))
    if kept:
        apply_effects(game, seat, Effects(extra=kept), ())


def produce(game: ClassicGame, seat: int, cost: Vector, tradable: bool = False) -> None:
    """Let a city produce exactly this resource vector more (untradable unless asked), as a
    card would: the way to cover a cost read from the data whatever its resources are."""
    game.players[seat].gain(Effects(produce=cost, tradable=tradable))
    game.market_cache = {}


# ----- shipyards --------------------------------------------------------------------------------


def board(game: ClassicGame, seat: int) -> Any:
    """The seat's shipyard board (a ShipyardDef of the loaded data)."""
    return armada_data().shipyards[game.fleets[seat].board]


def step(game: ClassicGame, seat: int, track: str) -> StepCost:
    """The data's price of the seat's next naval step on this track (no discount)."""
    return board(game, seat).costs[track][game.fleets[seat].ships[track]]


def space(track: str, number: int) -> Effects:
    """What space `number` (1 to 6) of a track gives."""
    return armada_data().spaces[track][number - 1]


def space_amount(track: str, number: int, kind: type) -> int:
    """The total amount of one kind of Armada effect (NavalStrength, CommercialLevel, Tax) a space gives."""
    return sum(e.amount for e in space(track, number).extra if isinstance(e, kind))


def explore_space(level: int) -> int:
    """The green space (1 to 6) that explores this island level."""
    for number in range(1, 7):
        if any(isinstance(e, Explore) and e.level == level for e in space("green", number).extra):
            return number
    raise KeyError(level)


def ships(game: ClassicGame, seat: int, **positions: int) -> None:
    """Put ships on these spaces (0 = start) without taking what the spaces give."""
    for track, position in positions.items():
        assert track in TRACKS and 0 <= position <= 6
        game.fleets[seat].ships[track] = position


def commerce(game: ClassicGame, seat: int, level: int) -> None:
    game.fleets[seat].commerce = level


def naval(game: ClassicGame, seat: int, strength: int) -> None:
    game.fleets[seat].naval = strength


# ----- islands ---------------------------------------------------------------------------------------


def island_id(name: str) -> int:
    return next(i for i, island in enumerate(armada_data().islands) if island.name == name)


def give_island(game: ClassicGame, seat: int, name: str) -> None:
    """Take this island out of its deck and keep it, with its effects (no ship move)."""
    island = island_id(name)
    game.island_decks[armada_data().islands[island].level].remove(island)
    game.offers[seat] = [island]
    keep_island(game, seat, island, ())


def stack_island(game: ClassicGame, name: str) -> None:
    """Put this island on top of its deck: the next one drawn."""
    island = island_id(name)
    deck = game.island_decks[armada_data().islands[island].level]
    deck.remove(island)
    deck.append(island)  # islands are drawn from the end of the list


# ----- playing turns ---------------------------------------------------------------------------------
