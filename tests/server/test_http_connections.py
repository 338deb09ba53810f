"""HTTP connections per client address: one address holds at most HTTP_CONNECTIONS_PER_ADDRESS
connections (idle keep-alive ones included); the requests of a further one, a websocket upgrade
among them, are answered 429 `too_many_connections` and it is closed; a connection upgraded to a
websocket leaves that count (the websocket cap counts it); a trusted proxy's address is not
counted. Against a real uvicorn, over raw sockets (each one connection)."""

import asyncio
import json
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest

from app.api.http_protocol import TrustedAddresses
from tests.server.conftest import live_sqlite_server
from tests.server.helpers import SeatClient, create_room
from tests.server.live import LiveServer

LIMIT = 3
UPGRADE = (
    b"GET /ws/rooms/ABCDEFG HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Three connections an address; no proxy trusted, so 127.0.0.1 is counted like any client."""
    with live_sqlite_server(
        tmp_path_factory, "capped", http_connections_per_address=LIMIT, forwarded_allow_ips=""
    ) as server:
        yield server


class Raw:
    """One HTTP/1.1 connection, kept open between requests."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> "Raw":
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        return await self.response()

    async def response(self) -> tuple[int, dict[str, str], bytes]:
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 10)
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines if line)
        body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return int(status_line.split()[1]), headers, body

    async def closed(self) -> bool:
        try:
            return await asyncio.wait_for(self.reader.read(1), 5) == b""
        except (TimeoutError, ConnectionError):
            return False

    def close(self) -> None:
        self.writer.close()


def refusal(body: bytes) -> dict[str, Any]:
    return json.loads(body)["error"]


async def served(port: int) -> Raw:
    """A new connection whose request is served, once the server has seen earlier ones close."""
    for _ in range(50):
        conn = await Raw.open(port)
        if (await conn.get("/healthz"))[0] == 200:
            return conn
        conn.close()
        await asyncio.sleep(0.1)
    raise AssertionError("no connection was served")


async def test_an_address_holds_at_most_its_share_of_connections(capped: LiveServer) -> None:
    held = [await Raw.open(capped.port) for _ in range(LIMIT)]
    for conn in held:
        assert (await conn.get("/healthz"))[0] == 200  # idle now, kept alive
    extra = await Raw.open(capped.port)
    status, headers, body = await extra.get("/healthz")
    assert status == 429 and headers["connection"] == "close"
    error = refusal(body)
    assert error["code"] == "too_many_connections" and f"maximum of {LIMIT}" in error["message"]
    assert await extra.closed()

    upgrade = await Raw.open(capped.port)  # a websocket's upgrade request is refused alike
    upgrade.writer.write(UPGRADE)
    status, _, body = await upgrade.response()
    assert status == 429 and refusal(body)["code"] == "too_many_connections"
    assert await upgrade.closed()

    for conn in held:  # the connections within the limit are served as before
        assert (await conn.get("/healthz"))[0] == 200
    status, _, metrics = await held[0].get("/metrics")
    assert status == 200 and b"wonders_http_connections_over_address_limit_total 2.0" in metrics

    held.pop().close()
    held.append(await served(capped.port))  # once the server has seen the close
    for conn in held:
        conn.close()


async def test_a_websocket_leaves_the_http_count(capped: LiveServer) -> None:
    """Upgraded connections are the websocket cap's to count: with three websockets open, the
    address still has its three HTTP connections."""
    (await served(capped.port)).close()  # the other test's connections are gone
    await asyncio.sleep(0.2)
    async with httpx.AsyncClient(base_url=capped.url, limits=httpx.Limits(max_connections=1)) as http:
        code, _ = await create_room(http)
    await asyncio.sleep(0.2)
    async with AsyncExitStack() as stack:
        for _ in range(LIMIT):
            watcher = await stack.enter_async_context(SeatClient(capped.ws_url, code, None))
            await watcher.wait_type("welcome")
        held = [await served(capped.port) for _ in range(LIMIT)]
        for conn in held:
            assert (await conn.get("/healthz"))[0] == 200
            conn.close()


async def test_a_trusted_proxy_is_not_counted(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Behind a proxy every client shares its address: listed in FORWARDED_ALLOW_IPS (127.0.0.1 by
    default), it may hold any number of connections."""
    with live_sqlite_server(tmp_path_factory, "proxied", http_connections_per_address=LIMIT) as server:
        held = [await Raw.open(server.port) for _ in range(LIMIT + 2)]
        for conn in held:
            assert (await conn.get("/healthz"))[0] == 200
        for conn in held:
            conn.close()


def test_trusted_addresses_read_as_uvicorn_does() -> None:
    trusted = TrustedAddresses("127.0.0.1, 10.0.0.0/8,::1,unix-socket")
    assert "127.0.0.1" in trusted and "10.3.4.5" in trusted and "::1" in trusted and "0:0::1" in trusted
    assert "unix-socket" in trusted
    assert "192.168.1.2" not in trusted and "11.0.0.1" not in trusted and "" not in trusted
    assert "8.8.8.8" in TrustedAddresses("*") and "127.0.0.1" not in TrustedAddresses("")
