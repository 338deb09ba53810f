"""GET /api/protocol: the websocket protocol's JSON Schemas (what a client may send, what the server
sends), made from the same models that check the messages, actions included; and the limits."""

from functools import cache
from typing import Any

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.api.ws_messages import ProtocolOut, client_message, server_message

router = APIRouter(tags=["websocket"])


@router.get("/api/protocol", response_model=ProtocolOut, summary="The websocket messages' JSON Schemas")
async def get_protocol(svc: ServicesDep) -> ProtocolOut:
    """`client`: every message a client may send on `/ws/rooms/{code}` (an `action` holds one of its
    game's action shapes); `server`: every message the server sends; `limits`: what it refuses
    (see docs/PROTOCOL.md)."""
    s = svc.settings
    limits = {
        "max_message_bytes": s.ws_max_message_bytes,
        "max_frame_bytes": s.ws_hard_max_bytes,
        "max_json_depth": s.max_json_depth,
        "rate_per_second": s.ws_rate_per_second,
        "burst": s.ws_rate_burst,
    }
    client, server = schemas()
    return ProtocolOut(client=client, server=server, limits=limits)


@cache
def schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    return client_message.json_schema(), server_message.json_schema()
