"""The database: migrations agree with the models, the action log's order is decided by the
database when two app instances race, and settings pick the right driver."""

import asyncio
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError

from app.db.migrate import alembic_config, is_current, newest_revision, upgrade_sync
from app.db.models import Action, Base
from app.db.session import async_url
from app.db.sql_store import due_claim
from app.rooms.context import Services
from app.settings import Settings
from tests.server.conftest import make_settings
from tests.server.helpers import until


async def started_bot_game(services: Services, seed: int) -> int:
    """Ann's 3-seat room with two random bots, started: its game's id."""
    joined = await services.rooms.create({"players": 3, "seed": seed}, "Ann", bots=[(1, "random"), (2, "random")])
    code = joined.room["code"]
    await services.rooms.start(await services.rooms.authenticate(code, joined.token))
    game_id, _ = await services.rooms.current_game(code)
    return game_id


def sync_url(url: str) -> str:
    parsed = async_url(url)
    driver = "sqlite" if parsed.get_backend_name() == "sqlite" else "postgresql+psycopg"
    return parsed.set(drivername=driver).render_as_string(hide_password=False)


def schema_diff(url: str) -> list:
    engine = sa.create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    finally:
        engine.dispose()


def test_migrations_agree_with_the_models(database_url: str) -> None:
    cfg = alembic_config(database_url)
    upgrade_sync(database_url)
    assert schema_diff(database_url) == []
    command.downgrade(cfg, "base")
    engine = sa.create_engine(sync_url(database_url))
    with engine.connect() as conn:
        assert set(sa.inspect(conn).get_table_names()) <= {"alembic_version"}
    engine.dispose()
    upgrade_sync(database_url)
    upgrade_sync(database_url)  # a second run changes nothing
    assert schema_diff(database_url) == []


async def test_a_database_migrated_by_a_newer_version_is_refused_in_one_line(database_url: str) -> None:
    """A downgrade: the database's revision is one this version does not know. The server refuses
    to start, saying what happened and what to do, instead of Alembic's traceback."""
    await asyncio.to_thread(upgrade_sync, database_url)
    engine = sa.create_engine(sync_url(database_url))
    with engine.begin() as conn:
        head = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    try:
        with pytest.raises(RuntimeError) as refused:
            await Services.start(make_settings(database_url))
    finally:  # the PostgreSQL database is shared by the session's tests
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = :head"), {"head": head})
        engine.dispose()
    message = str(refused.value)
    assert "newer than this version of the server knows" in message and "'0099'" in message, message
    assert "migrated by a newer version" in message and "restore a backup" in message


def test_the_newest_revision_read_from_the_files_is_alembics_head() -> None:
    assert newest_revision() == ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


async def test_a_database_is_current_only_at_the_newest_revision(database_url: str) -> None:
    await asyncio.to_thread(upgrade_sync, database_url)
    assert await is_current(database_url)
    engine = sa.create_engine(sync_url(database_url))
    try:
        with engine.begin() as conn:
            head = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()
            conn.execute(sa.text("UPDATE alembic_version SET version_num = '0001'"))
        try:
            assert not await is_current(database_url)  # behind: Alembic runs
        finally:  # the PostgreSQL database is shared by the session's tests
            with engine.begin() as conn:
                conn.execute(sa.text("UPDATE alembic_version SET version_num = :head"), {"head": head})
    finally:
        engine.dispose()


async def test_an_empty_or_missing_database_is_not_current(tmp_path: Path) -> None:
    assert not await is_current(f"sqlite:///{tmp_path}/empty.db")
    assert not await is_current("postgresql://nobody@127.0.0.1:1/none")  # nothing answers there


def test_a_start_on_a_current_database_does_not_load_alembic(tmp_path: Path) -> None:
    """A fresh interpreter migrates an empty database (Alembic loaded), then another one starts on
    it as the server does: the schema is found current by one query, Alembic stays unloaded."""
    url = f"sqlite:///{tmp_path}/current.db"
    script = (
        "import asyncio, sys\n"
        "from app.db.migrate import upgrade\n"
        f"asyncio.run(upgrade({url!r}))\n"
        "print('alembic' in sys.modules)\n"
    )
    root = Path(__file__).resolve().parents[2]
    runs = [
        subprocess.run([sys.executable, "-c", script], check=False, cwd=root, capture_output=True, text=True)
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0], [run.stderr for run in runs]
    assert [run.stdout.strip() for run in runs] == ["True", "False"]


