"""A room's chat (app/rooms/chat.py): over REST and the websocket, heard by everyone in the room
(spectators read it when they may watch), the host deleting a message, bad messages refused with
what is wrong, a flood slowed down, and across two instances."""

import httpx
import pytest

from tests.server.conftest import app_client, make_settings, two_instances
from tests.server.helpers import SeatClient, bearer, error_of, full_room
from tests.server.live import LiveServer


async def say(client: httpx.AsyncClient, code: str, token: str, text: str) -> httpx.Response:
    return await client.post(f"/api/rooms/{code}/chat", json={"text": text}, headers=bearer(token))


async def test_seats_talk_and_everyone_reads_it(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, start=False)
    r = await say(client, code, tokens[0], "  Hello, Bo and Cy!  ")
    assert r.status_code == 201, r.text
    first = r.json()
    assert (first["seat"], first["name"], first["text"], first["deleted"]) == (0, "P0", "Hello, Bo and Cy!", False)
    assert first["at"].endswith("+00:00")
    assert (await say(client, code, tokens[1], "hi\nthere 🙂")).status_code == 201
    listed = (await client.get(f"/api/rooms/{code}/chat", headers=bearer(tokens[2]))).json()["messages"]
    assert [(m["seat"], m["text"]) for m in listed] == [(0, "Hello, Bo and Cy!"), (1, "hi\nthere 🙂")]
    assert listed[1]["id"] > listed[0]["id"]
    after = (await client.get(f"/api/rooms/{code}/chat", params={"after": first["id"]})).json()["messages"]
    assert [m["seat"] for m in after] == [1]  # a spectator reads it too (the room lets them watch live)


async def test_bad_messages_are_refused_with_what_is_wrong(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, start=False)
    cases = [("   ", "bad_chat"), ("a\x00b", "bad_chat"), ("x" * 501, "invalid_request"), ("", "invalid_request")]
    for text, wanted in cases:
        r = await say(client, code, tokens[0], text)
        assert r.status_code == 422 and error_of(r) == wanted, (text[:10], r.text)
        assert "chat" in r.text or "text" in r.text
    r = await client.post(f"/api/rooms/{code}/chat", json={"text": "hi"})
    assert r.status_code == 401 and error_of(r) == "missing_token"  # spectators do not write
    r = await client.post(f"/api/rooms/{code}/chat", json={"text": 5}, headers=bearer(tokens[0]))
    assert r.status_code == 422
    assert (await client.get(f"/api/rooms/{code}/chat", headers=bearer(tokens[0]))).json()["messages"] == []


async def test_a_flood_is_slowed_down(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, chat_messages=3, chat_window_seconds=60)) as client:
        code, tokens = await full_room(client, 3, start=False)
        for n in range(3):
            assert (await say(client, code, tokens[0], f"message {n}")).status_code == 201
        r = await say(client, code, tokens[0], "one too many")
        assert r.status_code == 429 and error_of(r) == "chat_too_fast"
        assert 0 < r.json()["error"]["details"]["retry_after_seconds"] <= 60
        assert (await say(client, code, tokens[1], "another seat's own count")).status_code == 201


async def test_the_host_deletes_a_message(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, start=False)
    said = (await say(client, code, tokens[1], "something rude")).json()
    r = await client.delete(f"/api/rooms/{code}/chat/{said['id']}", headers=bearer(tokens[2]))
    assert r.status_code == 403 and error_of(r) == "not_host"
    r = await client.delete(f"/api/rooms/{code}/chat/{said['id']}", headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["deleted"] and r.json()["text"] == ""
    listed = (await client.get(f"/api/rooms/{code}/chat")).json()["messages"]
    assert [(m["id"], m["deleted"], m["text"]) for m in listed] == [(said["id"], True, "")]
    r = await client.delete(f"/api/rooms/{code}/chat/{said['id'] + 100}", headers=bearer(tokens[0]))
    assert r.status_code == 404 and error_of(r) == "chat_not_found"


async def test_a_room_without_spectators_shows_them_no_chat(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, start=False, spectators="off")
    assert (await say(client, code, tokens[0], "just us")).status_code == 201
    r = await client.get(f"/api/rooms/{code}/chat")
    assert r.status_code == 403 and error_of(r) == "spectators_off"


async def test_the_chat_on_the_websocket(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=9)
        await say(http, code, tokens[2], "before anyone connected")
        async with (
            SeatClient(live_server.ws_url, code, tokens[0]) as ann,
            SeatClient(live_server.ws_url, code, tokens[1]) as bo,
            SeatClient(live_server.ws_url, code, None) as watcher,
        ):
            for client in (ann, bo, watcher):  # the latest messages on connecting
                earlier = await client.wait_type("chat")
                assert (earlier["seat"], earlier["text"]) == (2, "before anyone connected")
            start = {id(c): len(c.messages) for c in (ann, bo, watcher)}
            await ann.send({"type": "chat", "text": "good luck!"})
            for client in (ann, bo, watcher):
                heard = await client.wait_type("chat", start=start[id(client)])
                assert (heard["seat"], heard["name"], heard["text"]) == (0, "P0", "good luck!")
            await watcher.send({"type": "chat", "text": "may I?"})
            refused = await watcher.wait_type("error")
            assert refused["code"] == "spectator"
            await ann.send({"type": "chat", "text": "   "})
            assert (await ann.wait_for(lambda m: m["type"] == "error" and m["code"] == "bad_chat"))["message"]
            r = await http.delete(f"/api/rooms/{code}/chat/{heard['id']}", headers=bearer(tokens[0]))
            assert r.status_code == 200
            gone = await bo.wait_for(lambda m: m["type"] == "chat" and m["deleted"])
            assert (gone["id"], gone["text"]) == (heard["id"], "")
            chats = [m for m in bo.messages if m["type"] == "chat"]
            seen = [(m["id"], m["deleted"]) for m in chats]
            assert seen == [(earlier["id"], False), (heard["id"], False), (heard["id"], True)]


@pytest.mark.postgres
async def test_the_chat_across_two_instances(pg_server_url: str, redis_url: str) -> None:
    async with two_instances(pg_server_url, redis_url, "chat") as (_, b, http_a, _):
        code, tokens = await full_room(http_a, 3, start=False)
        async with SeatClient(b.ws_url, code, tokens[1]) as bo:
            await bo.wait_type("welcome")
            assert (await say(http_a, code, tokens[0], "said on A")).status_code == 201
            heard = await bo.wait_type("chat")
            assert (heard["seat"], heard["text"]) == (0, "said on A")
