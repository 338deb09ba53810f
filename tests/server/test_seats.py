"""Seats a bot plays for their person (the host hands them over and back; leaving; the person's own
action or "I'm back" takes them back), rejoin links, away seats and who may watch (the room's
`spectators` setting), over REST (SQLite and PostgreSQL) and websockets against a real uvicorn."""

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select

from app.db.models import Seat
from app.tokens import hash_token
from tests.server.conftest import live_sqlite_server, two_instances
from tests.server.helpers import SeatClient, bearer, create_room, error_of, full_room, join, until
from tests.server.live import LiveServer


async def state(client: httpx.AsyncClient, code: str, token: str | None = None) -> dict[str, Any]:
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(token) if token else None)
    assert r.status_code == 200, r.text
    return r.json()


async def act(client: httpx.AsyncClient, code: str, token: str, st: dict[str, Any], index: int = 0) -> httpx.Response:
    body = {"action": st["legal_actions"][index], "version": st["version"]}
    return await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))


async def room_of(client: httpx.AsyncClient, code: str) -> dict[str, Any]:
    r = await client.get(f"/api/rooms/{code}")
    assert r.status_code == 200, r.text
    return r.json()


def chosen(st: dict[str, Any], seat: int) -> bool:
    return st["view"]["players"][seat]["has_chosen"]


# ----- handing a seat to a bot and back ---------------------------------------------------------


async def test_the_host_hands_a_seat_to_a_bot_and_back(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=71)
    r = await client.post(f"/api/rooms/{code}/seats/2/bot", json={"kind": "greedy"}, headers=bearer(tokens[1]))
    assert r.status_code == 403 and error_of(r) == "not_host"
    r = await client.delete(f"/api/rooms/{code}/seats/2/bot", headers=bearer(tokens[1]))
    assert r.status_code == 403 and error_of(r) == "not_host"
    r = await client.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "nobody"}, headers=bearer(tokens[0]))
    assert r.status_code == 422 and error_of(r) == "bad_bot"

    r = await client.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "greedy"}, headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    seat1 = r.json()["seats"][1]
    assert seat1 | {"connected": False} == {
        "seat": 1,
        "kind": "human",
        "name": "P1",
        "bot": None,
        "host": False,
        "connected": False,
        "away": False,
        "away_since": None,
        "bot_plays": "greedy",
        "bot_reason": "host",
    }

    # the bot plays at once: seat 1 picks with no action from its person
    async def bot_picked() -> bool:
        return chosen(await state(client, code), 1)

    await until(bot_picked)
    mine = await state(client, code, tokens[1])  # the person's token still works
    assert mine["seat"] == 1 and mine["view"]["pick"] is not None
    # handing it again changes nothing (idempotent)
    r = await client.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "greedy"}, headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][1]["bot_plays"] == "greedy"

    r = await client.delete(f"/api/rooms/{code}/seats/1/bot", headers=bearer(tokens[0]))
    assert r.status_code == 200
    assert r.json()["seats"][1]["bot_plays"] is None and r.json()["seats"][1]["bot_reason"] is None
    r = await client.delete(f"/api/rooms/{code}/seats/1/bot", headers=bearer(tokens[0]))
    assert r.status_code == 200  # idempotent too
    # the others pick: the turn resolves with the bot's pick; the next one waits for the person
    for seat in (0, 2):
        assert (await act(client, code, tokens[seat], await state(client, code, tokens[seat]))).status_code == 200
    await asyncio.sleep(0.3)
    st = await state(client, code, tokens[1])
    assert st["view"]["turn"] == 2 and 1 in st["to_act"] and st["legal_actions"] and not chosen(st, 1)
    assert (await act(client, code, tokens[1], st)).status_code == 200
    assert chosen(await state(client, code), 1)