def test_the_poll_for_due_games_reads_only_the_due_ones(tmp_path: Path) -> None:
    """SQLite's plan of the poll: through the index on (status, wake_at), without a sort. (With an
    index on wake_at alone it chose the one on status and walked every running game: 38 ms a poll
    with 100,000 of them.)"""
    url = f"sqlite:///{tmp_path / 'wonders.db'}"
    upgrade_sync(url)
    now = datetime.now(UTC)
    statement = due_claim(now, now + timedelta(seconds=30), 50).compile(dialect=sqlite.dialect())
    values = tuple(statement.params[name] for name in statement.positiontup or ())
    with sa.create_engine(url).connect() as conn:
        plan = [row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", values)]
    assert any("INDEX ix_games_status_wake_at (status=? AND wake_at<?)" in step for step in plan), plan
    assert not any("TEMP B-TREE" in step or step.startswith("SCAN games") for step in plan), plan


async def test_the_action_log_refuses_a_second_step_with_the_same_seq(database_url: str) -> None:
    services = await Services.start(make_settings(database_url))
    try:
        game_id = await started_bot_game(services, seed=1)
        async with services.db.engine.begin() as conn:
            await conn.execute(sa.insert(Action).values(game_id=game_id, seq=10_000, seat=0, action={"type": "x"}))
        with pytest.raises(IntegrityError):
            async with services.db.engine.begin() as conn:
                await conn.execute(sa.insert(Action).values(game_id=game_id, seq=10_000, seat=1, action={"type": "y"}))
    finally:
        await services.stop()


async def test_two_instances_racing_for_one_step(database_url: str) -> None:
    """Instance B has not heard of A's step: its insert of the same seq fails, it reads A's step
    from the database, checks its own action again and stores it as the next step."""
    a = await Services.start(make_settings(database_url))
    b = await Services.start(make_settings(database_url), migrate=False)
    try:
        joined = await a.rooms.create({"players": 3, "seed": 9}, "Ann")
        code = joined.room["code"]
        tokens = {0: joined.token}
        for seat in (1, 2):
            tokens[seat] = (await a.rooms.join(code, f"P{seat}")).token
        await a.rooms.start(await a.rooms.authenticate(code, tokens[0]))
        game_id, _ = await a.rooms.current_game(code)
        rt_a, rt_b = await a.games.runtime(game_id), await b.games.runtime(game_id)
        assert rt_a.version == rt_b.version == 0
        await a.games.submit(game_id, 0, rt_a.frame.legal(0)[0], 0)
        assert rt_b.version == 0  # B was not told (no Redis between them here)
        done = await b.games.submit(game_id, 1, rt_b.frame.legal(1)[0], 0)
        assert done.seq == 1 and b.games.conflicts == 1
        assert rt_b.version == 2 and [e["type"] for e in done.events] == ["chosen"]
        # B's seat 0 repeats A's step: a duplicate, found in what B caught up with
        with pytest.raises(Exception, match="already applied"):
            await b.games.submit(game_id, 0, rt_a.frame.legal(0)[0], 0)
        # both instances agree with the stored log
        await a.games.catch_up(rt_a)
        assert rt_a.frame.game.snapshot() == rt_b.frame.game.snapshot()
        # and racing for real: seats 0 and 1 change their picks on both instances at once
        results = await asyncio.gather(
            a.games.submit(game_id, 0, rt_a.frame.legal(0)[-1], 2),
            b.games.submit(game_id, 1, rt_b.frame.legal(1)[-1], 2),
            return_exceptions=True,
        )
        assert all(not isinstance(r, Exception) for r in results), results
        assert sorted(r.seq for r in results) == [2, 3]
        await a.games.catch_up(rt_a)
        await b.games.catch_up(rt_b)
        assert rt_a.version == rt_b.version == 4
        assert rt_a.frame.game.snapshot() == rt_b.frame.game.snapshot()
    finally:
        await b.stop()
        await a.stop()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///./wonders.db", "sqlite+aiosqlite:///./wonders.db"),
        ("sqlite:////tmp/x.db", "sqlite+aiosqlite:////tmp/x.db"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("postgresql://user@host/db", "postgresql+asyncpg://user@host/db"),
        ("postgres://user:pw@host:5433/db", "postgresql+asyncpg://user:pw@host:5433/db"),
        ("postgresql+psycopg2://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql://u@h/db?sslmode=require", "postgresql+asyncpg://u@h/db?ssl=require"),
    ],
)
def test_database_urls_get_an_async_driver(given: str, expected: str) -> None:
    assert async_url(given).render_as_string(hide_password=False) == expected


def test_unsupported_database_url() -> None:
    with pytest.raises(ValueError, match="unsupported DATABASE_URL"):
        async_url("mysql://u@h/db")


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://me@db/wonders")
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9001")
    monkeypatch.setenv("MAX_ROOMS", "12")
    monkeypatch.setenv("REDIS_URL", "redis://cache:6379/0")
    settings = Settings()
    assert settings.database_url == "postgresql://me@db/wonders"
    assert (settings.host, settings.port, settings.max_rooms) == ("0.0.0.0", 9001, 12)
    assert settings.redis_url == "redis://cache:6379/0"
    monkeypatch.delenv("DATABASE_URL")
    assert Settings().database_url == "sqlite:///./wonders.db"
    assert Settings().ws_max_message_bytes == 65536


