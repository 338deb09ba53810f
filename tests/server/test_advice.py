"""Hints (a room setting; REST and the websocket; everyone sees a hint used) and reviews of finished
games (202 while computed in a worker process, then kept; recomputed after a restart; the queue's
length in /metrics), on SQLite and PostgreSQL."""

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.bots.ismcts import action_key
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import SeatClient, bearer, create_room, error_of, until
from tests.server.play import hidden_from

FAST = {"hint_budget_ms": 30, "review_budget_ms": 3, "review_workers": 1}


async def bot_room(
    client: httpx.AsyncClient, game: str = "classic", players: int = 3, **settings: Any
) -> tuple[str, str]:
    """A room: a person at seat 0, random bots at the others, started."""
    code, token = await create_room(
        client,
        "Ada",
        game=game,
        players=players,
        seed=11,
        bots=[{"kind": "random", "seat": s} for s in range(1, players)],
        **settings,
    )
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(token))
    assert r.status_code == 200, r.text
    return code, token


async def my_turn(client: httpx.AsyncClient, code: str, token: str) -> dict[str, Any]:
    async def owing() -> dict[str, Any] | None:
        state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
        return state if state["legal_actions"] or state["view"].get("result") else None

    return await until(owing)


async def play_out(client: httpx.AsyncClient, code: str, token: str) -> int:
    """Seat 0 plays its first legal action until the game ends; the game's id."""
    while True:
        state = await my_turn(client, code, token)
        if not state["legal_actions"]:
            return state["game_id"]
        r = await client.post(
            f"/api/rooms/{code}/game/actions",
            headers=bearer(token),
            json={"action": state["legal_actions"][0], "version": state["version"]},
        )
        assert r.status_code in (200, 409), r.text


def real_game(client: httpx.AsyncClient, game_id: int) -> Any:
    return client.app.state.services.games.runtimes[game_id].frame.game  # type: ignore[attr-defined]


async def test_a_seat_asks_for_a_hint_and_everyone_sees_it(database_url: str) -> None:
    async with app_client(make_settings(database_url, **FAST)) as client:
        code, token = await bot_room(client, hints=True)
        room = (await client.get(f"/api/rooms/{code}")).json()
        assert room["settings"]["hints"] is True
        state = await my_turn(client, code, token)
        r = await client.get(f"/api/rooms/{code}/game/hint", headers=bearer(token))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["version"] == state["version"] and body["seat"] == 0
        actions = body["actions"]
        assert 1 <= len(actions) <= 3 and actions[0]["points"] == 0
        assert all(a["action"] in state["legal_actions"] and a["points"] <= 0 and a["why"] for a in actions)
        assert len({action_key(a["action"]) for a in actions}) == len(actions)
        hidden = hidden_from(real_game(client, state["game_id"]), 0)
        assert not [n for n in hidden for a in actions if n in a["why"] or n in str(a["action"])]
        chat = (await client.get(f"/api/rooms/{code}/chat")).json()["messages"]
        assert [(m["kind"], m["seat"], m["name"]) for m in chat] == [("hint", 0, "Ada")]
        again = await client.get(f"/api/rooms/{code}/game/hint", headers=bearer(token))
        assert again.json() == body  # the same hint, told once
        assert len((await client.get(f"/api/rooms/{code}/chat")).json()["messages"]) == 1
        assert "wonders_hints" in (await client.get("/metrics")).text

        off, off_token = await bot_room(client)
        await my_turn(client, off, off_token)
        r = await client.get(f"/api/rooms/{off}/game/hint", headers=bearer(off_token))
        assert r.status_code == 403 and error_of(r) == "hints_off"
        assert (await client.get(f"/api/rooms/{off}")).json()["settings"]["hints"] is False
        assert (await client.get(f"/api/rooms/{code}/game/hint")).status_code == 401
        r = await client.post("/api/rooms", json={"name": "Bo", "hints": "yes"})
        assert r.status_code == 422


