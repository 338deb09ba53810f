"""uvicorn's HTTP protocol with a deadline for each request to arrive.

uvicorn closes an idle connection only after a response (its keep-alive timeout), and any byte
received cancels that: a connection that never sends a request, or trickles its headers or its body
a byte at a time, stays open for good, holding a file descriptor. Enough of them from one client
(there is no per-address cap below the websocket one) leave the server no descriptor for its
database or its players. Here a whole request, head and body, must arrive within
HTTP_REQUEST_TIMEOUT_SECONDS of the connection's start, or of the keep-alive wait after the previous
response; a connection that misses it is closed. A websocket's upgrade request is a request like
any other; once upgraded, no deadline applies. How long the app takes to answer is not limited.
"""

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class RequestDeadlineProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes a connection whose next request is late."""

    request_timeout: float = 10.0  # set per server by request_deadline_protocol

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = self.loop.call_later(self.request_timeout, self._late)

    def on_message_complete(self) -> None:
        self._cancel_deadline()  # the whole request is in
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._cancel_deadline()
        super().handle_websocket_upgrade()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._deadline is None:
            # the next request may wait the keep-alive time, and then has request_timeout to arrive
            self._deadline = self.loop.call_later(self.timeout_keep_alive + self.request_timeout, self._late)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def request_deadline_protocol(seconds: float) -> type[RequestDeadlineProtocol]:
    """The protocol class for a server whose requests must arrive within `seconds`."""
    attributes: dict[str, Any] = {"request_timeout": seconds}
    return type("RequestDeadlineProtocol", (RequestDeadlineProtocol,), attributes)
