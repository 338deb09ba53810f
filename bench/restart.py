"""Restart: how long a server with many running games takes to answer again.

    python -m bench.restart --games 1000

Creates that many running games, stopped mid-play, in a fresh SQLite database (a third each of
7 Wonders, 7 Wonders with Armada, both with 4 people, and 7 Wonders Duel; each game's random legal
actions up to half of its length, stored as a client submitted them), starts the real server
(`python -m app`, uvicorn) on it as a subprocess and prints one JSON line: the seconds from the
start of the process until `/healthz` answers 200 (`healthz_s`), until a game's state is served
(`state_s`: `GET /api/rooms/{code}/game` of the last game created) and until every running game is
loaded again (`restored_s`: `/healthz` counts them in `games_loaded`); and the CPU seconds the
server process had used when `/healthz` first answered (`healthz_cpu_s`, less sensitive to a busy
machine than the wall-clock figures; Linux only, else null).
"""

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, insert
from sqlalchemy.orm import Session

from app.db.migrate import upgrade_sync
from app.db.models import Action, Game, Room, Seat, now
from app.engine import GameConfig, new_game
from app.rooms.clocks import ClockSettings
from app.tokens import hash_token, new_code, new_token
from bench.live import stop_process
from bench.server_load import free_port

ROOT = Path(__file__).resolve().parents[1]
KINDS = (
    {"game": "classic", "players": 4, "expansions": []},
    {"game": "classic", "players": 4, "expansions": ["armada"]},
    {"game": "duel", "players": 2, "expansions": []},
)


def half_played(config: GameConfig, rng: random.Random) -> list[dict[str, Any]]:
    """Random legal actions for the first half of a whole game ({"seat", "action"} as submitted)."""
    game = new_game(config)
    log = []
    while not game.is_over:
        seat = rng.choice(game.to_act)
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append({"seat": seat, "action": action})
    return log[: len(log) // 2]


def create_games(database_url: str, count: int, seed: int) -> list[str]:
    """`count` running games in their rooms; returns the room codes."""
    upgrade_sync(database_url)
    engine = create_engine(database_url)
    rng = random.Random(seed)
    codes = []
    with Session(engine) as session, session.begin():
        for i in range(count):
            kind = KINDS[i % len(KINDS)]
            config = GameConfig(**kind, seed=rng.randrange(2**62))
            settings = {
                **config.model_dump(mode="json", include={"game", "players", "expansions", "wonder_side", "wonders"}),
                "spectators": "live",
                **ClockSettings().model_dump(mode="json"),
            }
            code = new_code(7)
            while code in codes:
                code = new_code(7)
            room = Room(code=code, status="playing", settings=settings, host_seat=0)
            session.add(room)
            session.flush()
            seats = [
                Seat(
                    room_id=room.id,
                    seat=s,
                    name=f"Player {s}",
                    name_key=f"player {s}",
                    kind="human",
                    token_hash=hash_token(new_token()),
                )
                for s in range(config.seats)
            ]
            session.add_all(seats)
            game = Game(
                room_id=room.id,
                kind=config.game,
                config=config.model_dump(mode="json"),
                seed=config.seed,
                seats=[{"seat": s.seat, "name": s.name, "kind": "human", "bot": None} for s in seats],
                status="running",
            )
            session.add(game)
            session.flush()
            at = now()
            rows = [
                {"game_id": game.id, "seq": n, "seat": e["seat"], "action": e["action"], "created_at": at}
                for n, e in enumerate(half_played(config, rng))
            ]
            session.execute(insert(Action), rows)
            codes.append(code)
    engine.dispose()
    return codes


def wait_for(url: str, proc: subprocess.Popen[bytes], started: float, done: Any = None, timeout: float = 300) -> float:
    """Seconds from `started` until GET `url` answers 200 (with a body that `done` accepts)."""
    while True:
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        with contextlib.suppress(httpx.HTTPError):
            r = httpx.get(url, timeout=2)
            if r.status_code == 200 and (done is None or done(r.json())):
                return time.perf_counter() - started
        if time.perf_counter() - started > timeout:
            raise RuntimeError(f"{url} did not answer within {timeout} s")
        time.sleep(0.01)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (from /proc), or None where there is no /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(database_url: str, code: str, games: int, log_path: Path) -> dict[str, float | None]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "LOG_LEVEL": "warning",
        "MAX_ROOMS": "100000",
    }
    base = f"http://127.0.0.1:{port}"
    with log_path.open("wb") as log:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            healthz = wait_for(f"{base}/healthz", proc, started)
            cpu = cpu_seconds(proc.pid)
            state = wait_for(f"{base}/api/rooms/{code}/game", proc, started)
            restored = wait_for(f"{base}/healthz", proc, started, lambda body: body["games_loaded"] >= games)
        finally:
            stop_process(proc, 30)
    return {
        "healthz_s": round(healthz, 3),
        "healthz_cpu_s": None if cpu is None else round(cpu, 2),
        "state_s": round(state, 3),
        "restored_s": round(restored, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1, help="restarts measured on the same database")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite:///{tmp}/restart.db"
        began = time.perf_counter()
        codes = create_games(database_url, args.games, args.seed)
        made = time.perf_counter() - began
        runs = [measure(database_url, codes[-1], args.games, Path(tmp) / "server.log") for _ in range(args.runs)]
    print(json.dumps({"games": args.games, "setup_s": round(made, 1), "runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
