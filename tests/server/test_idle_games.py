"""Games held in memory only while active (app/rooms/idle.py), loaded again from their kept state
(app/rooms/saved_states.py), and woken from the database when a deadline or a bot's move comes
(app/rooms/wakes.py): a game put away and loaded again is the game it was (from its kept state,
from its log alone, from a kept state that cannot be used); a deadline due while no instance holds
its game fires once, also across a restart and with two instances; a server starts without
loading any game, and holds only the games in use."""

import asyncio
import random
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from app.db.models import Action, Game, GameState
from app.engine import GameConfig, replay
from app.rooms.context import Services
from app.rooms.frames import Frame
from tests.server.conftest import _clear_postgres, make_settings
from tests.server.helpers import until
from tests.server.test_db import sync_url

HOUR = {"mode": "turn", "seconds": 3600}


async def people_room(
    services: Services, *, clock: dict[str, Any] | None = None, seed: int = 5, **settings: Any
) -> tuple[str, int]:
    """Ann, Bo and Cy at a classic table, started: the room's code and its game's id."""
    values: dict[str, Any] = {"players": 3, "seed": seed, **({"clock": clock} if clock else {}), **settings}
    joined = await services.rooms.create(values, "Ann")
    code = joined.room["code"]
    for name in ("Bo", "Cy"):
        await services.rooms.join(code, name)
    await services.rooms.start(await services.rooms.authenticate(code, joined.token))
    game_id, _ = await services.rooms.current_game(code)
    return code, game_id


