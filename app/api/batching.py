"""One socket write for the messages a connection's writer sends together.

uvicorn writes each websocket message to its socket on its own: one system call (and on loopback
the receiver's wake-up) per message, about a fifth of the server's CPU under load, where a seat
often gets several messages at once (the `chosen` of other seats, the `reveal`, its `state`).
`BatchingWebSocketProtocol` is uvicorn's websockets protocol with the connection's transport
wrapped so that the app can hold its writes while it sends such a batch: through the ASGI scope's
extension `BATCH_EXTENSION`, which `batch(scope)` uses; the batch goes out as one write when it
ends. Under another server (no such extension) `batch` changes nothing.
"""

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

BATCH_EXTENSION = "wonders.batch"


class HeldTransport:
    """A transport whose writes wait, while held, to go out as one write on release."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._held = 0
        self._chunks: list[bytes] = []

    def hold(self) -> None:
        self._held += 1

    def release(self) -> None:
        self._held -= 1
        if not self._held:
            self._flush()

    def write(self, data: bytes) -> None:
        if self._held:
            self._chunks.append(data)
        else:
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def _flush(self) -> None:
        chunks, self._chunks = self._chunks, []
        if chunks and not self._transport.is_closing():  # a lost connection: nowhere to send them
            self._transport.write(chunks[0] if len(chunks) == 1 else b"".join(chunks))

    def __getattr__(self, name: str) -> Any:  # everything else is the transport's own
        return getattr(self._transport, name)


class BatchingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets (sans-I/O) protocol, offering BATCH_EXTENSION to the app."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.transport = HeldTransport(self.transport)  # type: ignore[assignment]

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            held: HeldTransport = self.transport  # type: ignore[assignment]
            scope["extensions"][BATCH_EXTENSION] = {"hold": held.hold, "release": held.release}


@contextlib.contextmanager
def batch(scope: dict[str, Any]) -> Iterator[None]:
    """The messages sent inside go out together (with BatchingWebSocketProtocol)."""
    extension = (scope.get("extensions") or {}).get(BATCH_EXTENSION)
    if extension is None:
        yield
        return
    extension["hold"]()
    try:
        yield
    finally:
        extension["release"]()
