"""Fixtures for the server tests: databases (SQLite files, and a throw-away PostgreSQL database),
the app in-process (httpx over ASGI), and a real uvicorn serving it for websocket tests."""

import contextlib
import os
import secrets
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from app.engine import new_game
from app.main import create_app
from app.settings import Settings
from tests.server.live import LiveServer

PG_HOST, PG_PORT = "127.0.0.1", 5432
IN_CI = os.environ.get("CI", "").lower() == "true"


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, dropped at the end.

    Skips when no PostgreSQL listens on 127.0.0.1:5432, except in CI (CI=true), where that fails."""
    if not _port_open(PG_HOST, PG_PORT):
        message = f"no PostgreSQL at {PG_HOST}:{PG_PORT}"
        if IN_CI:
            pytest.fail(message + " (CI=true: PostgreSQL is required)")
        pytest.skip(message)
    import psycopg

    admin_url = None
    for user in ("postgres", "root"):
        try:
            with psycopg.connect(f"postgresql://{user}@{PG_HOST}:{PG_PORT}/test", connect_timeout=3):
                admin_url = f"postgresql://{user}@{PG_HOST}:{PG_PORT}/test"
                break
        except psycopg.Error:
            continue
    if admin_url is None:
        message = "cannot log in to PostgreSQL as postgres or root (database test)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    name = f"wonders_test_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    user = admin_url.split("//")[1].split("@")[0]
    try:
        yield f"postgresql://{user}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _clear_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('public.rooms')").fetchone()
        if exists and exists[0]:
            conn.execute("TRUNCATE actions, games, seats, rooms RESTART IDENTITY CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:  # type: ignore[no-untyped-def]
    """Each test that uses it runs twice: on a SQLite file and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/wonders.db"
    url = request.getfixturevalue("pg_server_url")
    _clear_postgres(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path) -> str:  # type: ignore[no-untyped-def]
    return f"sqlite:///{tmp_path}/wonders.db"


def make_settings(database_url: str, **overrides: object) -> Settings:
    # tests make many rooms from one address: no per-address limit unless a test sets one
    values: dict[str, object] = {
        "database_url": database_url,
        "allow_seed": True,
        "redis_url": None,
        "rooms_per_address": 0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The app in-process (lifespan included) behind an httpx client, on SQLite and on PostgreSQL."""
    async with app_client(make_settings(database_url)) as c:
        yield c


@pytest.fixture
async def sqlite_client(sqlite_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with app_client(make_settings(sqlite_url)) as c:
        yield c


class app_client:
    """`async with app_client(settings) as client:` the app with its lifespan, over ASGI."""

    def __init__(self, settings: Settings, factory=new_game) -> None:  # type: ignore[no-untyped-def]
        self.app = create_app(settings, factory=factory)

    async def __aenter__(self) -> httpx.AsyncClient:
        self._lifespan = self.app.router.lifespan_context(self.app)
        await self._lifespan.__aenter__()
        self.client = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://test")
        self.client.app = self.app  # type: ignore[attr-defined]
        return self.client

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()
        await self._lifespan.__aexit__(None, None, None)


@contextlib.contextmanager
def live_app_server(database_url: str, **overrides: Any) -> Iterator[LiveServer]:
    """A real uvicorn (in a thread) on a free port, on this database, with these settings."""
    server = LiveServer(make_settings(database_url, **overrides))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def live_sqlite_server(tmp_path_factory: pytest.TempPathFactory, name: str, **overrides: Any) -> Iterator[LiveServer]:
    """live_app_server on a fresh SQLite database."""
    with live_app_server(f"sqlite:///{tmp_path_factory.mktemp(name) / 'wonders.db'}", **overrides) as server:
        yield server


@contextlib.contextmanager
def live_postgres_server(url: str, **overrides: Any) -> Iterator[LiveServer]:
    """live_app_server on the test PostgreSQL database, emptied first."""
    _clear_postgres(url)
    with live_app_server(url, **overrides) as server:
        yield server


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real uvicorn (in a thread) on a free port, with a fresh SQLite database."""
    with live_sqlite_server(tmp_path_factory, "live") as server:
        yield server


@pytest.fixture(scope="module")
def live_pg_server(pg_server_url: str) -> Iterator[LiveServer]:
    with live_postgres_server(pg_server_url) as server:
        yield server


REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The Redis at 127.0.0.1:6379 (skipped when absent, except in CI where it is required)."""
    if not _port_open(REDIS_HOST, REDIS_PORT):
        message = f"no Redis at {REDIS_HOST}:{REDIS_PORT}"
        if IN_CI:
            pytest.fail(message + " (CI=true: Redis is required)")
        pytest.skip(message)
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/0"


@contextlib.asynccontextmanager
async def two_instances(
    pg_server_url: str, redis_url: str, name: str, **settings: Any
) -> AsyncIterator[tuple[LiveServer, LiveServer, httpx.AsyncClient, httpx.AsyncClient]]:
    """Two app instances sharing PostgreSQL (emptied first) and Redis, each with an HTTP client."""
    _clear_postgres(pg_server_url)
    servers = [
        LiveServer(
            make_settings(
                pg_server_url, redis_url=redis_url, instance_id=f"{name}{n}-{secrets.token_hex(2)}", **settings
            )
        )
        for n in range(2)
    ]
    for server in servers:
        server.start()
    try:
        async with (
            httpx.AsyncClient(base_url=servers[0].url, timeout=30) as http_a,
            httpx.AsyncClient(base_url=servers[1].url, timeout=30) as http_b,
        ):
            yield servers[0], servers[1], http_a, http_b
    finally:
        for server in servers:
            server.stop()
