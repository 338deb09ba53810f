"""Bot levels by name (easy, medium, hard) wherever a room takes a bot: bot seats, a person's seat
handed to a bot, the timeout bot; the hard bot's budget is the server's BOT_HARD_BUDGET_MS."""

from typing import Any

import httpx
import pytest

from app.bots import BOTS, GreedyBot, Level, levels
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import bearer, create_room, error_of, join, until
from tests.server.test_seats import chosen, state


async def test_rooms_take_bots_by_level(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, bot_hard_budget_ms=250)) as client:
        bots = [{"kind": "easy", "seat": 1}, {"kind": "hard", "seat": 2}]
        code, host = await create_room(client, "P0", players=4, bots=bots, timeout_bot="medium")
        r = await client.post(f"/api/rooms/{code}/bots", json={"kind": "medium", "seat": 3}, headers=bearer(host))
        assert r.status_code in (200, 201), r.text
        room = r.json()
        assert [s["bot"] for s in room["seats"]] == [None, "easy", "hard", "medium"]
        assert room["settings"]["timeout_bot"] == "medium"

        r = await client.post(f"/api/rooms/{code}/start", headers=bearer(host))
        assert r.status_code == 200, r.text

        async def bots_have_chosen() -> bool:
            st = await state(client, code, host)
            return all(chosen(st, seat) for seat in (1, 2, 3))

        await until(bots_have_chosen)
        services: Any = client.app.state.services  # type: ignore[attr-defined]
        runtime = next(iter(services.games.runtimes.values()))
        played = {seat: (bot.name, type(bot)) for seat, bot in runtime.bots.items()}
        hard = levels(BOTS, 250)["hard"]
        assert services.games.bot_levels["hard"] == hard
        assert played == {1: ("easy", BOTS["greedy"]), 2: ("hard", BOTS[hard.kind]), 3: ("medium", BOTS["heuristic"])}


async def test_a_persons_seat_is_handed_to_a_bot_level(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url)) as client:
        code, host = await create_room(client, "P0", players=3)
        for name in ("P1", "P2"):
            await join(client, code, name)
        assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(host))).status_code == 200
        r = await client.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "hard"}, headers=bearer(host))
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["bot_plays"] == "hard"
        r = await client.post(f"/api/rooms/{code}/seats/2/bot", json={"kind": "expert"}, headers=bearer(host))
        assert r.status_code == 422 and error_of(r) == "bad_bot"
        assert "levels: ['easy', 'medium', 'hard']" in r.json()["error"]["message"]
        assert (await client.get(f"/api/rooms/{code}")).json()["seats"][2]["bot_plays"] is None


async def test_the_schema_lists_every_bot_name(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url)) as client:
        schema = (await client.get("/openapi.json")).json()["components"]["schemas"]
    names = [*BOTS, "easy", "medium", "hard"]
    assert schema["BotSeatIn"]["properties"]["kind"]["enum"] == names
    assert schema["HandSeatIn"]["properties"]["kind"]["enum"] == names
    assert "hard" in schema["HandSeatIn"]["properties"]["kind"]["description"]


def test_the_hard_level_is_the_search_bot_with_the_servers_budget_where_there_is_one() -> None:
    assert levels({"random", "greedy", "heuristic", "ismcts"}, 250)["hard"] == Level("ismcts", {"budget_ms": 250})
    assert levels({"random", "greedy", "heuristic"}, 250)["hard"] == Level("heuristic")
    assert levels(BOTS)["easy"] == Level("greedy") and levels(BOTS)["medium"] == Level("heuristic")


async def test_an_unknown_timeout_bot_is_refused(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/rooms", json={"name": "Ada", "timeout_bot": "expert"})
    assert r.status_code == 422, r.text
    assert "levels" in r.json()["error"]["message"]


async def test_the_server_answers_while_a_hard_bot_thinks(sqlite_url: str) -> None:
    """A search bot thinks for its whole budget in a thread: the server answers meanwhile (before,
    the bot's search ran in the event loop and nothing was answered until it had chosen)."""
    async with app_client(make_settings(sqlite_url, bot_hard_budget_ms=4000)) as client:
        code, host = await create_room(client, "P0", game="duel", bots=[{"kind": "hard", "seat": 1}], seed=3)
        assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(host))).status_code == 200
        answered_while_thinking = 0
        for _ in range(2):  # the Wonder draft: seat 0 picks, then the bot thinks
            st = await state(client, code, host)
            if 0 not in st["to_act"]:
                break
            body = {"action": st["legal_actions"][0], "version": st["version"]}
            r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(host))
            assert r.status_code == 200, r.text
            after = await state(client, code, host)
            if 1 in after["to_act"] and after["version"] == r.json()["version"]:
                answered_while_thinking += 1
                assert (await client.get("/healthz")).status_code == 200
                assert (await state(client, code, host))["version"] == after["version"]  # still thinking

            async def bot_moved(version: int = after["version"]) -> bool:
                return (await state(client, code, host))["version"] > version

            await until(bot_moved, within=30)
        assert answered_while_thinking >= 1


async def test_a_bot_sits_only_at_a_game_it_plays(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each bot says which game kinds it plays (Bot.plays): a room refuses it in another game's seat,
    and a room whose game was changed under its bots does not start."""
    monkeypatch.setattr(GreedyBot, "plays", frozenset({"classic"}))  # as if the greedy bot knew 7 Wonders only
    async with app_client(make_settings(sqlite_url)) as client:
        r = await client.post("/api/rooms", json={"name": "Ada", "game": "duel", "bots": [{"kind": "easy"}]})
        assert r.status_code == 422 and error_of(r) == "bad_bot", r.text
        assert r.json()["error"]["message"] == "the easy bot does not play 7 Wonders Duel"
        code, host = await create_room(client, "Ada", players=3, bots=[{"kind": "greedy"}, {"kind": "random"}])
        r = await client.patch(f"/api/rooms/{code}", json={"game": "duel", "players": 3}, headers=bearer(host))
        assert error_of(r) == "bad_settings", r.text  # Duel has two seats: free one first
        r = await client.delete(f"/api/rooms/{code}/seats/2", headers=bearer(host))
        assert r.status_code == 200, r.text
        r = await client.patch(f"/api/rooms/{code}", json={"game": "duel"}, headers=bearer(host))
        assert r.status_code == 200, r.text
        seats = r.json()["seats"]
        assert [s["bot"] for s in seats] == [None, "greedy"]
        r = await client.post(f"/api/rooms/{code}/start", headers=bearer(host))
        assert r.status_code == 422 and error_of(r) == "bad_bot", r.text
        assert (await client.get(f"/api/rooms/{code}")).json()["status"] == "open"  # nothing started
        r = await client.post(f"/api/rooms/{code}/bots", json={"kind": "greedy"}, headers=bearer(host))
        assert r.status_code == 422 and error_of(r) == "bad_bot", r.text