async def play(services: Services, game_id: int, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        rt = await services.games.runtime(game_id)
        seat = rng.choice(rt.frame.to_act)
        await services.games.submit(game_id, seat, rng.choice(rt.frame.legal(seat)), rt.version)


def what_it_shows(frame: Frame, seats: int) -> dict[str, Any]:
    """Everything a frame tells anyone: views, legal actions, markers (what makes an action stale),
    clocks, the step's events."""
    return {
        "version": frame.version,
        "views": [frame.view_text(s) for s in [None, *range(seats)]],
        "legal": frame.legal_json,
        "markers": frame.markers,
        "to_act": frame.to_act,
        "clocks": frame.clocks,
        "events": frame.events,
        "timeout_seat": frame.timeout_seat,
    }


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[Services]:
    started = await Services.start(make_settings(database_url, game_idle_seconds=0, wake_poll_seconds=0.1))
    try:
        yield started
    finally:
        await started.stop()


def in_database(database_url: str, statement: Any, params: dict[str, Any] | None = None) -> Any:
    engine = sa.create_engine(sync_url(database_url))
    try:
        with engine.begin() as conn:
            return conn.execute(statement, params or {}).all()
    finally:
        engine.dispose()


def kept(database_url: str, game_id: int) -> int | None:
    """The version of the game's kept state."""
    rows = in_database(database_url, sa.select(GameState.version).where(GameState.game_id == game_id))
    return rows[0][0] if rows else None


def spoil(database_url: str, game_id: int, **values: Any) -> None:
    in_database(
        database_url,
        sa.update(GameState).where(GameState.game_id == game_id).values(**values).returning(GameState.game_id),
    )


@pytest.mark.parametrize("how", ["kept", "log", "another engine", "damaged", "not the log"])
async def test_a_game_put_away_and_loaded_again_is_the_game_it_was(
    services: Services, database_url: str, how: str
) -> None:
    """Loaded from its kept state, or from its log when the kept state is missing, of another engine,
    damaged, or another game's: the same views, legal actions, markers, clocks; and it plays on."""
    _, game_id = await people_room(services, clock=HOUR)
    rng = random.Random(7)
    await play(services, game_id, 17, rng)
    rt = services.games.runtimes[game_id]
    before = what_it_shows(rt.frame, 3)
    assert await services.games.put_away(rt)
    assert game_id not in services.games.runtimes
    assert kept(database_url, game_id) == 17
    if how == "log":
        in_database(database_url, sa.delete(GameState).where(GameState.game_id == game_id).returning(GameState.game_id))
    elif how == "another engine":
        spoil(database_url, game_id, engine="an older engine")
    elif how == "damaged":
        spoil(database_url, game_id, state=b"not a state")
    elif how == "not the log":  # the kept state of another game entirely, at the same version
        _, other = await people_room(services, seed=99)
        await play(services, other, 17, random.Random(1))
        assert await services.games.put_away(services.games.runtimes[other])
        (state,) = in_database(database_url, sa.select(GameState.state).where(GameState.game_id == other))[0]
        spoil(database_url, game_id, state=state)
    again = await services.games.runtime(game_id)
    assert what_it_shows(again.frame, 3) == before
    stored = await services.store.game(game_id)
    assert stored is not None
    truth = replay(GameConfig.model_validate(stored.config), stored.steps)
    for seat in range(3):
        assert again.frame.legal(seat) == truth.legal_actions(seat) and again.frame.view(seat) == truth.view(seat)
    await play(services, game_id, 6, rng)  # and it plays on
    assert (await services.games.runtime(game_id)).version == 23
    assert await services.games.put_away(services.games.runtimes[game_id])
    assert kept(database_url, game_id) == 23  # kept again (over a state that could not be used, too)


async def test_a_state_is_kept_every_so_many_steps(database_url: str) -> None:
    services = await Services.start(make_settings(database_url, snapshot_every=5, wake_poll_seconds=0))
    try:
        _, game_id = await people_room(services)
        rng = random.Random(2)
        for version in (5, 10):
            await play(services, game_id, 5, rng)
            await until(lambda version=version: kept(database_url, game_id) == version, within=10)
        await play(services, game_id, 2, rng)
        assert await services.games.put_away(services.games.runtimes[game_id])
        assert kept(database_url, game_id) == 12
    finally:
        await services.stop()


async def test_a_state_due_while_one_is_being_kept_is_kept_when_that_one_ends(database_url: str) -> None:
    """The save of version 5 is held until the game is at 12: version 10's turn comes while it is
    under way, so it is put off, and taken up when that save ends (not left for step 15)."""
    services = await Services.start(make_settings(database_url, snapshot_every=5, wake_poll_seconds=0))
    held = asyncio.Event()
    store_save = services.store.save_state

    async def save_when_let(game_id: int, saved: Any) -> None:
        await held.wait()
        await store_save(game_id, saved)

    services.store.save_state = save_when_let  # type: ignore[method-assign]
    try:
        _, game_id = await people_room(services)
        await play(services, game_id, 12, random.Random(2))
        assert services.games.runtimes[game_id].saving and kept(database_url, game_id) is None
        held.set()
        # (The runtime, not the table: the row is visible a moment before the save's await returns.)
        runtime = services.games.runtimes[game_id]
        await until(lambda: runtime.saved_version == 12 and not runtime.saving, within=10)
        assert kept(database_url, game_id) == 12
    finally:
        await services.stop()


async def timeouts(services: Services, game_id: int) -> list[int]:
    """The seats of the game's steps, in order, if every one was decided on timeout (else [])."""
    stored = await services.store.game(game_id)
    assert stored is not None
    return [s["seat"] for s in stored.steps] if all(s["by_timeout"] for s in stored.steps) else []


def one_decision_a_seat_and_turn(seats: list[int], turns: int) -> bool:
    """Three seats each decided once in each of the first `turns` turns (a second decision for a
    deadline would be a changed pick: the seat twice in a turn)."""
    return len(seats) >= 3 * turns and all(sorted(seats[3 * t : 3 * t + 3]) == [0, 1, 2] for t in range(turns))


async def test_a_deadline_due_while_no_instance_holds_the_game_fires_once(database_url: str) -> None:
    """Nobody acts, with a 1 s clock; the game is put away; the poll finds its wake in the database,
    loads it, and the timeout bot decides for each seat, once. The server stops; a new one (which
    loads no game at the start) decides the next turn, once."""
    settings = make_settings(database_url, game_idle_seconds=0, wake_poll_seconds=0.1)
    services = await Services.start(settings)
    try:
        _, game_id = await people_room(services, clock={"mode": "turn", "seconds": 1}, timeouts_before_bot=9)
        assert await services.games.put_away(services.games.runtimes[game_id])
        await until(lambda: len_at_least(timeouts(services, game_id), 3), within=20)
        await until(lambda: services.wakes.woken >= 1, within=5)  # (counted once wake_game returns)
        await services.games.put_away(services.games.runtimes[game_id])
    finally:
        await services.stop()
    again = await Services.start(settings, migrate=False)
    try:
        assert again.games.runtimes == {}  # nothing loaded at the start
        seats = await until(lambda: len_at_least(timeouts(again, game_id), 6), within=20)
        assert one_decision_a_seat_and_turn(seats, 2), seats
    finally:
        await again.stop()


async def len_at_least(found: Any, count: int) -> Any:
    got = await found
    return got if len(got) >= count else None


@pytest.mark.postgres
async def test_two_instances_wake_a_game_once(pg_server_url: str) -> None:
    """Two instances poll one PostgreSQL for due games: each wake is claimed by one (SKIP LOCKED),
    and each deadline decided once."""
    _clear_postgres(pg_server_url)
    settings = make_settings(pg_server_url, game_idle_seconds=0, wake_poll_seconds=0.05)
    a = await Services.start(settings)
    b = await Services.start(settings, migrate=False)
    try:
        games = []
        for seed in range(4):
            _, game_id = await people_room(a, clock={"mode": "turn", "seconds": 1}, timeouts_before_bot=9, seed=seed)
            assert await a.games.put_away(a.games.runtimes[game_id])
            games.append(game_id)

        for game_id in games:
            seats = await until(lambda game_id=game_id: len_at_least(timeouts(a, game_id), 6), within=30)
            assert one_decision_a_seat_and_turn(seats, 2), (game_id, seats)
        await until(lambda: a.wakes.woken + b.wakes.woken >= len(games), within=5)
    finally:
        await b.stop()
        await a.stop()


async def test_a_server_holds_only_the_games_in_use(database_url: str) -> None:
    """Two thousand running games stored: the server starts without loading any, loads the one asked
    for, and puts it away again once unused."""
    settings = make_settings(database_url, game_idle_seconds=0, wake_poll_seconds=0)
    services = await Services.start(settings)
    try:
        _, game_id = await people_room(services)
        await play(services, game_id, 3, random.Random(4))
        stored = await services.store.game(game_id)
        assert stored is not None
    finally:
        await services.stop()
    copy_games(database_url, game_id, 2000)
    services = await Services.start(settings, migrate=False)
    try:
        await services.restored()
        assert services.games.runtimes == {}
        rt = await services.games.runtime(game_id + 1500)
        assert list(services.games.runtimes) == [game_id + 1500] and rt.version == 3
        rt.moved_at = time.monotonic() - 3600  # unused for an hour
        services.idle.idle_seconds = 600
        assert await services.idle.sweep() == [game_id + 1500]
        assert services.games.runtimes == {}
    finally:
        await services.stop()


def copy_games(database_url: str, game_id: int, copies: int) -> None:
    """`copies` more running games like `game_id` (its room, config and log), straight into the
    database."""
    games, actions = Game.__table__, Action.__table__
    engine = sa.create_engine(sync_url(database_url))
    try:
        with engine.begin() as conn:
            game = dict(conn.execute(sa.select(games).where(games.c.id == game_id)).mappings().one())
            log = [dict(a) for a in conn.execute(sa.select(actions).where(actions.c.game_id == game_id)).mappings()]
            for first in range(0, copies, 500):
                ids = range(game_id + 1 + first, game_id + 1 + min(copies, first + 500))
                conn.execute(games.insert(), [{**game, "id": i} for i in ids])
                conn.execute(
                    actions.insert(),
                    [{**{k: v for k, v in a.items() if k != "id"}, "game_id": i} for i in ids for a in log],
                )
    finally:
        engine.dispose()


async def test_running_games_stored_before_the_wakes_are_woken_once_after_the_upgrade(database_url: str) -> None:
    """A database of the schema before games' wakes (0003): upgrading it makes each running game due
    at once, and the first poll wakes it and writes its real wake (its deadline), so no game with a
    clock is forgotten by a server that loads none at the start."""
    from alembic import command

    from app.db.migrate import alembic_config

    settings = make_settings(database_url, game_idle_seconds=0, wake_poll_seconds=0)
    services = await Services.start(settings)
    try:
        _, game_id = await people_room(services, clock=HOUR)
    finally:
        await services.stop()
    config = alembic_config(database_url)
    await asyncio.to_thread(command.downgrade, config, "0003")
    await asyncio.to_thread(command.upgrade, config, "head")
    (wake,) = in_database(database_url, sa.select(Game.wake_at).where(Game.id == game_id))[0]
    assert wake.year == 2000  # due at once
    services = await Services.start(make_settings(database_url, game_idle_seconds=0, wake_poll_seconds=0.1))
    try:

        def woken() -> Any:  # (the claim's lease, a minute on, comes first)
            (at,) = in_database(database_url, sa.select(Game.wake_at).where(Game.id == game_id))[0]
            at = at.replace(tzinfo=at.tzinfo or UTC)
            return at if at.timestamp() > time.time() + 600 else None

        # (the counter moves after the wake is written: wait for both)
        at = await until(lambda: woken() if services.wakes.woken else None, within=10)
        assert abs(at.timestamp() - (time.time() + 3600)) < 120  # its deadline, an hour after its start
        await asyncio.sleep(0.5)  # a few more polls: none wakes it again
        assert services.wakes.woken == 1
    finally:
        await services.stop()


async def test_a_wake_computed_before_a_step_does_not_overwrite_the_steps_own(database_url: str) -> None:
    """A wake is written by each step in its transaction, and apart (when bots change, at the start,
    when woken) from a version: one computed at an older version than the last stored step is not
    written (a bot may have moved while it waited for the database), so no stale wake is left."""
    services = await Services.start(make_settings(database_url, wake_poll_seconds=0))
    try:
        _, game_id = await people_room(services)
        await play(services, game_id, 2, random.Random(1))
        later = datetime(2030, 1, 1, tzinfo=UTC)
        assert not await services.store.set_wake(game_id, later, version=1)  # a step 1 is stored
        (wake,) = in_database(database_url, sa.select(Game.wake_at).where(Game.id == game_id))[0]
        assert wake is None
        assert await services.store.set_wake(game_id, later, version=2)
        (wake,) = in_database(database_url, sa.select(Game.wake_at).where(Game.id == game_id))[0]
        assert wake.year == 2030
    finally:
        await services.stop()