def test_the_redis_prefix_is_wonders_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_PREFIX")  # the tests' own, see tests/conftest.py
    assert Settings().redis_prefix == "wonders:"
    monkeypatch.setenv("REDIS_PREFIX", "staging:")
    assert Settings().redis_prefix == "staging:"


def test_settings_the_server_refuses_are_said_in_a_line_each(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.__main__ import main
    from app.settings import get_settings

    monkeypatch.setenv("REDIS_PREFIX", "two words")
    monkeypatch.setenv("INSTANCE_ID", "a:b")  # ':' separates an instance from a seat in Redis
    monkeypatch.setenv("PORT", "eighty")
    get_settings.cache_clear()
    try:
        assert main([]) == 2
    finally:
        get_settings.cache_clear()
    assert capsys.readouterr().err.splitlines() == [
        "error: the setting PORT='eighty' is refused: Input should be a valid integer, unable to parse string as an "
        "integer",
        "error: the setting REDIS_PREFIX='two words' is refused: String should match pattern '^[A-Za-z0-9_.:-]+$'",
        "error: the setting INSTANCE_ID='a:b' is refused: String should match pattern '^[A-Za-z0-9_.-]{1,64}$'",
    ]


async def test_actions_written_on_either_path_read_back_the_same(database_url: str) -> None:
    """SQLite actions are written through the sqlite3 cursor; what SQLAlchemy reads back is the same."""
    from datetime import UTC, datetime

    from app.db import repo
    from app.db.log_writer import Entry

    services = await Services.start(make_settings(database_url))
    try:
        game_id = await started_bot_game(services, seed=2)
        at = datetime(2030, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
        action = {"type": "x", "nested": {"ünïcode": [1, 2.5, None, True]}}
        assert await services.store.writer.append(Entry(game_id, 50_000, 2, action, "id-1", at))
        assert not await services.store.writer.append(Entry(game_id, 50_000, 1, {"type": "y"}, None, at))
        async with services.db.sessions() as session:
            (row,) = [r for r in await repo.actions_of(session, game_id) if r["seq"] == 50_000]
        assert row["action"] == action and row["action_id"] == "id-1" and row["seat"] == 2
        assert row["created_at"].replace(tzinfo=UTC) == at
    finally:
        await services.stop()


async def test_one_bad_row_fails_only_its_own_action(database_url: str) -> None:
    """A batch holding one action the database cannot store (a seat past its integer) stores the
    others: each gets its own answer (the edge refuses such values; this is the writer's own guard)."""
    from datetime import UTC, datetime

    from app.db import repo
    from app.db.log_writer import Entry

    services = await Services.start(make_settings(database_url))
    try:
        first, second = await started_bot_game(services, seed=2), await started_bot_game(services, seed=3)
        writer, now = services.store.writer, datetime.now(UTC)
        good = writer.submit(Entry(first, 70_000, 0, {"type": "x"}, "good", now))
        bad = writer.submit(Entry(second, 70_000, 2**70, {"type": "y"}, "bad", now))  # one batch: no await between
        after = writer.submit(Entry(second, 70_001, 1, {"type": "z"}, None, now))
        assert await good and await after
        with pytest.raises((OverflowError, sa.exc.DBAPIError)):  # SQLite's driver, PostgreSQL
            await bad
        async with services.db.sessions() as session:
            assert 70_000 in [r["seq"] for r in await repo.actions_of(session, first)]
            assert [r["seq"] for r in await repo.actions_of(session, second) if r["seq"] >= 70_000] == [70_001]
    finally:
        await services.stop()


async def test_sqlite_writes_wait_for_another_writer(sqlite_url: str) -> None:
    """The action log's SQLite connection never blocks the event loop on a lock: it retries."""
    import sqlite3
    from datetime import UTC, datetime

    from app.db.log_writer import Entry

    services = await Services.start(make_settings(sqlite_url))
    try:
        game_id = await started_bot_game(services, seed=2)
        other = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another writer holds the lock

        async def commit_once_retried() -> None:
            await until(lambda: services.store.writer.retries > 0, within=10)
            other.execute("COMMIT")

        release = asyncio.create_task(commit_once_retried())
        stored = await services.store.writer.append(Entry(game_id, 60_000, 0, {"type": "x"}, None, datetime.now(UTC)))
        await release
        assert stored and services.store.writer.retries > 0
        other.close()
    finally:
        await services.stop()
