"""`accepted` (and the REST answer) carries the version right after the action's own step (seq + 1),
even when other steps are applied while the action is being announced."""

import asyncio
import secrets
from typing import Any

import httpx
import pytest

from tests.server.conftest import _clear_postgres, app_client, make_settings
from tests.server.helpers import bearer, full_room
from tests.server.live import LiveServer
from tests.server.play import play_lockstep


async def legal(client: httpx.AsyncClient, code: str, token: str) -> list[dict[str, Any]]:
    r = await client.get(f"/api/rooms/{code}/game/legal-actions", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()["legal_actions"]


async def test_the_answer_carries_its_own_steps_version(sqlite_url: str) -> None:
    """Seat 0's announcement is held up (as a Redis publish may be); meanwhile seat 1's action is
    applied. Seat 0 is still told version 1, the one right after its own step, not 2."""
    async with app_client(make_settings(sqlite_url)) as client:
        code, tokens = await full_room(client, 3, seed=11)
        games = client.app.state.services.games  # type: ignore[attr-defined]
        entered, release = asyncio.Event(), asyncio.Event()
        publish = games.broadcaster.publish

        async def held_publish(room: str, notice: dict[str, Any]) -> None:
            await publish(room, notice)
            if notice.get("kind") == "game" and notice.get("version") == 1:
                entered.set()
                await release.wait()

        games.broadcaster.publish = held_publish
        moves = {s: (await legal(client, code, tokens[s]))[0] for s in (0, 1)}
        first = asyncio.create_task(
            client.post(
                f"/api/rooms/{code}/game/actions",
                json={"action": moves[0], "version": 0},
                headers=bearer(tokens[0]),
            )
        )
        await asyncio.wait_for(entered.wait(), 10)
        r = await client.post(
            f"/api/rooms/{code}/game/actions", json={"action": moves[1], "version": 0}, headers=bearer(tokens[1])
        )
        assert r.status_code == 200, r.text
        assert (r.json()["seq"], r.json()["version"]) == (1, 2)
        release.set()
        r = await first
        assert r.status_code == 200, r.text
        assert (r.json()["seq"], r.json()["version"]) == (0, 1), "the version right after seat 0's own step"


def check_accepted(clients: dict[int, Any], steps: list[dict[str, Any]]) -> int:
    """Every `accepted` names its own step: version == seq + 1, the step is that seat's, and the
    `chosen` of that step (when the step has one) carries the same version and seat."""
    checked = 0
    for seat, client in clients.items():
        chosen = {m["version"]: m["seat"] for m in client.messages if m["type"] == "chosen"}
        for m in client.messages:
            if m["type"] != "accepted":
                continue
            assert m["version"] == m["seq"] + 1, f"seat {seat}: accepted {m}"
            assert steps[m["seq"]]["seat"] == seat, f"seat {seat}: step {m['seq']} is not its own"
            if m["version"] in chosen:
                assert chosen[m["version"]] == seat, f"seat {seat}: accepted {m}, chosen {chosen[m['version']]}"
            checked += 1
    return checked


@pytest.mark.postgres
async def test_versions_across_two_instances(pg_server_url: str, redis_url: str) -> None:
    """Two rounds of three rooms of seven seats, in each four seats on instance A and three on B, all acting at
    once every turn: every accepted carries the version right after its own step."""
    _clear_postgres(pg_server_url)
    servers = [
        LiveServer(make_settings(pg_server_url, redis_url=redis_url, instance_id=f"v{n}-{secrets.token_hex(2)}"))
        for n in range(2)
    ]
    for server in servers:
        server.start()
    try:
        a, b = servers
        async with httpx.AsyncClient(base_url=a.url, timeout=30) as http:

            async def one_room(seed: int) -> int:
                code, tokens = await full_room(http, 7, seed=seed)
                urls = {s: (a if s % 2 == 0 else b).ws_url for s in tokens}
                clients, _, _ = await play_lockstep(urls, code, tokens, seed=seed, change_picks=True)
                steps = (await http.get(f"/api/rooms/{code}/game/history")).json()["steps"]
                assert check_accepted(clients, steps) == len(steps)
                return len(steps)

            counts = []
            for round_ in range(2):
                counts += await asyncio.gather(*(one_room(700 + 10 * round_ + i) for i in range(3)))
        assert min(counts) > 100
    finally:
        for server in servers:
            server.stop()
