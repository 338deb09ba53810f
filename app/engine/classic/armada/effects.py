"""What Armada's effects do once a card, stage or island is in play: ships move up and take what
their space gives, naval strength and commercial level grow, taxes, piracy, landings and
explorations are noted for later in the turn, Emporiums open trade two seats away."""

from typing import TYPE_CHECKING

from app.engine.classic.armada.data import (
    CoinsPerShipMove,
    CommercialLevel,
    Explore,
    FarTrade,
    Flag,
    Landing,
    NavalStrength,
    Piracy,
    ShipMove,
    TakeIsland,
    Tax,
)
from app.engine.classic.armada.naval import naval_track
from app.engine.classic.armada.pending import CoinLoss, Exploration, LandingConflict
from app.engine.classic.data import Effects
from app.engine.classic.move import Move

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame

FAR_SIDES = {"left": "far_left", "right": "far_right"}


def after_placing(game: "ArmadaGame", seat: int, move: Move, effects: Effects | None) -> None:
    """Step 2 and 3 of the turn: the naval step's ship moves, then every effect but coin losses."""
    if effects is None:  # a discard: its reward was taken (coins, or the yellow ship)
        return
    if move.naval:  # type: ignore[attr-defined]
        color = game.cards[move.card].color if move.kind == "build" else None
        track = naval_track(game, game.players[seat], move.kind, color)
        assert track is not None
        advance(game, seat, track)
    apply_effects(game, seat, effects, move.moves)  # type: ignore[attr-defined]


def apply_effects(game: "ArmadaGame", seat: int, effects: Effects, moves: tuple[str, ...]) -> None:
    fleet = game.fleets[seat]
    for e in effects.extra:
        match e:
            case NavalStrength():
                fleet.naval += e.amount
            case CommercialLevel():
                fleet.commerce += e.amount
            case ShipMove():
                for track in moves:
                    advance(game, seat, track)
            case Piracy():
                game.coin_losses.append(CoinLoss("piracy", seat, 0))
            case Tax():
                game.coin_losses.append(CoinLoss("tax", seat, e.amount))
            case Landing():
                side = game.armada.landing_targets[game.age]
                game.landings.append(LandingConflict(seat, game.seat_at(seat, FAR_SIDES[side])))
            case TakeIsland():
                game.explorations.append(Exploration(seat, e.level, 1))
            case Explore():
                game.explorations.append(Exploration(seat, e.level, game.armada.explore_draw))
            case FarTrade():
                fleet.far.append(e)
                game.market_cache.pop(seat, None)
            case CoinsPerShipMove():
                fleet.coins_per_move += e.amount
            case Flag():
                fleet.flags.add(e.type)


def advance(game: "ArmadaGame", seat: int, track: str) -> None:
    """Move a ship one space up and take what the space gives."""
    fleet = game.fleets[seat]
    fleet.ships[track] += 1
    space = game.armada.spaces[track][fleet.ships[track] - 1]
    game.players[seat].coins += space.coins + fleet.coins_per_move
    apply_effects(game, seat, space, ())
