"""Rooms that nobody uses are closed by the sweep (app/rooms/sweep.py), and their running game ends
as abandoned: with no connection, no action and no change for ROOM_IDLE_HOURS; never while a socket
is connected or after a recent action; once only when two instances sweep at once."""

import asyncio
import secrets
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from app import metrics
from app.db.models import Action, Game, Room, now
from app.rooms.context import Services
from tests.server.conftest import _clear_postgres, app_client, make_settings
from tests.server.helpers import SeatClient, bearer, error_of, full_room, until
from tests.server.live import LiveServer

TINY = 1e-6  # hours: 3.6 ms


async def unused_for_a_moment() -> None:
    await asyncio.sleep(0.02)  # longer than TINY hours (waiting longer is always fine)


async def act(client: httpx.AsyncClient, code: str, token: str) -> dict[str, Any]:
    state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
    body = {"action": state["legal_actions"][0], "version": state["version"]}
    r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


async def backdate(svc: Services, code: str, hours: float, *, actions: bool) -> None:
    """Make the room's last change (and, with `actions`, its games' actions) `hours` older."""
    async with svc.db.sessions() as session, session.begin():
        room = (await session.execute(select(Room).where(Room.code == code))).scalar_one()
        room.updated_at = now() - timedelta(hours=hours)
        if actions:
            games = select(Game.id).where(Game.room_id == room.id)
            await session.execute(
                update(Action).where(Action.game_id.in_(games)).values(created_at=now() - timedelta(hours=hours))
            )


async def test_an_unused_room_is_closed_and_its_game_abandoned(database_url: str) -> None:
    settings = make_settings(database_url, room_idle_hours=TINY)
    async with app_client(settings) as client:
        svc: Services = client.app.state.services  # type: ignore[attr-defined]
        code, tokens = await full_room(client, 3, seed=41)  # three people, no bot, nobody connected
        await act(client, code, tokens[0])
        game_id = (await client.get(f"/api/rooms/{code}")).json()["game"]["id"]
        assert game_id in svc.games.runtimes
        abandoned_before = metrics.GAMES_ABANDONED._value.get()
        await unused_for_a_moment()
        closed = await svc.sweeper.sweep()
        assert [(c.code, c.games) for c in closed] == [(code, (game_id,))]
        assert metrics.GAMES_ABANDONED._value.get() == abandoned_before + 1
        assert game_id not in svc.games.runtimes  # unloaded
        assert await svc.sweeper.sweep() == []  # closed once

        room = (await client.get(f"/api/rooms/{code}")).json()
        assert room["status"] == "closed" and room["game"] == {"id": game_id, "status": "abandoned", "kind": "classic"}
        [listed] = (await client.get(f"/api/rooms/{code}/games")).json()
        assert listed["status"] == "abandoned" and listed["finished_at"] and listed["winners"] is None
        state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[1]))).json()
        assert state["status"] == "abandoned" and state["version"] == 1
        history = (await client.get(f"/api/rooms/{code}/game/history", params={"at": 1, "seat": 2})).json()
        assert history["status"] == "abandoned" and len(history["steps"]) == 1 and "action" in history["steps"][0]
        assert history["view"]["hand"]  # the log is kept, every step can be shown

        r = await client.post(
            f"/api/rooms/{code}/game/actions",
            json={"action": state["legal_actions"][0], "version": 1},
            headers=bearer(tokens[1]),
        )
        assert r.status_code == 409 and error_of(r) == "game_abandoned"
        r = await client.get(f"/api/rooms/{code}/game/result")
        assert r.status_code == 409 and error_of(r) == "game_abandoned"
        r = await client.post(f"/api/rooms/{code}/join", json={"name": "Late"})
        assert r.status_code == 409 and error_of(r) == "room_closed"
        r = await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
        assert r.status_code == 409 and error_of(r) == "room_closed"

    async with app_client(settings) as client:  # a restart does not bring the abandoned game back
        svc = client.app.state.services  # type: ignore[attr-defined]
        assert game_id not in svc.games.runtimes
        state = (await client.get(f"/api/rooms/{code}/game")).json()
        assert state["status"] == "abandoned" and state["version"] == 1


async def test_a_recent_action_or_change_keeps_a_room(database_url: str) -> None:
    async with app_client(make_settings(database_url, room_idle_hours=1.0)) as client:
        svc: Services = client.app.state.services  # type: ignore[attr-defined]
        code, tokens = await full_room(client, 3, seed=42)
        await act(client, code, tokens[0])
        assert await svc.sweeper.sweep() == []  # changed just now
        await backdate(svc, code, 2, actions=False)
        assert await svc.sweeper.sweep() == []  # no change for two hours, but an action just now
        await backdate(svc, code, 2, actions=True)
        assert [c.code for c in await svc.sweeper.sweep()] == [code]  # neither for two hours
        # a room without a game
        lobby, _ = await full_room(client, 3, start=False)
        await backdate(svc, lobby, 0.5, actions=True)
        assert await svc.sweeper.sweep() == []
        await backdate(svc, lobby, 1.5, actions=True)
        assert [(c.code, c.games) for c in await svc.sweeper.sweep()] == [(lobby, ())]
        assert (await client.get(f"/api/rooms/{lobby}")).json()["status"] == "closed"


