"""A disk that refuses the server's writes in the middle of a game, then takes them again
(SQLite and PostgreSQL).

A real `python -m app` on SQLite whose file size limit (RLIMIT_FSIZE, lowered from outside with
prlimit while it runs) stops its database files from growing: SQLite's writes fail as they would on
a full or failing disk. Every action meanwhile gets 503 `database_down` saying the disk refused it,
and changes nothing; `/healthz` answers 503 `writes_failing` (a monitor sees it, not only the
log); `/metrics` counts the refused batches. Once the disk takes writes again the same action (the
same action_id) is accepted and the health check is green again."""

import asyncio
import os
import resource
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from bench.live import AppProcess, free_port, sqlite_url
from tests.server.conftest import live_postgres_server
from tests.server.helpers import bearer, full_room


def writes_refused(metrics: str) -> float:
    (line,) = [line for line in metrics.splitlines() if line.startswith("wonders_action_writes_failed_total")]
    return float(line.split()[1])


async def test_a_disk_that_refuses_writes_refuses_actions_and_says_so(tmp_path: Path) -> None:
    database = tmp_path / "wonders.db"
    server = AppProcess(
        sqlite_url(database),
        free_port(),
        tmp_path / "server.log",
        env={"ALLOW_SEED": "true"},
        ignore_file_size_limit=True,
    )
    with server:
        assert server.pid is not None
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            code, tokens = await full_room(http, 3, seed=5)  # three people: nobody acts but this test
            state: dict[str, Any] = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
            body = {"action": state["legal_actions"][0], "version": state["version"], "action_id": "first pick"}
            refused_before = writes_refused((await http.get("/metrics")).text)

            # the database files may not grow any more: the log's next write fails
            wal = await asyncio.to_thread(os.path.getsize, f"{database}-wal")
            resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (wal, resource.RLIM_INFINITY))
            r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[0]))
            assert r.status_code == 503 and r.headers["retry-after"] == "2", r.text
            assert r.json()["error"]["code"] == "database_down"
            assert "could not write to its disk" in r.json()["error"]["message"]
            after = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
            assert after["version"] == state["version"] and after["legal_actions"] == state["legal_actions"]
            health = await http.get("/healthz")
            assert health.status_code == 503 and health.json()["error"]["code"] == "writes_failing", health.text
            assert "disk I/O error" in health.json()["error"]["message"]  # what SQLite said, for the operator
            assert writes_refused((await http.get("/metrics")).text) == refused_before + 1

            # the disk takes writes again
            resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text
            assert (await http.get("/healthz")).status_code == 200
            history = (await http.get(f"/api/rooms/{code}/game/history")).json()
            assert [(s["seq"], s["seat"]) for s in history["steps"]] == [(0, 0)]  # stored once
    assert "Traceback" not in (tmp_path / "server.log").read_text()


DISK_FULL_TRIGGER = """
CREATE FUNCTION refuse_for_a_full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full';
END $$;
CREATE TRIGGER disk_is_full BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION refuse_for_a_full_disk();
"""
DISK_FREED = "DROP TRIGGER IF EXISTS disk_is_full ON {table}; DROP FUNCTION IF EXISTS refuse_for_a_full_disk();"


@pytest.mark.postgres
async def test_a_postgresql_whose_disk_is_full_refuses_actions_and_says_so(pg_server_url: str) -> None:
    """PostgreSQL answers an INSERT on a full disk with SQLSTATE 53100 (disk_full), which asyncpg
    hands up as a plain DBAPIError, not an OperationalError: it was taken for a bad row, written
    again row by row, and /healthz stayed green (seen with a tablespace on a full tmpfs). Here a
    trigger raises that very error for every action."""
    with live_postgres_server(pg_server_url) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            code, tokens = await full_room(http, 3, seed=6)
            state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
            body = {"action": state["legal_actions"][0], "version": state["version"], "action_id": "first pick"}
            refused_before = writes_refused((await http.get("/metrics")).text)
            with psycopg.connect(pg_server_url, autocommit=True) as db:
                db.execute(DISK_FULL_TRIGGER.format(table="actions"))
                try:
                    r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[0]))
                    assert r.status_code == 503 and r.json()["error"]["code"] == "database_down", r.text
                    assert "could not write to its disk" in r.json()["error"]["message"]
                    health = await http.get("/healthz")
                    assert health.status_code == 503 and health.json()["error"]["code"] == "writes_failing"
                    assert "No space left on device" in health.json()["error"]["message"]
                    assert writes_refused((await http.get("/metrics")).text) == refused_before + 1
                    r = await http.post("/api/rooms", json={"name": "Cy"})  # rooms are stored elsewhere: fine
                    assert r.status_code == 201
                finally:
                    db.execute(DISK_FREED.format(table="actions"))
                db.execute(DISK_FULL_TRIGGER.format(table="rooms"))  # a room request meets it (it was a 500)
                try:
                    r = await http.post("/api/rooms", json={"name": "Di"})
                    assert r.status_code == 503 and r.json()["error"]["code"] == "database_down", r.text
                    assert "could not write to its disk" in r.json()["error"]["message"]
                finally:
                    db.execute(DISK_FREED.format(table="rooms"))
            r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text
            assert (await http.get("/healthz")).status_code == 200
