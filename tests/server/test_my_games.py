"""My games (app/rooms/my_games.py): every seat a browser holds, in one request: your move first (with
its deadline), then waiting for others, waiting to start, finished (with the result), and tokens that
hold no seat said to be gone; never a hand, a token or another room's data; a game nobody holds in
memory listed from its kept state without loading it (or loaded when its kept state is behind its
log); bad bodies and too many tokens refused naming `tokens`; a link that moves every seat to
another device."""

import json
import secrets
import time
from datetime import datetime
from typing import Any

import httpx
from sqlalchemy import event

from app.rooms.context import Services
from app.rooms.my_games import MAX_TOKENS
from tests.server.helpers import SeatClient, bearer, create_room, error_of, full_room, join, until
from tests.server.live import LiveServer

HOUR = {"mode": "turn", "seconds": 3600}


def services_of(client: httpx.AsyncClient) -> Services:
    return client.app.state.services  # type: ignore[attr-defined]


async def listed(client: httpx.AsyncClient, tokens: list[str]) -> dict[str, Any]:
    r = await client.post("/api/my-games", json={"tokens": tokens})
    assert r.status_code == 200, r.text
    return r.json()


async def state(client: httpx.AsyncClient, code: str, token: str) -> dict[str, Any]:
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


async def act(client: httpx.AsyncClient, code: str, token: str) -> None:
    """The seat makes its first legal decision."""
    seen = await state(client, code, token)
    body = {"action": seen["legal_actions"][0], "version": seen["version"]}
    r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))
    assert r.status_code == 200, r.text


async def your_move_room(client: httpx.AsyncClient, seed: int = 3) -> tuple[str, str]:
    """Ann and two bots on an hour's clock: the bots pick at once, Ann owes hers."""
    r = await client.post(
        "/api/rooms",
        json={
            "name": "Ann",
            "players": 3,
            "seed": seed,
            "clock": HOUR,
            "bots": [{"kind": "random"}, {"kind": "random"}],
        },
    )
    assert r.status_code == 201, r.text
    code, token = r.json()["code"], r.json()["token"]
    assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200

    async def bots_picked() -> bool:
        return (await state(client, code, token))["to_act"] == [0]

    await until(bots_picked)
    return code, token


async def finished_room(client: httpx.AsyncClient) -> tuple[str, str]:
    """Ann hands her own seat to a bot, and the bots play the game to its end."""
    r = await client.post(
        "/api/rooms", json={"name": "Ann", "game": "duel", "seed": 4, "bots": [{"kind": "random", "seat": 1}]}
    )
    code, token = r.json()["code"], r.json()["token"]
    assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
    r = await client.post(f"/api/rooms/{code}/seats/0/bot", json={"kind": "random"}, headers=bearer(token))
    assert r.status_code == 200, r.text

    async def over() -> bool:
        return (await client.get(f"/api/rooms/{code}")).json()["status"] == "finished"

    await until(over, within=60)
    return code, token


async def test_your_move_first_then_waiting_then_to_start_then_finished_then_gone(client: httpx.AsyncClient) -> None:
    mine_code, mine = await your_move_room(client)
    waiting_code, waiting_tokens = await full_room(client, 3, seed=5)
    await act(client, waiting_code, waiting_tokens[0])
    lobby_code, lobby = await create_room(client, "Ann", players=3)
    over_code, over = await finished_room(client)
    unknown = secrets.token_urlsafe(32)
    tokens = [lobby, unknown, over, waiting_tokens[0], mine]

    before = time.time()
    answer = await listed(client, tokens)
    games = answer["games"]
    assert [(g["status"], g["index"]) for g in games] == [
        ("your_move", 4),
        ("waiting", 3),
        ("lobby", 0),
        ("finished", 2),
        ("gone", 1),
    ]
    assert answer["your_move"] == 1
    yours, waiting, lobby_entry, finished, gone = games
    assert (yours["code"], yours["seat"], yours["name"], yours["game"]) == (mine_code, 0, "Ann", "classic")
    assert yours["url"] == f"/room.html?code={mine_code}"
    assert (yours["age"], yours["turn"], yours["to_act"], yours["clock"]) == (1, 1, [0], "turn")
    assert [p["kind"] for p in yours["players"]] == ["human", "bot", "bot"]
    deadline = datetime.fromisoformat(yours["deadline"]).timestamp()
    assert before + 3500 < deadline < time.time() + 3600  # an hour from when Ann came to owe her pick
    assert (waiting["code"], waiting["to_act"], waiting["deadline"]) == (waiting_code, [1, 2], None)
    assert [p["name"] for p in waiting["players"]] == ["P0", "P1", "P2"]
    assert (lobby_entry["code"], lobby_entry["room_status"], lobby_entry["game_id"]) == (lobby_code, "open", None)
    assert lobby_entry["host"] and [p["kind"] for p in lobby_entry["players"]] == ["human", "free", "free"]
    result = (await client.get(f"/api/rooms/{over_code}/game/result", headers=bearer(over))).json()["result"]
    assert (finished["code"], finished["game"], finished["bot_plays"]) == (over_code, "duel", "random")
    assert finished["result"]["winners"] == result["winners"]
    assert [(s["seat"], s["total"]) for s in finished["result"]["scores"]] == [
        (s["seat"], s["total"]) for s in result["scores"]
    ]
    assert finished["result"]["victory"] == result["victory"] and finished["finished_at"]
    assert gone == {**gone, "index": 1, "status": "gone", "code": None, "players": []}


