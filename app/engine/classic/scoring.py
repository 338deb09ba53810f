"""Final scoring of the classic game, by the categories of the official score pad."""

from typing import TYPE_CHECKING, Any

from app.engine.common.data import PerCount
from app.engine.common.science import SYMBOLS, science_choices, science_points

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

CATEGORIES = ("military", "treasury", "wonder", "civilian", "commercial", "guilds", "science")
__all__ = ["CATEGORIES", "count", "result", "science_choice", "science_points", "score_seat"]


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
    points = dict.fromkeys(game.CATEGORIES, 0)
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
        points[_category(card.color)] += game.card_points(seat, card, vp)
    game.score_variant(seat, points)
    return points


def _category(color: str) -> str:
    return {"blue": "civilian", "yellow": "commercial", "purple": "guilds"}.get(color, "civilian")


def science_choice(game: "ClassicGame", seat: int) -> dict[str, Any] | None:
    """How scoring counted the seat's science symbols of choice (None when it has none): the symbols
    printed (`symbols`), what gave the symbols of choice (`from`: `{"card"}`, `{"wonder", "stage"}`,
    `{"island"}`), and every way to count them with its science points, best first (`choices`: the
    first is the one scored)."""
    compass, gear, tablet, wild = game.players[seat].science
    if not wild:
        return None
    counts = (compass, gear, tablet)
    return {
        "symbols": dict(zip(SYMBOLS, counts, strict=True)),
        "from": game.science_sources(seat),
        "choices": science_choices(counts, wild, game.science_counter(seat)),
    }


def result(game: "ClassicGame") -> dict[str, Any]:
    scores = []
    for seat, p in enumerate(game.players):
        categories = score_seat(game, seat)
        score: dict[str, Any] = {
            "seat": seat,
            "wonder": p.wonder.name,
            "side": p.side,
            "categories": categories,
            "total": sum(categories.values()),
            "coins": p.coins,
        }
        choice = science_choice(game, seat)
        if choice:
            score["science_choice"] = choice
        scores.append(score)
    best = max((s["total"], s["coins"]) for s in scores)
    winners = [s["seat"] for s in scores if (s["total"], s["coins"]) == best]
    return {"finished": game.is_over, "categories": list(game.CATEGORIES), "scores": scores, "winners": winners}
