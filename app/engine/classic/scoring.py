"""Final scoring of the classic game, by the categories of the official score pad."""

from itertools import product
from typing import TYPE_CHECKING, Any

from app.engine.classic.armada_data import TRACKS, Flag, PerOwn
from app.engine.classic.data import Effects
from app.engine.common.data import PerCount
from app.engine.common.science import science_points

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science")
ARMADA_CATEGORIES = (*CATEGORIES, "naval", "islands", "shipyard")


def count(game: "ClassicGame", seat: int, per: PerCount) -> int:
    """How many of the things a coins_per / vp_per effect counts, in the cities it names."""
    total = 0
    for whose in per.whose:
        owner = seat if whose == "self" else game.left_of(seat) if whose == "left" else game.right_of(seat)
        p = game.players[owner]
        if per.what == "card":
            total += sum(p.colors.get(color, 0) for color in per.colors or ())
        elif per.what == "wonder_stage":
            total += p.stages_built
        else:
            total += sum(1 for t in p.tokens if t < 0)
    return total


def score_seat(game: "ClassicGame", seat: int) -> dict[str, int]:
    p = game.players[seat]
    points = dict.fromkeys(CATEGORIES if game.armada is None else ARMADA_CATEGORIES, 0)
    points["military"] = sum(p.tokens)
    points["treasury"] = p.coins // 3
    for index in p.built_stages:
        effects = p.stages[index].effects
        points["wonder"] += effects.vp
    for card_id in p.city:
        card = game.cards[card_id]
        effects = card.effects
        vp = effects.vp + sum(per.amount * count(game, seat, per) for per in effects.vp_per)
        if effects.vp_if_wonder_complete and p.wonder_complete:
            vp += effects.vp_if_wonder_complete
        if game.armada is not None:
            vp += _armada_vp(game, seat, effects)
            if card.color == "purple":
                vp = min(vp, game.armada.guild_cap)
        points[_category(card.color)] += vp
    compass, gear, tablet, wild = p.science
    if game.armada is None:
        points["science"] = science_points((compass, gear, tablet), wild)
    else:
        _score_armada(game, seat, points)
    return points


def _armada_vp(game: "ClassicGame", seat: int, effects: Effects) -> int:
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


def _score_armada(game: "ClassicGame", seat: int, points: dict[str, int]) -> None:
    assert game.armada is not None
    fleet = game.fleets[seat]
    points["naval"] = sum(fleet.naval_tokens)
    points["shipyard"] = sum(space.vp for track in TRACKS for space in game.armada.spaces[track][: fleet.ships[track]])
    islands = [game.armada.islands[i].effects for i in fleet.islands]
    points["islands"] = sum(e.vp + _armada_vp(game, seat, e) for e in islands)
    owned = [game.cards[c].effects for c in game.players[seat].city] + islands
    most = sum(1 for e in owned for x in e.extra if isinstance(x, Flag) and x.type == "science_most_common")
    compass, gear, tablet, wild = game.players[seat].science
    points["science"] = science_with_most((compass, gear, tablet), wild, most)


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


def _category(color: str) -> str:
    return {"blue": "civilian", "yellow": "commercial", "purple": "guilds"}.get(color, "civilian")


def result(game: "ClassicGame") -> dict[str, Any]:
    scores = []
    for seat, p in enumerate(game.players):
        categories = score_seat(game, seat)
        scores.append(
            {
                "seat": seat,
                "wonder": p.wonder.name,
                "side": p.side,
                "categories": categories,
                "total": sum(categories.values()),
                "coins": p.coins,
            }
        )
    best = max((s["total"], s["coins"]) for s in scores)
    winners = [s["seat"] for s in scores if (s["total"], s["coins"]) == best]
    categories = CATEGORIES if game.armada is None else ARMADA_CATEGORIES
    return {"finished": game.is_over, "categories": list(categories), "scores": scores, "winners": winners}
