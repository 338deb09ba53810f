"""PostgreSQL cut off from a running server (through a TCP proxy) in the middle of a game, then back.

While it is away every request that needs it gets 503 `database_down` with Retry-After, never a 500
or a dropped connection; a websocket's action gets an `error` `database_down` and the connection
stays open; a new websocket is refused with that error and close 1013 (try again later). Once it is
back the game plays on to its end, and every action acknowledged is in its log."""

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.db.storage import StorageDown
from app.rooms.context import Services
from tests.server.conftest import PG_HOST, PG_PORT, _clear_postgres, live_app_server, make_settings
from tests.server.helpers import SeatClient, bearer, full_room
from tests.server.live import LiveServer
from tests.server.tcp_proxy import TcpProxy

pytestmark = pytest.mark.postgres


@pytest.fixture
def proxy() -> Iterator[TcpProxy]:
    proxy = TcpProxy(PG_PORT)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture
def server(pg_server_url: str, proxy: TcpProxy) -> Iterator[LiveServer]:
    _clear_postgres(pg_server_url)
    assert f"@{PG_HOST}:{PG_PORT}/" in pg_server_url
    through_proxy = pg_server_url.replace(f"{PG_HOST}:{PG_PORT}", f"127.0.0.1:{proxy.port}")
    with live_app_server(through_proxy, bot_delay_ms=500) as server:  # bots act after the outage began
        yield server


async def state_of(http: httpx.AsyncClient, code: str, token: str) -> httpx.Response:
    return await http.get(f"/api/rooms/{code}/game", headers=bearer(token))


async def play(http: httpx.AsyncClient, code: str, token: str, state: dict[str, Any]) -> httpx.Response:
    body = {"action": state["legal_actions"][0], "version": state["version"]}
    return await http.post(f"/api/rooms/{code}/game/actions", headers=bearer(token), json=body)