async def test_a_hint_over_the_websocket(live_server: Any) -> None:
    async with httpx.AsyncClient(base_url=live_server.url) as client:
        code, token = await bot_room(client, game="duel", players=2, hints=True)
        await my_turn(client, code, token)
        async with (
            SeatClient(live_server.ws_url, code, token) as ws,
            SeatClient(live_server.ws_url, code, None) as watcher,
        ):
            await ws.wait_type("state")
            await ws.send({"type": "hint"})
            hint = await ws.wait_type("hint")
            assert hint["actions"] and hint["actions"][0]["points"] == 0
            said = await watcher.wait_for(lambda m: m["type"] == "chat" and m["kind"] == "hint")
            assert said["seat"] == 0 and said["text"]


async def test_a_finished_games_review_is_computed_once_in_a_worker(database_url: str) -> None:
    async with app_client(make_settings(database_url, **FAST)) as client:
        code, token = await bot_room(client, spectators="after")
        state = await my_turn(client, code, token)
        r = await client.get(f"/api/rooms/{code}/games/{state['game_id']}/review")
        assert r.status_code == 403  # a running game's history is not shown to spectators here
        r = await client.get(f"/api/rooms/{code}/games/{state['game_id']}/review", headers=bearer(token))
        assert r.status_code == 409 and error_of(r) == "game_running"
        game_id = await play_out(client, code, token)
        r = await client.get(f"/api/rooms/{code}/games/{game_id}/review")
        assert r.status_code == 202 and r.json()["status"] == "pending"
        started = time.monotonic()
        assert (await client.get("/healthz")).status_code == 200  # the server answers meanwhile
        assert time.monotonic() - started < 2
        assert "wonders_review_queue" in (await client.get("/metrics")).text

        async def done() -> dict[str, Any] | None:
            r = await client.get(f"/api/rooms/{code}/games/{game_id}/review")
            return r.json() if r.status_code == 200 else None

        review = await until(done, within=120, every=0.2)
        assert review["status"] == "done" and review["budget_ms"] == 3
        history = (await client.get(f"/api/rooms/{code}/game/history", params={"game": game_id})).json()
        seats = review["seats"]
        assert [s["seat"] for s in seats] == [0, 1, 2]
        assert sorted(d["step"] for s in seats for d in s["decisions"]) == list(range(len(history["steps"])))
        for s in seats:
            for d in s["decisions"]:
                assert d["action"] == history["steps"][d["step"]]["action"] and d["points_lost"] >= 0
            assert len(s["swings"]) <= 3
        advice = client.app.state.services.advice  # type: ignore[attr-defined]
        assert advice.computed == 1
        assert (await client.get(f"/api/rooms/{code}/games/{game_id}/review")).json() == review
        assert advice.computed == 1  # kept, not computed again


async def test_a_review_in_flight_is_computed_after_a_restart(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, **{**FAST, "review_workers": 0})) as client:
        code, token = await bot_room(client)
        game_id = await play_out(client, code, token)
        store = client.app.state.services.store  # type: ignore[attr-defined]
        now = datetime.now(UTC)
        assert await store.claim_review(game_id, 3, now, now)  # its instance stopped before its lease ran out
        r = await client.get(f"/api/rooms/{code}/games/{game_id}/review")
        assert r.status_code == 503 and error_of(r) == "reviews_off"
    async with app_client(make_settings(sqlite_url, **FAST)) as client:
        advice = client.app.state.services.advice  # type: ignore[attr-defined]
        await until(lambda: advice.computed == 1, within=120, every=0.2)  # nobody asked again
        r = await client.get(f"/api/rooms/{code}/games/{game_id}/review")
        assert r.status_code == 200 and r.json()["status"] == "done"


@pytest.mark.parametrize("count", [1])
async def test_a_full_queue_is_refused(sqlite_url: str, count: int) -> None:
    settings = make_settings(sqlite_url, **{**FAST, "review_queue": count, "review_budget_ms": 50})
    async with app_client(settings) as client:
        games = []
        for _ in range(3):
            code, token = await bot_room(client)
            games.append((code, await play_out(client, code, token)))
        answers = [(await client.get(f"/api/rooms/{c}/games/{g}/review")) for c, g in games]
        codes = [r.status_code for r in answers]
        assert 202 in codes and 503 in codes, codes
        refused = next(r for r in answers if r.status_code == 503)
        assert error_of(refused) == "review_queue_full"
        await asyncio.sleep(0)