async def test_what_cannot_be_handed_to_a_bot(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, bots=1, start=False)
    r = await client.post(f"/api/rooms/{code}/seats/1/bot", json={}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and error_of(r) == "no_game"
    await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    r = await client.post(f"/api/rooms/{code}/seats/2/bot", json={}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and error_of(r) == "bot_seat"
    r = await client.post(f"/api/rooms/{code}/seats/9/bot", json={}, headers=bearer(tokens[0]))
    assert r.status_code == 404 and error_of(r) == "seat_free"
    r = await client.post(f"/api/rooms/{code}/seats/1/bot", json={}, headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][1]["bot_plays"] == "heuristic"  # the default bot


async def test_the_persons_own_action_takes_the_seat_back(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=72)
    await client.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "random"}, headers=bearer(tokens[0]))

    async def bot_picked() -> bool:
        return chosen(await state(client, code), 1)

    await until(bot_picked)
    st = await state(client, code, tokens[1])
    r = await act(client, code, tokens[1], st, -1)  # the person changes the bot's pick
    assert r.status_code == 200, r.text
    assert (await room_of(client, code))["seats"][1]["bot_plays"] is None
    for seat in (0, 2):
        assert (await act(client, code, tokens[seat], await state(client, code, tokens[seat]))).status_code == 200
    await asyncio.sleep(0.3)
    st = await state(client, code, tokens[1])
    assert st["view"]["turn"] == 2 and not chosen(st, 1)  # no bot plays for them any more


async def test_a_late_action_still_takes_the_seat_back(client: httpx.AsyncClient) -> None:
    """Duel alternates: the bot played the person's turn, so their action is refused, but the seat is theirs."""
    code, tokens = await full_room(client, 2, game="duel", seed=73)
    mover = (await state(client, code))["to_act"][0]
    st = await state(client, code, tokens[mover])
    await client.post(f"/api/rooms/{code}/seats/{mover}/bot", json={"kind": "random"}, headers=bearer(tokens[0]))

    async def bot_moved() -> bool:
        return (await state(client, code))["version"] > 0

    await until(bot_moved)
    r = await act(client, code, tokens[mover], st)
    assert r.status_code == 409 and error_of(r) in ("stale", "not_your_turn")
    assert (await room_of(client, code))["seats"][mover]["bot_plays"] is None


async def test_im_back(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=74)
    await client.post(f"/api/rooms/{code}/seats/2/bot", json={"kind": "greedy"}, headers=bearer(tokens[0]))
    r = await client.post(f"/api/rooms/{code}/seats/2/back", headers=bearer(tokens[1]))
    assert r.status_code == 403 and error_of(r) == "not_your_seat"
    r = await client.post(f"/api/rooms/{code}/seats/2/back", headers=bearer(tokens[2]))
    assert r.status_code == 200 and r.json()["seats"][2]["bot_plays"] is None
    r = await client.post(f"/api/rooms/{code}/seats/2/back", headers=bearer(tokens[2]))
    assert r.status_code == 200  # nothing to take back: no change


async def test_leaving_a_running_game_and_coming_back(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=75)
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[2]))
    assert r.status_code == 200
    seat2 = r.json()["seats"][2]
    assert seat2["kind"] == "human" and seat2["name"] == "P2"
    assert seat2["bot_plays"] == "heuristic" and seat2["bot_reason"] == "left"

    async def bot_picked() -> bool:
        return chosen(await state(client, code), 2)

    await until(bot_picked)
    assert (await state(client, code, tokens[2]))["seat"] == 2  # the token still works
    r = await client.post(f"/api/rooms/{code}/seats/2/back", headers=bearer(tokens[2]))
    assert r.status_code == 200 and r.json()["seats"][2]["bot_plays"] is None
    for seat in (0, 1):
        assert (await act(client, code, tokens[seat], await state(client, code, tokens[seat]))).status_code == 200
    await asyncio.sleep(0.3)
    st = await state(client, code, tokens[2])
    assert st["view"]["turn"] == 2 and 2 in st["to_act"] and not chosen(st, 2)
    assert (await act(client, code, tokens[2], st)).status_code == 200


