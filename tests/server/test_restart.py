"""A restart loses nothing: a real `python -m app` is killed with SIGKILL in the middle of a game
(one seat's secret pick already made), started again on the same SQLite file, and the game is
finished over websockets with every earlier action intact."""

import contextlib
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx

from bench.live import AppProcess, free_port, sqlite_url
from tests.server.helpers import SeatClient, bearer, play_reactive, until


def stored_log(database: Path) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(database)) as conn:
        return conn.execute(
            "SELECT game_id, seq, seat, action, action_id FROM actions ORDER BY game_id, seq"
        ).fetchall()


async def test_sigkill_mid_game_loses_nothing(tmp_path: Path) -> None:
    database, port = tmp_path / "wonders.db", free_port()
    server = AppProcess(sqlite_url(database), port, tmp_path / "server.log", env={"ALLOW_SEED": "true"})
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            r = await http.post(
                "/api/rooms", json={"name": "Ann", "players": 3, "seed": 77, "bots": [{"kind": "greedy", "seat": 2}]}
            )
            code, tokens = r.json()["code"], {0: r.json()["token"]}
            tokens[1] = (await http.post(f"/api/rooms/{code}/join", json={"name": "Ben"})).json()["token"]
            assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))).status_code == 200
            rng = random.Random(5)
            for _turn in range(8):  # eight turns over REST, the bot playing its seat
                for seat in (0, 1):
                    st = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[seat]))).json()
                    body = {
                        "action": rng.choice(st["legal_actions"]),
                        "version": st["version"],
                        "action_id": f"t{_turn}",
                    }
                    r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[seat]))
                    assert r.status_code == 200, r.text
            # seat 0 makes its secret pick of the next turn; seat 1 has not picked yet

            async def bot_picked() -> dict[str, Any] | None:
                st = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
                return st if 0 in st["to_act"] and 2 not in st["to_act"] else None

            st = await until(bot_picked, within=30)
            pick = rng.choice(st["legal_actions"])
            r = await http.post(
                f"/api/rooms/{code}/game/actions",
                json={"action": pick, "version": st["version"]},
                headers=bearer(tokens[0]),
            )
            assert r.status_code == 200
            before = stored_log(database)
            assert len(before) == r.json()["version"] >= 8 * 3 + 1
        server.kill()

        server = AppProcess(sqlite_url(database), port, tmp_path / "server.log", env={"ALLOW_SEED": "true"})
        server.start()
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            st = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
            assert st["version"] == len(before) and st["status"] == "running"
            assert st["view"]["pick"]["card"] == pick["card"], "the secret pick survived the restart"
            assert st["to_act"] == [1]
            async with (
                SeatClient(server.url.replace("http", "ws"), code, tokens[0]) as c0,
                SeatClient(server.url.replace("http", "ws"), code, tokens[1]) as c1,
            ):
                final = await play_reactive({0: c0, 1: c1}, random.Random(6))
            assert final["status"] == "finished" and final["result"]["winners"]
            after = stored_log(database)
            assert after[: len(before)] == before, "every earlier action is intact"
            assert [row[1] for row in after] == list(range(len(after)))
            history = (await http.get(f"/api/rooms/{code}/game/history")).json()
            assert len(history["steps"]) == len(after) and history["result"] == final["result"]
    finally:
        server.stop()
