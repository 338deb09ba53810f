"""Turn-based rooms against a real uvicorn: a clock of up to 7 days a decision (a time bank of up to
30 days, up to a day added a decision) is accepted and one a second longer refused naming its field;
the room's settings say its pace in words (live or turn_based), and the OpenAPI document says so; a
deadline 7 days away stands unchanged while the game is put away, loaded again, and across a
restart, its room is not closed as unused meanwhile, and once its time comes (the clock travelled
there) the timeout bot decides once."""

import asyncio
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.server.conftest import make_settings
from tests.server.helpers import bearer, create_room, until
from tests.server.live import LiveServer

DAY = 24 * 3600
WEEK = {"mode": "turn", "seconds": 7 * DAY}


@pytest.fixture
def server(tmp_path) -> Any:  # type: ignore[no-untyped-def]
    live = LiveServer(make_settings(f"sqlite:///{tmp_path}/pace.db"))
    live.start()
    try:
        yield live
    finally:
        live.stop()


async def test_a_decision_may_take_up_to_7_days_and_the_pace_is_said_in_words(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        for clock, pace in (
            ({"mode": "off"}, "live"),
            ({"mode": "turn", "seconds": 30}, "live"),
            ({"mode": "turn", "seconds": 3599}, "live"),
            ({"mode": "bank", "initial_seconds": 600, "increment_seconds": 20}, "live"),
            ({"mode": "turn", "seconds": 3600}, "turn_based"),
            ({"mode": "turn", "seconds": 7 * DAY}, "turn_based"),
            ({"mode": "bank", "initial_seconds": 3 * DAY, "increment_seconds": 12 * 3600}, "turn_based"),
            ({"mode": "bank", "initial_seconds": 30 * DAY, "increment_seconds": DAY}, "turn_based"),
        ):
            r = await http.post("/api/rooms", json={"name": "Ada", "clock": clock})
            assert r.status_code == 201, (clock, r.text)
            settings = r.json()["room"]["settings"]
            assert (settings["clock"], settings["pace"]) == (clock, pace)
            assert (await http.get(f"/api/rooms/{r.json()['code']}")).json()["settings"]["pace"] == pace

        for clock, field, limit in (
            ({"mode": "turn", "seconds": 7 * DAY + 1}, "clock.turn.seconds", "604800"),
            ({"mode": "bank", "initial_seconds": 30 * DAY + 1}, "clock.bank.initial_seconds", "2592000"),
            (
                {"mode": "bank", "initial_seconds": DAY, "increment_seconds": DAY + 1},
                "clock.bank.increment_seconds",
                "86400",
            ),
        ):
            r = await http.post("/api/rooms", json={"name": "Ada", "clock": clock})
            assert r.status_code == 422, (clock, r.text)
            error = r.json()["error"]
            assert error["code"] == "invalid_request"
            assert error["message"].startswith(f"{field}: ") and limit in error["message"], error
            assert error["details"][0]["loc"] == ["body", *field.split(".")]

        # the host makes a live room turn-based between games; the setting's words follow
        code, token = await create_room(http, clock={"mode": "turn", "seconds": 60})
        assert (await http.get(f"/api/rooms/{code}")).json()["settings"]["pace"] == "live"
        r = await http.patch(f"/api/rooms/{code}", json={"clock": WEEK}, headers=bearer(token))
        assert r.status_code == 200 and r.json()["settings"]["pace"] == "turn_based", r.text
        r = await http.patch(
            f"/api/rooms/{code}", json={"clock": {"mode": "turn", "seconds": 7 * DAY + 1}}, headers=bearer(token)
        )
        assert r.status_code == 422 and "clock.turn.seconds" in r.json()["error"]["message"], r.text
        assert (await http.get(f"/api/rooms/{code}")).json()["settings"]["clock"] == WEEK

        schemas = (await http.get("/openapi.json")).json()["components"]["schemas"]
        pace = schemas["RoomSettingsOut"]["properties"]["pace"]
        assert pace["enum"] == ["live", "turn_based"] and "turn_based" in pace["description"]
        assert schemas["TurnClock"]["properties"]["seconds"]["maximum"] == 7 * DAY
        assert schemas["BankClock"]["properties"]["initial_seconds"]["maximum"] == 30 * DAY
        assert schemas["BankClock"]["properties"]["increment_seconds"]["maximum"] == DAY
        assert "pace" in schemas["ClockState"]["properties"]


def wake_at(path: str, game_id: int) -> datetime | None:
    with sqlite3.connect(path) as db:
        (value,) = db.execute("SELECT wake_at FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def same_moment(a: datetime | None, b: datetime) -> bool:
    """The same time, to the millisecond a deadline is said in."""
    return a is not None and abs((a - b).total_seconds()) < 0.001


async def adas_state(http: httpx.AsyncClient, code: str, token: str) -> dict[str, Any]:
    r = await http.get(f"/api/rooms/{code}/game", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_deadline_7_days_away_survives_being_put_away_woken_and_a_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ada owes her first pick with 7 days to make it (the bots picked at once). Her deadline is the
    game's wake in the database; the game is put away and loaded again, the server restarts: the
    same deadline, to the millisecond, and the same wake. Two days on, the sweep of unused rooms
    leaves her room alone (its game moves on by itself) while it closes a room without a clock.
    When the clock reaches the deadline, the timeout bot decides for her, once."""
    path = f"{tmp_path}/week.db"
    settings = make_settings(f"sqlite:///{path}", wake_poll_seconds=0.2)
    first = LiveServer(settings)
    first.start()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            code, token = await create_room(http, players=3, bots=[{"kind": "greedy"}] * 2, clock=WEEK, seed=7)
            assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
            started = time.time()

            async def only_ada_owes() -> dict[str, Any] | None:
                state = await adas_state(http, code, token)
                return state if state["clock"] and set(state["clock"]["deadlines"]) == {"0"} else None

            state = await until(only_ada_owes, within=20)
            game_id, version = state["game_id"], state["version"]
            deadline = state["clock"]["deadlines"]["0"]
            assert state["clock"]["mode"] == "turn" and state["clock"]["pace"] == "turn_based"
            assert state["clock"]["seconds"] == 7 * DAY
            assert abs(when(deadline).timestamp() - (started + 7 * DAY)) < 30
            assert same_moment(wake_at(path, game_id), when(deadline))

            services = first.services
            for _ in range(2):  # put away, then loaded again by the next read: nothing moves
                assert await first.run(services.games.put_away(services.games.runtimes[game_id]))
                assert game_id not in services.games.runtimes
                assert same_moment(wake_at(path, game_id), when(deadline))
                again = await adas_state(http, code, token)
                assert (again["version"], again["clock"]["deadlines"]) == (version, {"0": deadline})
            assert await first.run(services.games.put_away(services.games.runtimes[game_id]))

            # a room of people and bots without a clock, where Ada does not move either
            other, other_token = await create_room(http, players=3, bots=[{"kind": "greedy"}] * 2, seed=8)
            assert (await http.post(f"/api/rooms/{other}/start", headers=bearer(other_token))).status_code == 200

            async def bots_picked() -> bool:
                return (await adas_state(http, other, other_token))["to_act"] == [0]

            await until(bots_picked, within=10)
            other_game = (await http.get(f"/api/rooms/{other}")).json()["game"]["id"]
            await until(lambda: wake_at(path, other_game) is None, within=10)  # (written with the bots' steps)
            closed = await first.run(services.sweeper.sweep(at=datetime.now(UTC) + timedelta(days=2)))
            assert [c.code for c in closed] == [other]
            assert (await http.get(f"/api/rooms/{code}")).json()["status"] == "playing"
    finally:
        first.stop()

    second = LiveServer(settings)
    second.start()
    try:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            await second.run(second.services.restored())
            assert second.services.games.runtimes == {}  # the first poll found nothing due
            again = await adas_state(http, code, token)
            assert (again["version"], again["clock"]["deadlines"]) == (version, {"0": deadline})
            assert same_moment(wake_at(path, game_id), when(deadline))
            assert await second.run(second.services.games.put_away(second.services.games.runtimes[game_id]))

            async def timeouts() -> list[dict[str, Any]]:
                r = await http.get(f"/api/rooms/{code}/game/history", headers=bearer(token))
                return [s for s in r.json()["steps"] if s["by_timeout"]]

            # the clock travels to the deadline (the test extra's time-machine; without it, this part is skipped)
            time_machine = pytest.importorskip("time_machine")
            with time_machine.travel(when(deadline) - timedelta(seconds=60), tick=True):
                await asyncio.sleep(1)  # polls come and go (every 0.2 s): nothing is due yet
                assert await timeouts() == []
            with time_machine.travel(when(deadline) + timedelta(seconds=1), tick=True):
                fired = await until(timeouts, within=20)
                assert [(s["seat"], s["seq"]) for s in fired] == [(0, version)]
                assert when(fired[0]["at"]) >= when(deadline)
                later = await adas_state(http, code, token)
                assert later["version"] > version
                await asyncio.sleep(1)
                assert len(await timeouts()) == 1  # once
    finally:
        second.stop()