async def test_the_host_leaving_a_game_passes_the_host_on(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=76)
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[0]))
    assert r.json()["host_seat"] == 1 and r.json()["seats"][0]["bot_reason"] == "left"
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[1]))
    assert r.json()["host_seat"] == 2  # the first person still at the table
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[2]))
    assert r.json()["host_seat"] == 2  # nobody else is here: the last one stays host

    # bots play every seat to the end; the seats are still their people's
    async def over() -> bool:
        return (await room_of(client, code))["status"] == "finished"

    await until(over, 60)
    room = await room_of(client, code)
    assert [s["kind"] for s in room["seats"]] == ["human"] * 3
    # between games leaving frees the seat
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "free"
    assert (await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).status_code == 401
    # a rematch: a person who left keeps their bot; the host came back and plays
    r = await client.post(f"/api/rooms/{code}/seats/2/back", headers=bearer(tokens[2]))
    assert r.json()["seats"][2]["bot_plays"] is None
    await join(client, code, "P9", seat=0)
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[2]))
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["bot_reason"] == "left" and r.json()["seats"][2]["bot_plays"] is None


async def test_a_removed_person_becomes_a_bot_seat(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=77)
    await client.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "random"}, headers=bearer(tokens[0]))
    r = await client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(tokens[0]))
    assert r.status_code == 200
    assert r.json()["seats"][1] | {"connected": True} == {
        "seat": 1,
        "kind": "bot",
        "name": "P1",
        "bot": "random",
        "host": False,
        "connected": True,
        "away": False,
        "away_since": None,
        "bot_plays": None,
        "bot_reason": None,
    }
    assert (await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[1]))).status_code == 401


# ----- rejoin links ---------------------------------------------------------------------------------


async def test_a_rejoin_link_moves_a_seat(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, bots=1, seed=78)
    other, _ = await create_room(client, "Zed")
    r = await client.post(f"/api/rooms/{code}/seats/1/rejoin-link", headers=bearer(tokens[1]))
    assert r.status_code == 201, r.text
    link = r.json()
    assert link["seat"] == 1 and link["url"] == f"/room.html?code={code}&rejoin={link['token']}"
    assert link["token"] not in (tokens[0], tokens[1])
    db = client.app.state.services.db  # type: ignore[attr-defined]
    async with db.sessions() as session:
        rows = (await session.execute(select(Seat))).scalars().all()
    assert hash_token(link["token"]) in {r.rejoin_hash for r in rows}  # only its hash is kept
    assert all(link["token"] not in str(vars(row)) for row in rows)

    r = await client.post(f"/api/rooms/{other}/rejoin", json={"token": link["token"]})
    assert r.status_code == 404 and error_of(r) == "unknown_link"  # another room's
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": "made-up"})
    assert r.status_code == 404 and error_of(r) == "unknown_link"
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": link["token"]})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1 and r.json()["token"] == link["token"] and r.json()["room"]["code"] == code
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[1]))
    assert r.status_code == 401 and error_of(r) == "bad_token"  # the old token is void
    assert (await state(client, code, link["token"]))["seat"] == 1
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": link["token"]})
    assert r.status_code == 404 and error_of(r) == "unknown_link"  # used


async def test_rejoin_link_rules(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 4, bots=1, start=False)
    r = await client.post(f"/api/rooms/{code}/seats/2/rejoin-link", headers=bearer(tokens[1]))
    assert r.status_code == 403 and error_of(r) == "not_your_seat"
    r = await client.post(f"/api/rooms/{code}/seats/3/rejoin-link", headers=bearer(tokens[0]))
    assert r.status_code == 409 and error_of(r) == "bot_seat"
    await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[2]))
    r = await client.post(f"/api/rooms/{code}/seats/2/rejoin-link", headers=bearer(tokens[0]))
    assert r.status_code == 404 and error_of(r) == "seat_free"
    # the host makes links for anyone; a new link replaces an unused older one
    first = (await client.post(f"/api/rooms/{code}/seats/1/rejoin-link", headers=bearer(tokens[0]))).json()
    second = (await client.post(f"/api/rooms/{code}/seats/1/rejoin-link", headers=bearer(tokens[1]))).json()
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": first["token"]})
    assert r.status_code == 404 and error_of(r) == "unknown_link"
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": second["token"]})
    assert r.status_code == 200 and r.json()["seat"] == 1
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": ""})
    assert r.status_code == 422
    # a seat that became a bot's (the host removed its person during a game): its link is void
    await client.post(f"/api/rooms/{code}/bots", json={"kind": "random"}, headers=bearer(tokens[0]))
    await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    link = (await client.post(f"/api/rooms/{code}/seats/1/rejoin-link", headers=bearer(second["token"]))).json()
    await client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(tokens[0]))
    r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": link["token"]})
    assert r.status_code == 404 and error_of(r) == "unknown_link"
    r = await client.post(f"/api/rooms/{code}/seats/1/rejoin-link", headers=bearer(tokens[0]))
    assert r.status_code == 409 and error_of(r) == "bot_seat"


