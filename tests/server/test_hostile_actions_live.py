"""Random hostile actions through a real server on SQLite and on PostgreSQL, in whole games of 7
Wonders, Armada and Duel against its bots: at each state where the seat acts, legal actions changed
in random ways (tests/hostile.py) go in over REST and over the websocket, some with an odd
`action_id` (what the database stores as text: NUL once failed PostgreSQL's whole batch), then a
legal one. Each is answered: a 4xx whose error names what was wrong, or an `error` message, or
accepted; never a 5xx, an `internal` error or a closed connection, and the REST keep-alive
connection is the same one throughout. The games end, and the server logs no error."""

import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.hostile import hostile_action, odd_value
from tests.server.conftest import live_postgres_server, live_sqlite_server
from tests.server.helpers import SeatClient, bearer, error_of
from tests.server.live import LiveServer

TRIES = 2  # hostile actions per state, over each of REST and the websocket
ROOMS = [
    {"players": 3, "bots": [{"kind": "random"}] * 2, "seed": 41},
    {"players": 3, "expansions": ["armada"], "bots": [{"kind": "random"}] * 2, "seed": 42},
    {"game": "duel", "bots": [{"kind": "random"}], "seed": 43},
]
NO_FLOOD_LIMIT = {"ws_rate_per_second": 10_000.0, "ws_rate_burst": 10_000}  # a game of hostile messages
ODD_IDS: list[Any] = ["\u0000", "a\u0000b", "tab\t", "\u007f", "é" * 64, "x" * 65, "", 7, None, ["a"]]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    if request.param == "sqlite":
        live = live_sqlite_server(tmp_path_factory, "hostile", **NO_FLOOD_LIMIT)
    else:
        live = live_postgres_server(request.getfixturevalue("pg_server_url"), **NO_FLOOD_LIMIT)
    with live as server:
        yield server


def body_text(action: Any, version: int) -> str:
    """The request body, NaN and infinities written as Python writes them (not JSON: refused)."""
    return json.dumps({"action": action, "version": version})


async def post_action(http: httpx.AsyncClient, code: str, token: str, action: Any, version: int) -> httpx.Response:
    headers = {**bearer(token), "content-type": "application/json"}
    return await http.post(f"/api/rooms/{code}/game/actions", content=body_text(action, version), headers=headers)


async def ws_action(client: SeatClient, action: Any, version: int, rng: random.Random) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "action", "action": action, "version": version}
    if rng.random() < 0.3:
        message["action_id"] = rng.choice([*ODD_IDS, odd_value(rng)])
    start = len(client.messages)
    await client.ws.send(json.dumps(message))  # NaN as in body_text
    return await client.wait_for(lambda m: m["type"] in ("accepted", "error"), start=start)


def port_of(response: httpx.Response) -> int:
    return response.extensions["network_stream"].get_extra_info("client_addr")[1]


async def play_hostile(server: LiveServer, http: httpx.AsyncClient, room: dict[str, Any], rng: random.Random) -> int:
    """One game: hostile actions then a legal one at each state of seat 0; the number sent."""
    r = await http.post("/api/rooms", json={"name": "Mallory", **room})
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
    ports, sent = set(), 0
    async with SeatClient(server.ws_url, code, token) as client:
        while True:
            r = await http.get(f"/api/rooms/{code}/game", headers=bearer(token))
            ports.add(port_of(r))
            state = r.json()
            if state["status"] == "finished":
                break
            if not state["legal_actions"]:
                await client.state_at_least(state["version"] + 1)
                continue
            legal, version = state["legal_actions"], state["version"]
            names = sorted({a["card"] for a in legal if isinstance(a.get("card"), str)})
            for _ in range(TRIES):
                r = await post_action(http, code, token, hostile_action(rng.choice(legal), rng, names), version)
                ports.add(port_of(r))
                assert r.status_code < 500, r.text
                if r.status_code >= 400:
                    assert error_of(r) != "internal"
                reply = await ws_action(client, hostile_action(rng.choice(legal), rng, names), version, rng)
                assert reply["type"] == "accepted" or (reply["code"] != "internal" and reply["message"]), reply
                sent += 2
            r = await post_action(http, code, token, rng.choice(legal), version)
            assert r.status_code == 200 or error_of(r) in ("stale", "duplicate", "game_over"), r.text
        assert client.closed is None
    assert len(ports) == 1, "the keep-alive connection was dropped"
    return sent


async def test_random_hostile_actions_are_answered_and_the_games_end(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(7)
    sent = 0
    with caplog.at_level(logging.WARNING):
        async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=httpx.Limits(max_connections=1)) as http:
            for room in ROOMS:
                sent += await play_hostile(server, http, room, rng)
    assert sent > 150
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
