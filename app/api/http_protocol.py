"""uvicorn's HTTP protocol with a deadline for each request to arrive, and a cap on the connections
of one client address.

uvicorn closes an idle connection only after a response (its keep-alive timeout), and any byte
received cancels that: a connection that never sends a request, or trickles its headers or its body
a byte at a time, stays open for good, holding a file descriptor. Here a whole request, head and
body, must arrive within HTTP_REQUEST_TIMEOUT_SECONDS of the connection's start, or of the
keep-alive wait after the previous response; a connection that misses it is closed. A websocket's
upgrade request is a request like any other; once upgraded, no deadline applies. How long the app
takes to answer is not limited.

Even so, one address could open connections, make a request on each and keep them all idle (for
HTTP_KEEP_ALIVE_SECONDS each, again after every request) until the server has no descriptor left
for its database or its players. So each address holds at most HTTP_CONNECTIONS_PER_ADDRESS
connections here, counted from the connection's start to its close, or to its websocket upgrade
(from then on the websocket cap, app/api/connection_limit.py, counts it). The requests of a
connection beyond that are answered 429 `too_many_connections` and the connection closed. A trusted
proxy's address (FORWARDED_ALLOW_IPS) is not counted: every client behind it shares it.
"""

import asyncio
import ipaddress
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app import metrics
from app.api.connection_limit import ConnectionsPerAddress

# the app's lifespan state holds, under this key, what to call when the server starts to stop
SERVER_STOPPING = "wonders.server_stopping"


class TrustedAddresses:
    """FORWARDED_ALLOW_IPS as uvicorn reads it: addresses and networks, comma-separated, or *."""

    def __init__(self, spec: str) -> None:
        items = [item.strip() for item in spec.split(",") if item.strip()]
        self.everyone = "*" in items
        self.addresses: set[Any] = set()
        self.networks: list[Any] = []
        self.literals: set[str] = set()  # what is no IP address (a unix socket's name, say)
        for item in items:
            try:
                if "/" in item:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                else:
                    self.addresses.add(ipaddress.ip_address(item))
            except ValueError:
                self.literals.add(item)

    def __contains__(self, host: object) -> bool:
        if self.everyone or host in self.literals:
            return True
        try:
            address = ipaddress.ip_address(str(host))
        except ValueError:
            return False
        return address in self.addresses or any(address in network for network in self.networks)


class RequestDeadlineProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes a connection whose next request is late, and refuses the
    requests of an address holding its share of connections."""

    request_timeout: float = 10.0  # set per server by request_deadline_protocol
    per_address: ConnectionsPerAddress = ConnectionsPerAddress(0)  # likewise: each server its own count
    trusted: TrustedAddresses = TrustedAddresses("127.0.0.1,::1")

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = self.loop.call_later(self.request_timeout, self._late)
        self._counted: str | None = None  # the address this connection is counted for
        self._over_limit = False
        host = self.client[0] if self.client else ""
        if not self.per_address.limit or host in self.trusted:
            return
        if self.per_address.take(host):
            self._counted = host
        else:
            self._over_limit = True
            metrics.http_connection_over_address_limit()
            self.app = too_many_connections(self.per_address.limit)  # this connection's requests only

    def on_message_complete(self) -> None:
        self._cancel_deadline()  # the whole request is in
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._cancel_deadline()
        if self._over_limit:
            self.transport.write(refusal_bytes(self.per_address.limit))
            self.transport.close()
            return
        self._give_back()  # the websocket cap counts it from here on
        super().handle_websocket_upgrade()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._deadline is None:
            # the next request may wait the keep-alive time, and then has request_timeout to arrive
            self._deadline = self.loop.call_later(self.timeout_keep_alive + self.request_timeout, self._late)

    def shutdown(self) -> None:
        """The server stops: requests in flight are waited for, so long polls must answer now."""
        stopping = self.app_state.get(SERVER_STOPPING)
        if stopping is not None:
            stopping()
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        self._give_back()
        super().connection_lost(exc)

    def _give_back(self) -> None:
        if self._counted is not None:
            self.per_address.give_back(self._counted)
            self._counted = None

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def refusal_body(limit: int) -> bytes:
    message = (
        f"this address holds its maximum of {limit} open HTTP connections to this server; "
        "reuse one (keep-alive) or close one before opening another"
    )
    return orjson.dumps({"error": {"code": "too_many_connections", "message": message, "details": {"limit": limit}}})


def refusal_bytes(limit: int) -> bytes:
    """The whole 429 response, for a websocket upgrade refused before any app sees it."""
    body = refusal_body(limit)
    head = (
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def too_many_connections(limit: int) -> Any:
    """The ASGI app that answers every request of a connection beyond its address's limit."""
    body = refusal_body(limit)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode("ascii")),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app


def request_deadline_protocol(
    seconds: float, *, per_address: int = 0, trusted: str = "127.0.0.1,::1"
) -> type[RequestDeadlineProtocol]:
    """The protocol class for a server whose requests must arrive within `seconds`, and whose client
    addresses (but the `trusted` proxies') hold at most `per_address` connections (0: no limit)."""
    attributes: dict[str, Any] = {
        "request_timeout": seconds,
        "per_address": ConnectionsPerAddress(per_address),
        "trusted": TrustedAddresses(trusted),
    }
    return type("RequestDeadlineProtocol", (RequestDeadlineProtocol,), attributes)
