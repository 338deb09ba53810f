"""uvicorn's HTTP protocol with a deadline for each request's head.

uvicorn closes an idle connection only after a response (its keep-alive timeout), and any byte
received cancels that: a connection that never sends a request, or trickles its headers a byte at
a time, stays open for good, holding a file descriptor. Enough of them from one client (there is no
per-address cap below the websocket one) leave the server no descriptor for its database or its
players. Here a request's head must be complete within HTTP_HEAD_TIMEOUT_SECONDS of the connection's
start, or of the keep-alive wait after the previous response; a connection that misses it is
closed. The websocket upgrade is a request head like any other: once it is in, no deadline applies.
"""

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HeadDeadlineProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes a connection whose next request head is late."""

    head_timeout: float = 10.0  # set per server by head_deadline_protocol

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: asyncio.TimerHandle | None = self.loop.call_later(self.head_timeout, self._head_late)

    def on_headers_complete(self) -> None:
        self._cancel_head_deadline()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._head_deadline is None:
            # the next request may wait the keep-alive time, and then has head_timeout for its head
            self._head_deadline = self.loop.call_later(self.timeout_keep_alive + self.head_timeout, self._head_late)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_deadline()
        super().connection_lost(exc)

    def _cancel_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_late(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def head_deadline_protocol(seconds: float) -> type[HeadDeadlineProtocol]:
    """The protocol class for a server whose request heads must arrive within `seconds`."""
    attributes: dict[str, Any] = {"head_timeout": seconds}
    return type("HeadDeadlineProtocol", (HeadDeadlineProtocol,), attributes)
