"""Public game data for clients: each card's colour and Age, and Armada's islands and ship spaces
with what they do. Nothing here depends on a game: it is the box, not the table."""

from functools import cache
from typing import Any

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.api.schemas import CatalogOut, ExpansionInfo
from app.engine.classic.armada_data import TRACKS, armada_data
from app.engine.classic.data import Effects, classic_data
from app.engine.common.resources import RESOURCES, to_dict
from app.engine.config import EXPANSIONS
from app.rooms.service import notices

router = APIRouter(tags=["catalog"])


@router.get("/api/catalog", response_model=CatalogOut, summary="Public game data: expansions, cards, islands")
async def get_catalog(svc: ServicesDep) -> CatalogOut:
    """The expansions (whether this server enables them, and what players should know: Armada runs on
    provisional values), each card's colour (the track a naval step with it advances, in Armada)
    and Age, and what each Armada island and ship space gives, in words. Which island lies where
    is never shown here."""
    enabled = set(svc.settings.enabled_expansions)
    expansions = {
        name: ExpansionInfo(game=game, enabled=name in enabled, notices=notices([name]))
        for game, names in EXPANSIONS.items()
        for name in sorted(names)
    }
    return catalog().model_copy(update={"expansions": expansions})


@cache
def catalog() -> CatalogOut:
    classic = classic_data()
    armada = armada_data()
    cards = {
        c.name: {"color": c.color, "age": c.age, "expansion": c.expansion}
        for c in (*classic.cards, *classic.guilds, *armada.cards)
    }
    islands = {i.name: {"level": i.level, "text": describe(i.effects)} for i in armada.islands}
    spaces = {track: [describe(space) for space in armada.spaces[track]] for track in TRACKS}
    return CatalogOut(expansions={}, cards=cards, islands=islands, ship_tracks=list(TRACKS), ship_spaces=spaces)


def describe(effects: Effects) -> str:
    """A short text of what the effects give, e.g. '+1 naval strength, 2 coins'."""
    parts: list[str] = []
    if any(effects.produce):
        parts.append("produces " + ", ".join(_count(n, r) for r, n in to_dict(effects.produce).items()))
    for choice in effects.choices:
        parts.append("produces one of " + "/".join(RESOURCES[i] for i in choice))
    if (any(effects.produce) or effects.choices) and not effects.tradable:
        parts[-1] += " (not for trade)"
    if effects.vp:
        parts.append(_count(effects.vp, "point"))
    if effects.coins:
        parts.append(_count(effects.coins, "coin"))
    if effects.shields:
        parts.append(_count(effects.shields, "shield"))
    if effects.science:
        parts.append("a science symbol" + (" of your choice" if effects.science == "any" else f" ({effects.science})"))
    parts += [_extra(e) for e in effects.extra]
    return ", ".join(parts) or "nothing"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 and not what.endswith('s') else ''}"


def _extra(e: Any) -> str:
    fields = e.model_dump()
    kind = fields.pop("type")
    match kind:
        case "naval_strength":
            return f"+{e.amount} naval strength"
        case "commercial_level":
            return f"+{e.amount} commercial level"
        case "tax":
            return f"tax: each player with a lower commercial level loses {_count(e.amount, 'coin')}"
        case "explore":
            return f"explore the level {e.level} islands (keep one)"
        case "take_island":
            return f"take a level {e.level} island"
        case "ship_move":
            which = " or ".join(e.tracks) if e.tracks else "any"
            return f"move {_count(e.count, 'ship')} one space up ({which})"
        case "piracy":
            return "piracy: every other player loses coins equal to their commercial level"
        case "landing":
            return "landing: one more ground conflict this Age, with the player two seats away"
        case "far_trade":
            return f"buy from the player two seats to the {e.side} ({e.limit} a payment at {e.price} coin each)"
        case "vp_per_commercial_level":
            return f"{_count(e.amount, 'point')} per commercial level"
        case "vp_per_island":
            return f"{_count(e.amount, 'point')} per island"
        case "vp_per_best_color":
            return f"{_count(e.amount, 'point')} per card of your most built colour"
        case "coins_per_ship_move":
            return f"{_count(e.amount, 'coin')} each time one of your ships moves"
        case "science_most_common":
            return "one more of your most common science symbol"
        case "coin_loss_immunity":
            return "never lose coins to taxes or piracy"
        case "naval_defeat_immunity":
            return "never take a naval defeat token"
        case "naval_discount":
            return "naval steps cost one resource less"
    detail = ", ".join(f"{k} {v}" for k, v in fields.items() if v is not None)
    return kind.replace("_", " ") + (f" ({detail})" if detail else "")
