"""Armada's part of the score sheet: naval tokens, islands, shipyard spaces, the points of Armada's
own end-of-game effects, the guild cap, and science with Nautical Archives' extra symbols."""

from collections.abc import Callable
from itertools import product
from typing import TYPE_CHECKING

from app.engine.classic.armada.data import TRACKS, Flag, PerOwn
from app.engine.classic.data import CardDef, Effects
from app.engine.common.science import science_points

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame

CATEGORIES = ("naval", "islands", "shipyard")


def card_points(game: "ArmadaGame", seat: int, card: CardDef, vp: int) -> int:
    vp += own_points(game, seat, card.effects)
    return min(vp, game.armada.guild_cap) if card.color == "purple" else vp


def own_points(game: "ArmadaGame", seat: int, effects: Effects) -> int:
    """Points of Armada's end-of-game effects: per commercial level, per island, per card of a colour."""
    vp = 0
    for e in effects.extra:
        if isinstance(e, PerOwn):
            fleet = game.fleets[seat]
            if e.type == "vp_per_commercial_level":
                vp += e.amount * fleet.commerce
            elif e.type == "vp_per_island":
                vp += e.amount * len(fleet.islands)
            else:
                vp += e.amount * max(game.players[seat].colors.values(), default=0)
    return vp


def score(game: "ArmadaGame", seat: int, points: dict[str, int]) -> None:
    fleet = game.fleets[seat]
    points["naval"] = sum(fleet.naval_tokens)
    points["shipyard"] = sum(space.vp for track in TRACKS for space in game.armada.spaces[track][: fleet.ships[track]])
    islands = [game.armada.islands[i].effects for i in fleet.islands]
    points["islands"] = sum(e.vp + own_points(game, seat, e) for e in islands)
    compass, gear, tablet, wild = game.players[seat].science
    points["science"] = science_with_most((compass, gear, tablet), wild, most_common(game, seat))


def most_common(game: "ArmadaGame", seat: int) -> int:
    """How many "one more of your most common science symbol" the seat's cards and islands give."""
    islands = [game.armada.islands[i].effects for i in game.fleets[seat].islands]
    owned = [game.cards[c].effects for c in game.players[seat].city] + islands
    return sum(1 for e in owned for x in e.extra if isinstance(x, Flag) and x.type == "science_most_common")


def science_counter(game: "ArmadaGame", seat: int) -> Callable[[tuple[int, int, int]], int]:
    """The science points of placed symbols, with the seat's most-common extra symbols added."""
    most = most_common(game, seat)
    return lambda counts: _most_common(list(counts), most)


def science_with_most(counts: tuple[int, int, int], wild: int, most: int) -> int:
    """Science with wildcards, then `most` extra symbols each of a kind the player has most of."""
    if not most:
        return science_points(counts, wild)
    best = 0
    for placed in product(range(3), repeat=wild):
        bumped = list(counts)
        for i in placed:
            bumped[i] += 1
        best = max(best, _most_common(bumped, most))
    return best


def _most_common(counts: list[int], most: int) -> int:
    if not most:
        return science_points((counts[0], counts[1], counts[2]))
    top = max(counts)
    best = 0
    for i in range(3):
        if counts[i] == top:
            counts[i] += 1
            best = max(best, _most_common(counts, most - 1))
            counts[i] -= 1
    return best
