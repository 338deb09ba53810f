"""Scoring of 7 Wonders Duel: the score sheet by category, the winner and the kind of victory."""

from typing import TYPE_CHECKING, Any

from app.engine.duel.models import Guild

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame

CATEGORIES = ("military", "civilian", "science", "commercial", "guilds", "wonders", "progress", "treasury")
COLOR_CATEGORY = {"blue": "civilian", "green": "science", "yellow": "commercial", "purple": "guilds"}
TIE_BREAK = "civilian"


def guild_count(game: "DuelGame", guild: Guild) -> int:
    """What a guild counts, in the city that has the most of it (whoever owns that city)."""
    players = game.players
    if guild.what == "card":
        assert guild.colors is not None
        return max(p.count(guild.colors) for p in players)
    if guild.what == "wonder":
        return max(p.wonders_built for p in players)
    return max(p.coins // 3 for p in players)


def score_seat(game: "DuelGame", seat: int) -> dict[str, int]:
    p = game.players[seat]
    cards = game.data.cards
    points = dict.fromkeys(CATEGORIES, 0)
    points["military"] = game.military.points(seat)
    for card_id in p.city:
        card = cards[card_id]
        vp = card.effects.vp
        if card.effects.guild:
            vp += card.effects.guild.vp_per * guild_count(game, card.effects.guild)
        if vp:
            points[COLOR_CATEGORY.get(card.color, "civilian")] += vp
    points["wonders"] = sum(game.data.wonders[w].effects.vp for w in p.built)
    for token_id in p.tokens:
        effects = game.data.tokens[token_id].effects
        points["progress"] += effects.vp + effects.vp_per_token * len(p.tokens)
    points["treasury"] = p.coins // game.data.rules.coins_per_treasury_point
    return points


def civilian_winners(scores: list[dict[str, Any]]) -> list[int]:
    """Most points; on a tie, most civilian (blue) points; then the victory is shared."""
    best = max((s["total"], s["categories"][TIE_BREAK]) for s in scores)
    return [s["seat"] for s in scores if (s["total"], s["categories"][TIE_BREAK]) == best]


def result(game: "DuelGame") -> dict[str, Any]:
    scores = []
    for seat, p in enumerate(game.players):
        categories = score_seat(game, seat)
        scores.append({"seat": seat, "categories": categories, "total": sum(categories.values()), "coins": p.coins})
    immediate = game.victory in ("military", "science")
    winners = list(game.winners) if immediate else civilian_winners(scores)
    return {
        "finished": game.is_over,
        "victory": game.victory,
        "categories": list(CATEGORIES),
        "scores": scores,
        "winners": winners,
    }