async def test_a_connected_socket_keeps_a_room(sqlite_url: str) -> None:
    server = LiveServer(make_settings(sqlite_url, room_idle_hours=TINY))
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            code, tokens = await full_room(http, 3, seed=43)
            async with SeatClient(server.ws_url, code, tokens[2]) as seat:
                await seat.wait_type("state")
                await unused_for_a_moment()
                assert await server.run(server.services.sweeper.sweep()) == []
                async with SeatClient(server.ws_url, code, None) as spectator:  # a spectator as well
                    await spectator.wait_type("state")
                    await unused_for_a_moment()
                    assert await server.run(server.services.sweeper.sweep()) == []
            assert (await http.get(f"/api/rooms/{code}")).json()["status"] == "playing"
            # once the last socket is gone (the server notes it, then touches the room), the room is
            # unused from then on: a sweep a moment later closes it

            async def swept() -> bool:
                await unused_for_a_moment()
                return [c.code for c in await server.run(server.services.sweeper.sweep())] == [code]

            await until(swept, within=10)
    finally:
        server.stop()


async def play_host_to_the_end(client: httpx.AsyncClient, code: str, token: str) -> None:
    for _ in range(2000):
        state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
        if state["status"] == "finished":
            return
        if state["legal_actions"]:
            body = {"action": state["legal_actions"][0], "version": state["version"]}
            r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))
            assert r.status_code in (200, 409), r.text
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("the game did not end")


async def count_actions(svc: Services, game_id: int) -> int:
    async with svc.db.sessions() as session:
        query = select(func.count()).select_from(Action).where(Action.game_id == game_id)
        return int((await session.execute(query)).scalar_one())


async def test_finished_games_stay_and_bots_stop(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, room_idle_hours=TINY)) as client:
        svc: Services = client.app.state.services  # type: ignore[attr-defined]
        code, tokens = await full_room(client, 3, bots=2, seed=44)
        await play_host_to_the_end(client, code, tokens[0])
        r = await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))  # a rematch
        assert r.status_code == 200, r.text
        second = r.json()["game"]["id"]
        rt = await svc.games.runtime(second)
        # the bots pick, then wait for the host: their steps stored, and the game's wake cleared with
        # them (a room whose running game has a wake, a bot owing a move, is in use: not swept)
        await until(lambda: rt.frame.to_act == (0,) and not rt.chain and not rt.bot_tasks and rt.wake is None)
        await unused_for_a_moment()
        [closed] = await svc.sweeper.sweep()
        assert closed.games == (second,)
        assert second not in svc.games.runtimes and rt.abandoned
        steps = await count_actions(svc, second)
        await asyncio.sleep(0.1)
        assert await count_actions(svc, second) == steps  # no bot acts any more
        first, again = (await client.get(f"/api/rooms/{code}/games")).json()
        assert first["status"] == "finished" and first["winners"] and first["finished_at"]
        assert again["id"] == second and again["status"] == "abandoned"
        history = (await client.get(f"/api/rooms/{code}/game/history", params={"game": first["id"]})).json()
        assert history["status"] == "finished" and history["result"]["winners"] == first["winners"]
        r = await client.get(f"/api/rooms/{code}/game/result", params={"game": first["id"]})
        assert r.status_code == 200


@pytest.mark.postgres
async def test_two_instances_sweeping_at_once_close_a_room_once(pg_server_url: str, redis_url: str) -> None:
    _clear_postgres(pg_server_url)
    a, b = [
        await Services.start(
            make_settings(
                pg_server_url, redis_url=redis_url, room_idle_hours=TINY, instance_id=f"w{n}-{secrets.token_hex(2)}"
            ),
            migrate=n == 0,
        )
        for n in range(2)
    ]
    try:
        joined = await a.rooms.create({"game": "classic", "players": 3}, "Ada")
        code = joined.room["code"]
        await b.rooms.join(code, "Bo")
        await a.rooms.join(code, "Cy")
        room = await a.rooms.start(await a.rooms.authenticate(code, joined.token))
        game_id = room["game"]["id"]
        await b.games.runtime(game_id)  # both instances hold the game
        await unused_for_a_moment()
        # both find the room unused before either closes it; the database lets one close it
        cutoffs = a.sweeper.cutoff(), b.sweeper.cutoff()
        found = await asyncio.gather(a.sweeper.candidates(cutoffs[0]), b.sweeper.candidates(cutoffs[1]))
        assert [[c for _, c in f] for f in found] == [[code], [code]]
        results = await asyncio.gather(
            a.sweeper.close(*found[0][0], cutoffs[0]), b.sweeper.close(*found[1][0], cutoffs[1])
        )
        assert sorted(r is None for r in results) == [False, True], results
        assert next(r for r in results if r is not None).games == (game_id,)
        assert await asyncio.gather(a.sweeper.sweep(), b.sweeper.sweep()) == [[], []]
        for _ in range(200):  # the other instance heard of it over Redis
            if game_id not in a.games.runtimes and game_id not in b.games.runtimes:
                break
            await asyncio.sleep(0.01)
        assert game_id not in a.games.runtimes and game_id not in b.games.runtimes
        async with a.db.sessions() as session:
            game = await session.get(Game, game_id)
            assert game is not None and game.status == "abandoned" and game.finished_at is not None
            statuses = (await session.execute(select(Room.status))).scalars().all()
            assert statuses == ["closed"]
        with pytest.raises(Exception) as refused:
            await b.rooms.join(code, "Dee")
        assert getattr(refused.value, "code", None) == "room_closed"
    finally:
        await b.stop()
        await a.stop()
