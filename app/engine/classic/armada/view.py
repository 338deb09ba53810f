"""What every seat sees of the fleets (islands drawn stay with their explorer until kept), and
Armada's part of the snapshot and of a clone."""

import random
from typing import TYPE_CHECKING, Any

from app.engine.classic.armada.data import TRACKS
from app.engine.classic.armada.naval import next_step
from app.engine.common.resources import to_dict

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame


def shipyard(game: "ArmadaGame", seat: int) -> dict[str, Any]:
    fleet = game.fleets[seat]
    board = game.armada.shipyards[fleet.board]
    next_costs = {}
    for track in TRACKS:
        step = next_step(game, seat, track)
        next_costs[track] = (
            None if step is None else {**to_dict(step.cost), **({"coins": step.coin_cost} if step.coin_cost else {})}
        )
    return {
        "board": board.name,
        "wonder_track": board.wonder_track,
        "ships": dict(fleet.ships),
        "naval_strength": fleet.naval,
        "commercial_level": fleet.commerce,
        "islands": [game.armada.islands[i].name for i in fleet.islands],
        "naval_tokens": list(fleet.naval_tokens),
        "next_costs": next_costs,
    }


def table(game: "ArmadaGame") -> dict[str, Any]:
    return {
        "provisional_notice": game.armada.notice,
        "island_decks": {str(level): len(deck) for level, deck in game.island_decks.items()},
        "landings": [{"owner": o, "target": t} for o, t in game.landings],
    }


def snapshot(game: "ArmadaGame") -> dict[str, Any]:
    return {
        "fleets": [shipyard(game, s) for s in range(game.n)],
        "island_decks": {str(k): list(v) for k, v in game.island_decks.items()},
        "offers": {str(k): list(v) for k, v in sorted(game.offers.items())},
        "returned": [list(r) for r in game._returned],
        "fleet_state": [
            {"flags": sorted(f.flags), "far": [e.side for e in f.far], "coins_per_move": f.coins_per_move}
            for f in game.fleets
        ],
        "explorations": [list(e) for e in game.explorations],
        "coin_losses": [list(c) for c in game.coin_losses],
        "landings": [list(x) for x in game.landings],
    }


def own_state(game: "ArmadaGame") -> None:
    """Copies of the Armada state, shared with successors until now (ClassicGame.own)."""
    game.fleets = [f.copy() for f in game.fleets]
    game.island_decks = {k: list(v) for k, v in game.island_decks.items()}
    game.offers = {k: list(v) for k, v in game.offers.items()}
    game.explorations = list(game.explorations)
    game.coin_losses = list(game.coin_losses)
    game.landings = list(game.landings)
    game._returned = list(game._returned)
    rng = random.Random()
    rng.setstate(game.rng.getstate())
    game.rng = rng