# ----- spectators over REST ---------------------------------------------------------------------------


async def play_to_the_end(client: httpx.AsyncClient, code: str, host: str) -> None:
    """The host's seat goes to a bot too: bots play the game out."""
    await client.post(f"/api/rooms/{code}/seats/0/bot", json={"kind": "random"}, headers=bearer(host))

    async def over() -> bool:
        return (await room_of(client, code))["status"] == "finished"

    await until(over, 60)


SPECTATOR_PATHS = ("/game", "/game/history", "/game/result")


async def test_spectators_setting_is_validated(client: httpx.AsyncClient) -> None:
    code, token = await create_room(client)
    assert (await room_of(client, code))["settings"]["spectators"] == "live"
    r = await client.patch(f"/api/rooms/{code}", json={"spectators": "sometimes"}, headers=bearer(token))
    assert r.status_code == 422 and "spectators" in r.json()["error"]["message"]
    assert "'off', 'live' or 'after'" in r.json()["error"]["message"]
    r = await client.patch(f"/api/rooms/{code}", json={"spectators": "after"}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["settings"]["spectators"] == "after"
    r = await client.patch(f"/api/rooms/{code}", json={"players": 4}, headers=bearer(token))
    assert r.json()["settings"]["spectators"] == "after"  # other changes keep it
    r = await client.post("/api/rooms", json={"name": "Ada", "spectators": "never"})
    assert r.status_code == 422
    r = await client.post("/api/rooms", json={"name": "Ada", "spectators": "off"})
    assert r.status_code == 201 and r.json()["room"]["settings"]["spectators"] == "off"
    code, tokens = await full_room(client, 3, bots=2)
    r = await client.patch(f"/api/rooms/{code}", json={"spectators": "off"}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and error_of(r) == "game_started"


@pytest.mark.parametrize("policy", ["off", "live", "after"])
async def test_spectators_over_rest(client: httpx.AsyncClient, policy: str) -> None:
    code, tokens = await full_room(client, 3, bots=2, seed=79, spectators=policy)
    running = {"off": 403, "live": 200, "after": 403}[policy]
    for path in SPECTATOR_PATHS:
        r = await client.get(f"/api/rooms/{code}{path}")
        expected = 409 if path == "/game/result" and policy == "live" else running  # no score sheet yet
        assert r.status_code == expected, (path, r.text)
        if expected == 403:
            assert error_of(r) == f"spectators_{policy}"
        mine = await client.get(f"/api/rooms/{code}{path}", headers=bearer(tokens[0]))
        assert mine.status_code == (409 if path == "/game/result" else 200)  # seats are never affected
    assert (await client.get(f"/api/rooms/{code}")).status_code == 200  # the room stays public
    assert (await client.get(f"/api/rooms/{code}/games")).status_code == 200
    await play_to_the_end(client, code, tokens[0])
    over = {"off": 403, "live": 200, "after": 200}[policy]
    for path in SPECTATOR_PATHS:
        r = await client.get(f"/api/rooms/{code}{path}")
        assert r.status_code == over, (path, r.text)
    if policy == "after":  # a rematch runs: its game is hidden, the finished one is not
        first = (await state(client, code, tokens[0]))["game_id"]
        await client.post(f"/api/rooms/{code}/seats/0/back", headers=bearer(tokens[0]))
        assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))).status_code == 200
        assert (await client.get(f"/api/rooms/{code}/game")).status_code == 403
        assert (await client.get(f"/api/rooms/{code}/game?game={first}")).status_code == 200
        assert (await client.get(f"/api/rooms/{code}/game/history?game={first}")).status_code == 200


