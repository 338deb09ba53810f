"""uvicorn's websocket protocol with its writes gathered: every frame written in one step of the
event loop goes to the socket in one `write` system call.

A connection's writer sends what piled up since it last wrote (say a seat's `chosen`, `reveal`
and `state`) one message after the other without yielding to the event loop; uvicorn writes each
frame to the socket at once, one system call each, which was most of the cost of a send. Here the
frames wait until the end of the current step of the event loop and go out together. Nothing is
reordered and nothing waits for a later step.
"""

import asyncio
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from app.settings import Settings


class GatheredWrites:
    """A transport whose writes within one step of the event loop reach the socket as one write;
    everything else is the wrapped transport's."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not data:
            return
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(data)

    def flush(self) -> None:
        if not self._pending:
            return
        data = b"".join(self._pending) if len(self._pending) > 1 else self._pending[0]
        self._pending.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self.flush()  # a close frame written just before goes out first
        self._transport.close()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._pending))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class GatheredWebSocketProtocol(WebSocketsSansIOProtocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        gathered = GatheredWrites(cast(asyncio.Transport, transport), asyncio.get_running_loop())
        super().connection_made(cast(asyncio.Transport, gathered))


def uvicorn_websocket_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the websockets (`python -m app`, and the tests' live servers)."""
    return {
        "ws": GatheredWebSocketProtocol,
        "ws_max_size": settings.ws_hard_max_bytes,
        "ws_per_message_deflate": settings.ws_compression,
    }