async def test_nothing_secret_and_nothing_of_another_room(client: httpx.AsyncClient) -> None:
    code, mine = await your_move_room(client, seed=8)
    other_code, other_tokens = await full_room(client, 3, seed=9)
    hand = (await state(client, code, mine))["view"]["hand"]
    others_hand = (await state(client, other_code, other_tokens[1]))["view"]["hand"]
    assert hand and others_hand
    r = await client.post("/api/my-games", json={"tokens": [mine]})
    text = r.text
    for card in {*hand, *others_hand}:
        assert card not in text  # no hand, no card of anyone's
    assert mine not in text and other_code not in text
    for token in other_tokens.values():
        assert token not in text
    (entry,) = r.json()["games"]
    assert set(entry) == set(json.loads(text)["games"][0])
    assert "view" not in entry and "legal_actions" not in entry and "seed" not in json.dumps(entry)


async def test_bad_bodies_and_too_many_tokens_are_refused_naming_tokens(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/my-games", json={"tokens": ["t" * 40] * (MAX_TOKENS + 1)})
    assert r.status_code == 422 and error_of(r) == "invalid_request"
    assert "tokens" in r.json()["error"]["message"] and str(MAX_TOKENS) in r.json()["error"]["message"]
    for body in (
        {},
        {"tokens": "abc"},
        {"tokens": [5]},
        {"tokens": [""]},
        {"tokens": ["t" * 129]},
        {"tokens": [], "x": 1},
    ):
        r = await client.post("/api/my-games", json=body)
        assert r.status_code == 422, (body, r.text)
        assert "tokens" in r.json()["error"]["message"] or "x" in r.json()["error"]["message"], r.text
    r = await client.post("/api/my-games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and error_of(r) == "bad_json"
    empty = await listed(client, [])
    assert (empty["games"], empty["your_move"]) == ([], 0)
    r = await client.get("/api/my-games")
    assert r.status_code == 405  # the tokens go in a body, never in a URL
    r = await client.post("/api/my-games/move-link", json={"tokens": []})
    assert r.status_code == 422 and "tokens" in r.json()["error"]["message"]
    r = await client.post("/api/my-games/move-link", json={"tokens": ["t" * 40] * (MAX_TOKENS + 1)})
    assert r.status_code == 422 and "tokens" in r.json()["error"]["message"]
    r = await client.post("/api/my-games/move-link", json={"tokens": [secrets.token_urlsafe(32)]})
    assert r.status_code == 404 and error_of(r) == "no_seats"
    for body in ({}, {"token": ""}, {"token": "t" * 129}, {"token": 5}):
        r = await client.post("/api/my-games/move", json=body)
        assert r.status_code == 422 and "token" in r.json()["error"]["message"], (body, r.text)


async def test_a_game_nobody_holds_is_listed_from_its_kept_state(client: httpx.AsyncClient) -> None:
    services = services_of(client)
    code, mine = await your_move_room(client, seed=11)
    game_id = (await client.get(f"/api/rooms/{code}")).json()["game"]["id"]
    loaded = await listed(client, [mine])
    assert await services.games.put_away(services.games.runtimes[game_id])
    assert game_id not in services.games.runtimes
    after = await listed(client, [mine])
    assert {**after, "server_time": None} == {**loaded, "server_time": None}
    assert game_id not in services.games.runtimes  # listed without loading it
    assert after["games"][0]["deadline"] and after["games"][0]["turn"] == 1

    # a kept state behind the log (this instance stopped without putting it away, say): loaded to list it
    rt = await services.games.runtime(game_id)
    version = rt.version
    await act(client, code, mine)
    await until(lambda: rt.frame.version > version and rt.frame.to_act == (0,))  # the bots picked again
    services.games.unload(game_id)
    answer = await listed(client, [mine])
    assert game_id in services.games.runtimes
    assert (answer["games"][0]["status"], answer["games"][0]["turn"]) == ("your_move", 2)


async def test_a_move_link_moves_every_seat_to_another_device(client: httpx.AsyncClient) -> None:
    mine_code, mine = await your_move_room(client, seed=13)
    waiting_code, waiting_tokens = await full_room(client, 3, seed=14)
    lobby_code, lobby = await create_room(client, "Ann", players=3)
    kept_code, kept = await create_room(client, "Ann", players=3)
    tokens = [mine, waiting_tokens[0], lobby]
    r = await client.post("/api/my-games/move-link", json={"tokens": [*tokens, secrets.token_urlsafe(32)]})
    assert r.status_code == 201, r.text
    link = r.json()
    assert link["seats"] == 3 and link["url"] == f"/my-games.html#move={link['token']}"
    assert (await listed(client, tokens))["your_move"] == 2  # nothing moves until the link is opened

    r = await client.post("/api/my-games/move", json={"token": link["token"]})
    assert r.status_code == 200, r.text
    moved = r.json()["seats"]
    assert sorted((m["code"], m["seat"], m["name"]) for m in moved) == sorted(
        [(mine_code, 0, "Ann"), (waiting_code, 0, "P0"), (lobby_code, 0, "Ann")]
    )
    new_tokens = [m["token"] for m in moved]
    assert not set(new_tokens) & set(tokens)
    old = await listed(client, [*tokens, kept])
    assert [g["status"] for g in old["games"]] == ["lobby", "gone", "gone", "gone"]  # the seat not in it stays
    assert old["games"][0]["code"] == kept_code
    new = await listed(client, new_tokens)
    assert sorted(g["code"] for g in new["games"]) == sorted([mine_code, waiting_code, lobby_code])
    assert new["your_move"] == 2
    r = await client.get(f"/api/rooms/{mine_code}/game", headers=bearer(mine))
    assert r.status_code == 401 and error_of(r) == "bad_token"
    await act(client, mine_code, next(m["token"] for m in moved if m["code"] == mine_code))

    r = await client.post("/api/my-games/move", json={"token": link["token"]})
    assert r.status_code == 404 and error_of(r) == "unknown_link"  # it works once

    # a newer link for a seat replaces the older one (as a new rejoin link does)
    first = (await client.post("/api/my-games/move-link", json={"tokens": new_tokens})).json()
    lobby_token = next(m["token"] for m in moved if m["code"] == lobby_code)
    r = await client.post(f"/api/rooms/{lobby_code}/seats/0/rejoin-link", headers=bearer(lobby_token))
    assert r.status_code == 201
    again = (await client.post("/api/my-games/move", json={"token": first["token"]})).json()["seats"]
    assert sorted(m["code"] for m in again) == sorted([mine_code, waiting_code])
    assert (await client.post(f"/api/rooms/{lobby_code}/rejoin", json={"token": r.json()["token"]})).status_code == 200


async def test_a_socket_holding_a_moved_seat_loses_it(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=21)
        seat, other = await join(http, (await create_room(http, "Bo", players=3))[0], "Ann")
        assert seat == 1
        async with SeatClient(live_server.ws_url, code, tokens[0]) as ann:
            await ann.wait_type("welcome")
            link = (await http.post("/api/my-games/move-link", json={"tokens": [tokens[0], other]})).json()
            assert link["seats"] == 2
            moved = (await http.post("/api/my-games/move", json={"token": link["token"]})).json()["seats"]
            assert len(moved) == 2
            await ann.wait_for(lambda m: m["type"] == "error" and m["code"] == "seat_lost")


async def test_one_read_for_the_whole_list(client: httpx.AsyncClient) -> None:
    """However many tokens, the list reads the database in a few queries (not one per game)."""
    tokens = []
    for seed in range(30, 36):
        _, room_tokens = await full_room(client, 3, seed=seed)
        tokens.append(room_tokens[0])
    services = services_of(client)
    for game_id in list(services.games.runtimes):
        await services.games.put_away(services.games.runtimes[game_id])
    statements: list[str] = []
    engine = services.store.db.engine.sync_engine  # type: ignore[attr-defined]

    def count(*args: Any) -> None:
        if "wake_at" not in args[2]:  # the poll for due games runs meanwhile
            statements.append(args[2])

    event.listen(engine, "before_cursor_execute", count)
    try:
        answer = await listed(client, tokens)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert [g["status"] for g in answer["games"]] == ["your_move"] * len(tokens)
    assert len(statements) <= 5, statements
    assert not services.games.runtimes