# ----- websockets ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def away_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A server where a seat is away three seconds after its last connection closes (long enough to
    see it connected, then gone but not yet away, on a busy machine too)."""
    with live_sqlite_server(tmp_path_factory, "seats", away_grace_seconds=3) as server:
        yield server


@pytest.fixture
async def http(away_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=away_server.url, timeout=30) as client:
        yield client


def seat_in(message: dict[str, Any], seat: int) -> dict[str, Any]:
    return message["room"]["seats"][seat]


async def test_a_disconnected_seat_is_away_after_the_grace(away_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, bots=1, seed=80)
    async with SeatClient(away_server.ws_url, code, tokens[0]) as ada:
        await ada.wait_type("welcome")
        async with SeatClient(away_server.ws_url, code, tokens[1]) as bob:
            await bob.wait_type("welcome")
            await ada.wait_for(lambda m: m["type"] == "room" and seat_in(m, 1)["connected"])
        gone = time.monotonic()
        closed = await ada.wait_for(lambda m: m["type"] == "room" and not seat_in(m, 1)["connected"])
        assert not seat_in(closed, 1)["away"] and seat_in(closed, 1)["away_since"] is None
        assert not (await room_of(http, code))["seats"][1]["away"]  # within the grace
        away = await ada.wait_for(lambda m: m["type"] == "room" and seat_in(m, 1)["away"], within=15)
        assert time.monotonic() - gone >= 2.9
        assert seat_in(away, 1)["away_since"].endswith("+00:00")
        room = await room_of(http, code)
        assert room["seats"][1]["away"] and room["seats"][1]["away_since"] == seat_in(away, 1)["away_since"]
        assert not room["seats"][2]["away"] and room["seats"][2]["kind"] == "bot"  # bots are never away
        # a seat that never connected since the server started is not away
        assert not room["seats"][0]["away"]
        start = len(ada.messages)
        async with SeatClient(away_server.ws_url, code, tokens[1]) as bob:
            await bob.wait_type("welcome")
            back = await ada.wait_for(lambda m: m["type"] == "room" and seat_in(m, 1)["connected"], start=start)
            assert not seat_in(back, 1)["away"] and seat_in(back, 1)["away_since"] is None
            assert not (await room_of(http, code))["seats"][1]["away"]


async def test_the_host_hands_a_seat_over_while_connected(away_server: LiveServer, http: httpx.AsyncClient) -> None:
    """A seat's websocket sees the bot play for it and gives the seat back by acting."""
    code, tokens = await full_room(http, 3, seed=81)
    async with SeatClient(away_server.ws_url, code, tokens[1]) as bob:
        await bob.wait_type("state")
        r = await http.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "greedy"}, headers=bearer(tokens[0]))
        assert r.status_code == 200
        await bob.wait_for(lambda m: m["type"] == "room" and seat_in(m, 1)["bot_plays"] == "greedy")
        picked = await bob.wait_for(lambda m: m["type"] == "state" and m["view"]["pick"] is not None)
        start = len(bob.messages)
        await bob.send({"type": "action", "action": picked["legal_actions"][-1], "version": picked["version"]})
        assert (await bob.wait_type("accepted", start=start))["seq"] == picked["version"]
        await bob.wait_for(lambda m: m["type"] == "room" and seat_in(m, 1)["bot_plays"] is None, start=start)


async def refused(url: str, message: dict[str, Any] | None) -> tuple[dict[str, Any], int]:
    async with websockets.connect(url) as ws:
        if message is not None:
            await ws.send(json.dumps(message))
        error = json.loads(await ws.recv())
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        return error, closed.value.rcvd.code


async def test_no_spectators_on_the_websocket(away_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, bots=2, seed=82, spectators="off")
    error, close = await refused(f"{away_server.ws_url}/ws/rooms/{code}", {"type": "hello"})
    assert error["type"] == "error" and error["code"] == "spectators_off" and close == 4403
    async with SeatClient(away_server.ws_url, code, tokens[0], header=False) as ada:  # seats are not affected
        assert (await ada.wait_type("state"))["seat"] == 0


