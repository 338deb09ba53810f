"""Long polls for REST clients: `GET /game?after=V&wait=S` answers as soon as the game moves past
version V (a step of this instance, or of another one through Redis), at once if it already has,
and with the state unchanged once S seconds pass; its bounds are stated and checked."""

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.live import AppProcess, free_port, sqlite_url
from tests.server.conftest import live_sqlite_server, two_instances
from tests.server.helpers import bearer, error_of, full_room, until
from tests.server.live import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    with live_sqlite_server(tmp_path_factory, "long-poll") as live:
        yield live


async def state(http: httpx.AsyncClient, code: str, token: str, **params: Any) -> dict[str, Any]:
    r = await http.get(f"/api/rooms/{code}/game", params=params, headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


async def act(http: httpx.AsyncClient, code: str, token: str) -> None:
    now = await state(http, code, token)
    r = await http.post(
        f"/api/rooms/{code}/game/actions",
        json={"action": now["legal_actions"][0], "version": now["version"]},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text


async def test_a_long_poll_answers_when_another_seat_acts(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        code, tokens = await full_room(http, 3)
        version = (await state(http, code, tokens[0]))["version"]
        poll = asyncio.create_task(state(http, code, tokens[0], after=version, wait=30))
        await asyncio.sleep(0.3)
        assert not poll.done()  # nothing happened yet: it waits
        await act(http, code, tokens[1])
        moved = await asyncio.wait_for(poll, 10)  # woken by the step, long before its 30 s
        assert moved["version"] == version + 1
        assert moved["legal_actions"]  # Ada's own view: Bob's pick is secret, hers still to make


async def test_a_long_poll_answers_at_once_when_the_game_has_moved_and_unchanged_at_its_end(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        code, tokens = await full_room(http, 3)
        version = (await state(http, code, tokens[0]))["version"]
        await act(http, code, tokens[2])
        already = await asyncio.wait_for(state(http, code, tokens[0], after=version, wait=30), 10)
        assert already["version"] == version + 1
        unchanged = await state(http, code, tokens[0], after=version + 1, wait=1)
        assert unchanged["version"] == version + 1
        spectator = await http.get(f"/api/rooms/{code}/game", params={"after": version + 1, "wait": 1})
        assert spectator.status_code == 200 and spectator.json()["seat"] is None


async def test_long_poll_bounds_are_stated_and_checked(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        code, tokens = await full_room(http, 3)
        for params, field in (({"after": 0, "wait": 31}, "wait"), ({"after": -1, "wait": 1}, "after")):
            r = await http.get(f"/api/rooms/{code}/game", params=params, headers=bearer(tokens[0]))
            assert r.status_code == 422 and error_of(r) == "invalid_request", r.text
            assert f"query.{field}" in r.json()["error"]["message"]
        schema = (await http.get("/openapi.json")).json()
        parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/rooms/{code}/game"]["get"]["parameters"]}
        assert parameters["wait"]["maximum"] == 30 and parameters["wait"]["minimum"] == 0


@pytest.mark.postgres
async def test_a_long_poll_hears_of_a_step_stored_by_another_instance(pg_server_url: str, redis_url: str) -> None:
    async with two_instances(pg_server_url, redis_url, "poll") as (_, _, on_a, on_b):
        code, tokens = await full_room(on_a, 3)
        version = (await state(on_b, code, tokens[0]))["version"]
        poll = asyncio.create_task(state(on_b, code, tokens[0], after=version, wait=30))
        await asyncio.sleep(0.3)
        await act(on_a, code, tokens[1])
        moved = await asyncio.wait_for(poll, 10)
        assert moved["version"] == version + 1


async def test_a_stopping_server_answers_its_long_polls(tmp_path: Path) -> None:
    """SIGTERM (a deploy): the server waits for the requests in flight before it stops, so a long
    poll must answer at once, the state as it is (it held the stop for its whole wait before)."""
    server = AppProcess(sqlite_url(tmp_path / "wonders.db"), free_port(), tmp_path / "server.log")
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            code, tokens = await full_room(http, 3)
            version = (await state(http, code, tokens[0]))["version"]
            poll = asyncio.create_task(
                http.get(f"/api/rooms/{code}/game", params={"after": version, "wait": 30}, headers=bearer(tokens[0]))
            )

            async def poll_waiting() -> bool:  # the server holds it
                return "wonders_long_polls_waiting 1.0" in (await http.get("/metrics")).text

            await until(poll_waiting, within=10)
            stopped = await asyncio.to_thread(server.terminate, 10.0)  # the soak's bound for a stop
            answer = await asyncio.wait_for(poll, 5)
        assert stopped is not None, server.log_tail()
        assert answer.status_code == 200 and answer.json()["version"] == version
        assert answer.headers["connection"] == "close"
    finally:
        server.stop()
