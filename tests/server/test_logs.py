"""LOG_FORMAT=json: a real `python -m app` at LOG_LEVEL=debug plays a whole game (joins, a bad token,
tokens in URLs, in a hello message, in bad messages and bodies, a rejoin link and its token); every
line it writes is one JSON object, lines about a room or game name it, and no token of the test
appears anywhere. And the formatters on their own: exceptions, masking."""

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.logs import JsonFormatter, PlainFormatter, bind, redact
from tests.server.helpers import SeatClient, bearer, create_room, join, play_reactive

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def wait_up(url: str, proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + 60
    async with httpx.AsyncClient(base_url=url, timeout=5) as http:
        while time.monotonic() < deadline:
            assert proc.poll() is None, "the server exited"
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise AssertionError("the server did not start")


def start_server(tmp_path: Path, port: int) -> subprocess.Popen:  # type: ignore[type-arg]
    """`python -m app` with LOG_FORMAT=json on a fresh SQLite file; its output goes to two files."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path}/logs.db",
        HOST="127.0.0.1",
        PORT=str(port),
        LOG_FORMAT="json",
        LOG_LEVEL="debug",
        ALLOW_SEED="true",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        # every warning shown (Apprise's import, when a channel is first checked, gives one): each must be
        # a JSON line like the rest
        PYTHONWARNINGS="always",
    )
    with (tmp_path / "stdout.log").open("w") as stdout, (tmp_path / "stderr.log").open("w") as stderr:
        return subprocess.Popen([sys.executable, "-m", "app"], cwd=tmp_path, env=env, stdout=stdout, stderr=stderr)


def stop_server(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    proc.send_signal(signal.SIGTERM)  # uvicorn shuts down cleanly
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def test_json_logs_of_a_real_server(tmp_path: Path) -> None:
    port = free_port()
    proc = start_server(tmp_path, port)
    url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    bad = secrets.token_urlsafe(32)
    try:
        await wait_up(url, proc)
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            code, host = await create_room(http, "P0", players=3, seed=77)
            tokens = {0: host}
            for name in ("P1", "P2"):
                seat, token = await join(http, code, name)
                tokens[seat] = token
            r = await http.get(f"/api/rooms/{code}/game/legal-actions", headers=bearer(bad))
            assert r.status_code == 401
            # a channel to check loads Apprise, whose import warns (below); this one is then refused
            notify = {"urls": ["json://127.0.0.1/hook"]}
            r = await http.put(f"/api/rooms/{code}/seats/1/notify", json=notify, headers=bearer(tokens[1]))
            assert r.status_code == 422, r.text
            # tokens where they do not belong: in a query string and in a path
            await http.get(f"/api/rooms/{code}", params={"token": tokens[1]})
            await http.get(f"/api/rooms/{code}/rejoin/{tokens[2]}")
            async with SeatClient(ws_url, code, bad) as refused:
                await refused.wait_type("error")
            # tokens in bodies and messages that are refused
            r = await http.post(f"/api/rooms/{code}/rejoin", json={"token": tokens[1], "seat": 1})
            assert r.status_code == 422
            async with SeatClient(ws_url, code, tokens[1], header=False) as hello:  # the token in a message
                await hello.wait_type("welcome")
                await hello.send({"type": "hello", "token": tokens[1], "extra": tokens[2]})
                await hello.wait_type("error")
            # a rejoin link moves seat 2: its link's token becomes the seat's
            r = await http.post(f"/api/rooms/{code}/seats/2/rejoin-link", headers=bearer(tokens[2]))
            assert r.status_code == 201, r.text
            secrets_seen = [tokens[2], r.json()["token"]]
            r = await http.post(f"/api/rooms/{code}/rejoin", json={"token": r.json()["token"]})
            assert r.status_code == 200, r.text
            tokens[2] = r.json()["token"]
            r = await http.post(f"/api/rooms/{code}/start", headers=bearer(host))
            assert r.status_code == 200, r.text
            game_id = r.json()["game"]["id"]
            async with contextlib.AsyncExitStack() as stack:
                clients = {s: await stack.enter_async_context(SeatClient(ws_url, code, t)) for s, t in tokens.items()}
                final = await play_reactive(clients, random.Random(77))
            assert final["status"] == "finished"
    finally:
        stop_server(proc)
    text = (tmp_path / "stdout.log").read_text() + (tmp_path / "stderr.log").read_text()
    for secret in [bad, *tokens.values(), *secrets_seen]:
        assert secret not in text, "a token was logged"
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # every line is JSON
    assert lines
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(line), line

    def find(logger: str, message: str) -> dict:
        found = [x for x in lines if x["logger"] == logger and x["message"] == message]
        assert found, f"no {logger}: {message!r} among {[(x['logger'], x['message']) for x in lines]}"
        return found[0]

    assert find("wonders.rooms", f"room {code} created")["room"] == code
    assert find("wonders.rooms", "seat 1 joined")["room"] == code
    assert find("wonders.rooms", "refused a seat token that holds no seat")["room"] == code
    started = find("wonders.rooms", f"game {game_id} started")
    assert (started["room"], started["game_id"]) == (code, game_id)
    finished = find("wonders.games", f"game {game_id} finished")
    assert (finished["room"], finished["game_id"]) == (code, game_id)
    assert any(x["logger"] == "uvicorn.error" and "startup complete" in x["message"] for x in lines)
    assert any(x["logger"] == "py.warnings" and x["level"] == "WARNING" for x in lines)
    access = [x for x in lines if x["logger"] == "uvicorn.access"]
    assert access and all({"client", "method", "path", "status"} <= set(x) for x in access)
    in_room = [x for x in access if x["path"].startswith(f"/api/rooms/{code}")]
    assert in_room and all(x["room"] == code for x in in_room)
    assert any(x["status"] == 401 for x in in_room)
    assert any("token=***" in x["path"] for x in in_room)
    assert any(x["path"] == f"/api/rooms/{code}/rejoin/***" for x in in_room)


def record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    rec = logging.LogRecord("wonders.test", logging.ERROR, __file__, 1, message, args, None)
    rec.__dict__.update(extra)
    return rec


def test_json_formatter_fields_and_exceptions() -> None:
    formatter = JsonFormatter()
    line = json.loads(formatter.format(record("room %s", "ABCDEFG", room="ABCDEFG", game_id=3)))
    assert line["message"] == "room ABCDEFG" and line["room"] == "ABCDEFG" and line["game_id"] == 3
    assert line["level"] == "ERROR" and line["logger"] == "wonders.test" and line["time"].endswith("+00:00")
    assert "room" not in json.loads(formatter.format(record("nothing")))
    token = secrets.token_urlsafe(32)
    try:
        raise ValueError(f"bad seat token {token}")
    except ValueError:
        rec = record("failed")
        rec.exc_info = sys.exc_info()
    line = json.loads(formatter.format(rec))
    assert "ValueError" in line["exc"] and "Traceback" in line["exc"] and token not in line["exc"]


async def test_bound_context_names_room_and_game() -> None:
    async def task() -> dict:
        bind(room="QWERTYU", game_id=12)
        return json.loads(JsonFormatter().format(record("in a task")))

    line = await asyncio.create_task(task())
    assert (line["room"], line["game_id"]) == ("QWERTYU", 12)
    assert "room" not in json.loads(JsonFormatter().format(record("outside")))  # the task's own context


def test_masking() -> None:
    token = secrets.token_urlsafe(32)
    for text in (
        f"Authorization: Bearer {token}",
        f"GET /api/rooms/ABC?token={token}&x=1",
        f'{{"token": "{token}"}}',
        f"rejoin_token={token}",
        f"/api/rooms/ABC/rejoin/{token}",
        f"hash {secrets.token_hex(32)}",
    ):
        masked = redact(text)
        assert token not in masked and "***" in masked, masked
    for text in (
        "room ABCDEFG created",
        "the Authorization header must be 'Bearer <seat token>'",
        "test_two_instances_sweeping_at_once_close_a_room_once",
        "bad_token: that token holds no seat",
    ):
        assert redact(text) == text
    plain = PlainFormatter().format(record("Bearer %s", token))
    assert token not in plain and "ERROR wonders.test: Bearer ***" in plain
