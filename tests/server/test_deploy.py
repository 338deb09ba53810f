"""The Dockerfile and docker-compose.yml (no Docker engine runs here): they parse, and they say what
the server needs; `python -m app` and its start."""

import gc
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from app.__main__ import main
from app.rooms.context import GC_THRESHOLDS, Services
from tests.server.conftest import make_settings

ROOT = Path(__file__).resolve().parents[2]


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def test_dockerfile() -> None:
    instructions = dockerfile_instructions()
    keywords = [k for k, _ in instructions]
    assert keywords[0] == "FROM" and instructions[0][1].startswith("python:3.11-slim")
    assert set(keywords) <= {"FROM", "ENV", "WORKDIR", "COPY", "RUN", "USER", "EXPOSE", "VOLUME", "HEALTHCHECK", "CMD"}
    user = [v for k, v in instructions if k == "USER"]
    assert user and user[-1] not in ("root", "0")
    assert keywords.index("USER") < keywords.index("CMD")
    copied = " ".join(v for k, v in instructions if k == "COPY")
    for needed in ("pyproject.toml", "app", "migrations", "alembic.ini"):
        assert needed in copied
    cmd = json.loads(next(v for k, v in instructions if k == "CMD"))
    assert cmd[:2] == ["sh", "-c"]
    steps = [shlex.split(part) for part in cmd[2].split("&&")]
    assert steps[0] == ["python", "-m", "app", "migrate"]
    assert steps[1] == ["exec", "python", "-m", "app"]
    env = " ".join(v for k, v in instructions if k == "ENV")
    assert "HOST=0.0.0.0" in env and "PORT=8000" in env
    assert "8000" in next(v for k, v in instructions if k == "EXPOSE")
    health = next(v for k, v in instructions if k == "HEALTHCHECK")
    assert "/healthz" in health


def test_docker_compose() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"app", "db", "redis"}
    app = services["app"]
    assert app["build"] == "."
    assert (
        app["environment"]["DATABASE_URL"].startswith("postgresql://")
        and "@db:5432/" in app["environment"]["DATABASE_URL"]
    )
    assert app["environment"]["REDIS_URL"].startswith("redis://redis:6379")
    assert app["command"][-1] == "python -m app migrate && exec python -m app"
    assert app["depends_on"] == {"db": {"condition": "service_healthy"}, "redis": {"condition": "service_healthy"}}
    for name, service in services.items():
        assert service["healthcheck"]["test"], name
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    db_env = services["db"]["environment"]
    user, password, name = db_env["POSTGRES_USER"], db_env["POSTGRES_PASSWORD"], db_env["POSTGRES_DB"]
    assert app["environment"]["DATABASE_URL"] == f"postgresql://{user}:{password}@db:5432/{name}"


def test_migrate_command(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.settings import get_settings

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/m.db")
    get_settings.cache_clear()
    try:
        assert main(["migrate"]) == 0
        assert main(["bogus"]) == 2
    finally:
        get_settings.cache_clear()
    import sqlite3

    tables = {r[0] for r in sqlite3.connect(tmp_path / "m.db").execute("select name from sqlite_master")}
    assert {"rooms", "seats", "games", "actions", "alembic_version"} <= tables


def test_the_server_imports_without_collections_and_collects_once_started(tmp_path: Path) -> None:
    """`python -m app` imports the app with the garbage collector off (a tenth of the import was its
    walks over objects that live as long as the process); the start turns it on again."""
    probe = (
        "import gc, runpy, sys, uvicorn\n"
        "uvicorn.run = lambda *a, **k: print(gc.isenabled())\n"  # stop where the app would be served
        "sys.argv = ['app']\n"
        "runpy.run_module('app', run_name='__main__')\n"
    )
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'wonders.db'}"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False"]


def test_a_start_makes_every_game_kind_ready_before_anyone_opens_a_game(tmp_path: Path) -> None:
    """Importing the app leaves each game kind's rules unloaded (they load with a kind's first game);
    the services' start loads them, so a cold game's first state after a start does not wait for them."""
    rules = ["app.engine.classic.game", "app.engine.classic.armada.game", "app.engine.duel.game"]
    database = f"sqlite:///{tmp_path / 'wonders.db'}"
    probe = (
        "import asyncio, sys\n"
        "import app.main\n"
        "from app.rooms.context import Services\n"
        "from tests.server.conftest import make_settings\n"
        f"rules = {rules!r}\n"
        "print([r in sys.modules for r in rules])\n"
        "async def start():\n"
        f"    services = await Services.start(make_settings({database!r}))\n"
        "    print([r in sys.modules for r in rules])\n"
        "    await services.stop()\n"
        "asyncio.run(start())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[False, False, False]", "[True, True, True]"]


def test_a_start_loads_no_apprise_until_a_channel_is_given(tmp_path: Path) -> None:
    """Apprise takes half a second to load: a start (with its outbox's first round) leaves it alone,
    and the first channel URL to check loads it."""
    database = f"sqlite:///{tmp_path / 'wonders.db'}"
    probe = (
        "import asyncio, sys\n"
        "import app.main\n"
        "from app.rooms.channels import check_urls\n"
        "from app.rooms.context import Services\n"
        "from tests.server.conftest import make_settings\n"
        "async def start():\n"
        f"    services = await Services.start(make_settings({database!r}, notify_poll_seconds=0.01))\n"
        "    await asyncio.sleep(0.1)\n"
        "    print('apprise' in sys.modules)\n"
        "    print(await check_urls(['json://example.com/hook'], services.settings))\n"
        "    print('apprise' in sys.modules)\n"
        "    await services.stop()\n"
        "asyncio.run(start())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:3] == ["False", "['json://example.com/hook']", "True"]


async def test_a_start_turns_the_collector_on(tmp_path: Path) -> None:
    gc.disable()
    try:
        services = await Services.start(make_settings(f"sqlite:///{tmp_path / 'wonders.db'}"))
        try:
            assert gc.isenabled() and gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > 0
        finally:
            await services.stop()
    finally:
        gc.enable()
