"""How uvicorn serves this app: its protocols and limits, for `python -m app` and the tests' servers."""

from typing import Any

from app.api.batching import BatchingWebSocketProtocol
from app.api.http_protocol import request_deadline_protocol
from app.settings import Settings


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for this app: the HTTP protocol that closes connections whose request is late
    and caps the connections of an address (app/api/http_protocol.py), the proxies trusted for
    X-Forwarded-For, how long an idle HTTP connection is kept (see
    Settings.http_keep_alive_seconds), the batching websocket protocol (app/api/batching.py), its
    frame limit and compression."""
    return {
        "http": request_deadline_protocol(
            settings.http_request_timeout_seconds,
            per_address=settings.http_connections_per_address,
            trusted=settings.forwarded_allow_ips,
        ),
        "timeout_keep_alive": settings.http_keep_alive_seconds,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        "ws": BatchingWebSocketProtocol,
        "ws_max_size": settings.ws_hard_max_bytes,
        "ws_per_message_deflate": settings.ws_compression,
    }
