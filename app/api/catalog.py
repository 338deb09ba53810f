"""GET /api/catalog: the box's contents for clients, as the engine describes them
(`app.engine.describe_components`: every card, wonder, island, ship space, shipyard and progress
token with its cost, effects and a sentence in words), the game kinds (the engine's registry: what
a lobby offers), plus this server's expansions and limits.
Nothing here depends on a game: it is the box, not the table."""

import json
from functools import cache

from fastapi import APIRouter, Request, Response

from app.api.caching import revalidated
from app.api.catalog_schemas import CatalogOut
from app.api.deps import ServicesDep
from app.engine import describe_components, game_kinds
from app.rooms.room_rules import expansions_by_game, notices

router = APIRouter(tags=["catalog"])


@router.get(
    "/api/catalog",
    response_model=CatalogOut,
    summary="Public game data: every component in words, the expansions, the server's limits",
)
async def get_catalog(svc: ServicesDep, request: Request) -> Response:
    """Every card, wonder (and stage), progress token, Armada island, ship space and shipyard of
    the three games, with its cost, its effects in the data's own vocabulary and what it does in
    words; the expansions (whether this server enables them, and what players should know: Armada
    runs on provisional values); and the limits a lobby checks before submitting. Which island
    lies where is never shown here. Sent with an ETag: a browser that holds it asks again with
    If-None-Match and is answered 304 Not Modified."""
    s = svc.settings
    body = catalog_json(tuple(sorted(s.enabled_expansions)), s.max_name_length, s.room_code_length)
    return revalidated(request, body, "application/json")


@cache
def catalog_json(enabled: tuple[str, ...], max_name_length: int, room_code_length: int) -> bytes:
    """The response body, built once per server configuration (the catalog is static)."""
    expansions = {
        name: {"game": game, "enabled": name in enabled, "notices": notices([name])}
        for game, names in expansions_by_game().items()
        for name in names
    }
    limits = {"max_name_length": max_name_length, "room_code_length": room_code_length}
    body = {**describe_components(), "games": game_kinds(), "expansions": expansions, "limits": limits}
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
