"""A stored game whose log this version of the engine cannot replay (a game from the project's first
versions, whose seeded deal has changed since, or a damaged log): every read of it answers a clear
500 `game_unreadable` on a connection that stays open, without the engine's words (they may name a
hidden hand), logged once; the rest of the server goes on."""

import asyncio
import logging

import pytest
from sqlalchemy import update

from app.db.models import Action
from app.rooms.context import Services
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import bearer, error_of, full_room, until
from tests.server.test_sweep import act


async def test_a_game_whose_log_does_not_replay_is_said_unreadable(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with app_client(make_settings(database_url)) as client:
        svc: Services = client.app.state.services  # type: ignore[attr-defined]
        code, tokens = await full_room(client, 3, seed=44)
        await act(client, code, tokens[0])
        other, other_tokens = await full_room(client, 3, seed=45)
        game_id = (await client.get(f"/api/rooms/{code}")).json()["game"]["id"]
        # the stored pick names a card the replayed deal does not give (as an older deal would)
        async with svc.db.sessions() as session, session.begin():
            await session.execute(
                update(Action).where(Action.game_id == game_id).values(action={"type": "discard", "card": "Pantheon"})
            )
        svc.games.unload(game_id)  # read again from the log, as after a restart or an upgrade
        for _ in range(2):
            for path in ("/game", "/game/legal-actions", "/game/history", "/game/result"):
                r = await client.get(f"/api/rooms/{code}{path}", headers=bearer(tokens[1]))
                assert r.status_code == 500 and error_of(r) == "game_unreadable", (path, r.text)
                message = r.json()["error"]["message"]
                assert f"game {game_id} cannot be read" in message and "hand" not in message
        body = {"action": {"type": "discard", "card": "Altar"}, "version": 1}
        r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[1]))
        assert error_of(r) == "game_unreadable"
        # the room itself, and every other game, are served as before
        assert (await client.get(f"/api/rooms/{code}")).status_code == 200
        await act(client, other, other_tokens[0])
    said = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage().split(":")[0] for r in said] == [f"game {game_id} cannot be replayed from its log"]
    assert not [r for r in caplog.records if "unhandled" in r.getMessage()]


async def test_a_woken_unreadable_game_is_said_once_and_left(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A running game whose log does not replay, whose deadline comes after a restart: it is said
    once and left alone (not woken again); another game's deadline is decided as usual."""
    caplog.set_level(logging.WARNING)
    clock = {"mode": "turn", "seconds": 1}
    settings = make_settings(database_url, wake_poll_seconds=0)  # nothing woken before the restart
    async with app_client(settings) as client:
        svc: Services = client.app.state.services  # type: ignore[attr-defined]
        code, tokens = await full_room(client, 3, seed=46, clock=clock, timeouts_before_bot=9)
        fine, _ = await full_room(client, 3, seed=47, clock=clock, timeouts_before_bot=9)
        game_id = (await client.get(f"/api/rooms/{code}")).json()["game"]["id"]
        await act(client, code, tokens[0])
        async with svc.db.sessions() as session, session.begin():
            await session.execute(
                update(Action).where(Action.game_id == game_id).values(action={"type": "build", "card": "Nowhere"})
            )
    async with app_client(make_settings(database_url, wake_poll_seconds=0.1)) as client:  # a restart
        svc = client.app.state.services  # type: ignore[attr-defined]

        async def fine_decided() -> bool:
            steps = (await client.get(f"/api/rooms/{fine}/game/history")).json()["steps"]
            return len(steps) >= 3 and all(s["by_timeout"] for s in steps)

        await until(fine_decided, within=20)
        await asyncio.sleep(0.5)  # polls go on
        assert game_id not in svc.games.runtimes
        r = await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[1]))
        assert error_of(r) == "game_unreadable"
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(said) == 1 and said[0].startswith(f"game {game_id} cannot be replayed"), said