def assert_database_down(r: httpx.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "database_down" and r.headers["retry-after"] == "2"


async def test_the_database_goes_away_and_comes_back(
    server: LiveServer, proxy: TcpProxy, caplog: pytest.LogCaptureFixture
) -> None:
    acknowledged = 0
    with caplog.at_level(logging.WARNING):
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            code, tokens = await full_room(http, 3, seed=808)
            async with SeatClient(server.ws_url, code, tokens[0]) as seat0:
                state0 = await seat0.wait_type("state")
                for token in list(tokens.values())[1:]:  # the turn's other picks
                    assert (
                        await play(http, code, token, (await state_of(http, code, token)).json())
                    ).status_code == 200
                    acknowledged += 1
                proxy.cut()
                assert_database_down(await play(http, code, tokens[0], state0))
                assert_database_down(await state_of(http, code, tokens[1]))
                assert_database_down(await http.get(f"/api/rooms/{code}"))
                assert_database_down(await http.post("/api/rooms", json={"name": "Zed"}))
                assert_database_down(await http.get("/healthz"))
                start = len(seat0.messages)
                await seat0.send(
                    {"type": "action", "action": state0["legal_actions"][0], "version": 0, "action_id": "a"}
                )
                error = await seat0.wait_type("error", start=start)
                assert error["code"] == "database_down" and error["action_id"] == "a"
                await seat0.send({"type": "ping", "data": "still here"})
                await seat0.wait_type("pong", data="still here")
                async with SeatClient(server.ws_url, code, tokens[2]) as late:
                    assert (await late.wait_type("error"))["code"] == "database_down"
                    for _ in range(100):
                        if late.closed is not None:
                            break
                        await asyncio.sleep(0.05)
                    assert late.closed is not None and late.closed.rcvd is not None and late.closed.rcvd.code == 1013
                proxy.restore()
                for _ in range(300):  # the rest of the game, each seat in turn
                    for token in tokens.values():
                        r = await state_of(http, code, token)
                        assert r.status_code == 200, r.text
                        if r.json()["legal_actions"]:
                            assert (await play(http, code, token, r.json())).status_code == 200
                            acknowledged += 1
                    if r.json()["status"] == "finished":
                        break
                assert r.json()["status"] == "finished"
            history = (await http.get(f"/api/rooms/{code}/game/history")).json()
    assert len(history["steps"]) == history["version"] == acknowledged
    assert not [r for r in caplog.records if r.getMessage().startswith("unhandled error")]


async def test_connections_dropped_by_the_database_cost_no_action(server: LiveServer, proxy: TcpProxy) -> None:
    """The pooled connections die (the database restarted, a proxy dropped them) with nobody
    writing: the next action is stored on a fresh connection, not refused."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=809)
        token0, token1, token2 = tokens.values()
        assert (await play(http, code, token0, (await state_of(http, code, token0)).json())).status_code == 200
        state = (await state_of(http, code, token1)).json()
        proxy.cut()
        proxy.restore()
        r = await play(http, code, token1, state)
        assert r.status_code == 200, r.text
        assert (await play(http, code, token2, (await state_of(http, code, token2)).json())).status_code == 200


async def version_reaches(http: httpx.AsyncClient, code: str, token: str, version: int, within: float) -> int:
    """The game's version once it reaches `version` (or after `within` seconds)."""
    seen = -1
    for _ in range(int(within / 0.1)):
        r = await state_of(http, code, token)
        if r.status_code == 200 and (seen := r.json()["version"]) >= version:
            break
        await asyncio.sleep(0.1)
    return seen


async def test_bots_play_on_once_the_database_is_back(server: LiveServer, proxy: TcpProxy) -> None:
    """The server's bots find the database down when they pick: they try again until it is back
    (they once stopped for good, and the game waited for them forever)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        r = await http.post("/api/rooms", json={"name": "Ada", "players": 3, "bots": [{"kind": "random"}] * 2})
        code, token = r.json()["code"], r.json()["token"]
        assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
        assert (await play(http, code, token, (await state_of(http, code, token)).json())).status_code == 200
        proxy.cut()  # the bots pick 0.5 s after the start
        await asyncio.sleep(2)
        proxy.restore()
        assert await version_reaches(http, code, token, 3, within=15) >= 3


async def test_the_clock_waits_for_the_database_between_tries(
    server: LiveServer, proxy: TcpProxy, caplog: pytest.LogCaptureFixture
) -> None:
    """The turn clock decides for a seat while the database is down: it tries again every second
    (not in a busy loop), and decides once it is back."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=810, clock={"mode": "turn", "seconds": 1})
        for token in list(tokens.values())[1:]:
            assert (await play(http, code, token, (await state_of(http, code, token)).json())).status_code == 200
        with caplog.at_level(logging.WARNING, logger="wonders.clocks"):
            proxy.cut()  # seat 0's second runs out meanwhile
            await asyncio.sleep(3)
            proxy.restore()
            assert await version_reaches(http, code, tokens[1], 3, within=15) >= 3
        tries = [r for r in caplog.records if r.name == "wonders.clocks"]
        assert 1 <= len(tries) <= 5, [r.getMessage() for r in tries]


class FailingOnce:
    """A RoomService whose next `load` fails as a database that went away would."""

    def __init__(self, rooms: Any) -> None:
        self.rooms, self.failed = rooms, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rooms, name)

    async def load(self, code: str) -> Any:
        if not self.failed:
            self.failed = True
            raise StorageDown("connection refused")
        return await self.rooms.load(code)


async def test_a_room_update_the_database_failed_is_read_again(server: LiveServer) -> None:
    """A connection's room is re-read after a change; when that read fails, it is tried again (it was
    once dropped, and the connection kept showing the room as it was)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, start=False)
        async with SeatClient(server.ws_url, code, tokens[0]) as host:
            await host.wait_type("welcome")
            hub = server.services.hub
            hub.rooms = failing = FailingOnce(hub.rooms)
            assert (await http.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[2]))).status_code == 200
            await host.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][2]["kind"] == "free")
            assert failing.failed


async def test_a_server_whose_database_does_not_answer_says_so_at_start() -> None:
    settings = make_settings("postgresql://postgres:hunter2@127.0.0.1:1/test")
    with pytest.raises(RuntimeError) as failed:
        await Services.start(settings)
    message = str(failed.value)
    assert "the database at 127.0.0.1:1 does not answer" in message and "hunter2" not in message