async def test_spectators_turned_off_in_the_lobby_are_closed(away_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, bots=2, start=False)
    async with SeatClient(away_server.ws_url, code, None) as watcher:
        await watcher.wait_type("welcome")
        r = await http.patch(f"/api/rooms/{code}", json={"spectators": "off"}, headers=bearer(tokens[0]))
        assert r.status_code == 200
        assert (await watcher.wait_type("error"))["code"] == "spectators_off"
        for _ in range(100):
            if watcher.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert watcher.closed is not None and watcher.closed.rcvd.code == 4403


async def test_spectators_after_the_game(away_server: LiveServer, http: httpx.AsyncClient) -> None:
    """With "after" a spectator is welcome (the room, its seats) but gets no state and no event of a
    running game; the game's last state comes once it is over."""
    code, tokens = await full_room(http, 3, bots=2, seed=83, spectators="after")
    async with (
        SeatClient(away_server.ws_url, code, None) as watcher,
        SeatClient(away_server.ws_url, code, tokens[0]) as ada,
    ):
        welcome = await watcher.wait_type("welcome")
        assert welcome["room"]["settings"]["spectators"] == "after" and welcome["room"]["status"] == "playing"
        await ada.wait_type("state")
        await asyncio.sleep(0.5)  # the bots have picked: chosen notices went out to the seat
        assert not any(m["type"] in ("state", "chosen", "reveal", "event") for m in watcher.messages)
        r = await http.post(f"/api/rooms/{code}/seats/0/bot", json={"kind": "random"}, headers=bearer(tokens[0]))
        assert r.status_code == 200
        final = await watcher.wait_type("state", within=60)
        assert final["status"] == "finished" and final["result"] is not None and final["seat"] is None
        assert [m["type"] for m in watcher.messages if m["type"] not in ("welcome", "room")] == ["state"]


# ----- several instances (PostgreSQL and Redis) ---------------------------------------------------------


async def test_redis_presence_remembers_when_a_seat_left(redis_url: str, redis_prefix: str) -> None:
    import secrets

    from app.rooms.broadcast import RedisPresence

    a = RedisPresence(redis_url, "ga-" + secrets.token_hex(3), prefix=redis_prefix)
    b = RedisPresence(redis_url, "gb-" + secrets.token_hex(3), prefix=redis_prefix)
    await a.start()
    await b.start()
    room = "G" + secrets.token_hex(4).upper()
    try:
        await a.join(room, 1)
        await b.join(room, 1)
        await a.join(room, None)
        await a.leave(room, 1)
        assert await b.gone(room) == {}  # still connected through b
        before = time.time()
        await b.leave(room, 1)
        await a.leave(room, None)
        gone = await a.gone(room)
        assert set(gone) == {"1"} and before <= gone["1"] <= time.time()  # spectators are never away
        await b.join(room, 1)
        assert await a.gone(room) == {}
        await b.leave(room, 1)
    finally:
        await a.redis.delete(a.gone_key(room))
        await a.stop()
        await b.stop()


@pytest.mark.postgres
async def test_seats_across_two_instances(pg_server_url: str, redis_url: str) -> None:
    """A seat handed to a bot on instance A and given back on instance B: A's bot stops. A seat that
    disconnected from A is away on B too."""
    async with two_instances(pg_server_url, redis_url, "s", away_grace_seconds=1) as (a, _, http_a, http_b):
        code, tokens = await full_room(http_a, 3, seed=84)
        game_id = (await state(http_a, code))["game_id"]
        r = await http_a.post(f"/api/rooms/{code}/seats/1/bot", json={"kind": "greedy"}, headers=bearer(tokens[0]))
        assert r.status_code == 200
        assert 1 in a.services.games.runtimes[game_id].bots

        async def bot_picked() -> bool:
            return chosen(await state(http_b, code), 1)

        await until(bot_picked)
        r = await http_b.delete(f"/api/rooms/{code}/seats/1/bot", headers=bearer(tokens[0]))
        assert r.status_code == 200

        async def a_stopped() -> bool:
            return 1 not in a.services.games.runtimes[game_id].bots

        await until(a_stopped)
        async with SeatClient(a.ws_url, code, tokens[2]) as cy:
            await cy.wait_type("welcome")

        async def away_on_b() -> bool:  # a second (the grace) after the close on A
            seat = (await room_of(http_b, code))["seats"][2]
            return seat["away"] and not seat["connected"]

        await until(away_on_b, within=10)
