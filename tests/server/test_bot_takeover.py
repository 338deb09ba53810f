"""The bot takeover (GameService._take_over; across instances in test_redis.py) costs a single
instance nothing: a game loaded while its bots owe a move arms it, its own bots move, and the
takeover then finds the game moved on without asking the database anything."""

import asyncio
from typing import Any

from app.rooms.context import Services
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import create_room


async def test_a_takeover_in_one_instance_asks_nothing_of_the_database(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, bot_delay_ms=2000)) as client:  # bots still pause
        svc: Services = client.app.state.services  # type: ignore[attr-defined]
        code, token = await create_room(client, players=3, bots=[{"kind": "greedy"}] * 2, seed=5)
        assert (await client.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {token}"})).is_success
        game_id = (await client.get(f"/api/rooms/{code}")).json()["game"]["id"]
        games = svc.games
        reads: list[Any] = []
        steps_since = games.store.steps_since

        async def counted(*args: Any) -> Any:
            reads.append(args)
            return await steps_since(*args)

        games.store.steps_since = counted  # type: ignore[method-assign]
        games.bot_takeover = 0.05
        for task in games.runtimes[game_id].bot_tasks.values():
            task.cancel()
        games.unload(game_id)
        rt = await games.runtime(game_id)  # as at a restart: loaded, then its bots scheduled
        assert rt.takeover is not None
        games.schedule_bots(rt)
        await asyncio.wait_for(asyncio.shield(rt.takeover), 5)
        assert reads == []
