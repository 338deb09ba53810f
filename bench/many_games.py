"""Many stored games: a server that holds only the games in use, whatever it keeps.

    python -m bench.many_games [--games 100000] [--database-url URL] [--sample 200] [--rooms 200]

Stores that many running games, stopped mid-play, in a fresh database (a temporary SQLite file, or
the PostgreSQL database given, emptied first): a third each of 7 Wonders (4 people), 7 Wonders with
Armada and 7 Wonders Duel, each at a random step of its first half, in its own room (logs drawn
from a pool of `--logs` random games per kind). Then, with the real server (`python -m app` in a
child process), it prints one JSON line:

- `healthz_s`: seconds from the process's start until `/healthz` answers, the median of `--starts`
  starts (each in `healthz_starts_s`), the app's bytecode compiled as after a first start;
- `cold_state_ms`: a cold game's first state (`GET /api/rooms/{code}/game` of a game nobody loaded
  yet), p50 and p99 over `--sample` games;
- `live`: `--rooms` rooms of greedy bots played at the same time (bench.server_load against this
  server): actions/s, the server's CPU an action, and the server's resident memory at the end
  (`rss_mb`) and at its peak (`peak_rss_mb`);
- `live_without_stored`: the same live rooms on a server with an empty database, for comparison;
- `games_loaded`: what `/healthz` counts at the end.

Issue 29's targets (figures, not tests): `/healthz` within 1 s of the start with 100,000 stored
games; a cold game's first state within 50 ms at p99; the server under 300 MB with the live rooms;
the live rooms' actions/s within 10% of the run without stored games.
"""

import argparse
import compileall
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, insert, text

from app.db.migrate import upgrade_sync
from app.db.models import Action, Game, Room, Seat, now
from app.engine import GameConfig, new_game
from app.rooms.clocks import ClockSettings
from app.tokens import hash_token, new_code
from bench.live import AppProcess, free_port

ROOT = Path(__file__).resolve().parents[1]
KINDS = (
    {"game": "classic", "players": 4, "expansions": []},
    {"game": "classic", "players": 4, "expansions": ["armada"]},
    {"game": "duel", "players": 2, "expansions": []},
)
BATCH = 2000  # games a transaction
SETTING_KEYS = {"game", "players", "expansions", "wonder_side", "wonders"}


def played(config: GameConfig, rng: random.Random) -> list[dict[str, Any]]:
    """Random legal actions up to a random step of the game's first half ({"seat", "action"})."""
    game = new_game(config)
    log = []
    while not game.is_over:
        seat = rng.choice(game.to_act)
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append({"seat": seat, "action": game.log[-1]["action"]})
    return log[: rng.randrange(1, len(log) // 2)]


def pool(logs: int, seed: int) -> list[list[tuple[GameConfig, list[dict[str, Any]]]]]:
    """Per kind, `logs` games (their config and log)."""
    rng = random.Random(seed)
    out = []
    for kind in KINDS:
        configs = [GameConfig(**kind, seed=rng.randrange(2**53)) for _ in range(logs)]
        out.append([(config, played(config, rng)) for config in configs])
    return out


def store_games(database_url: str, count: int, logs: int, seed: int) -> list[str]:
    """`count` running games in their rooms, in batches; their room codes."""
    upgrade_sync(database_url)
    engine = create_engine(database_url)
    games = pool(logs, seed)
    clock = ClockSettings().model_dump(mode="json")
    codes: list[str] = []
    taken: set[str] = set()
    try:
        with engine.begin() as conn:
            for table in ("actions", "game_states", "games", "seats", "rooms"):
                conn.execute(text(f"DELETE FROM {table}"))
        for first in range(0, count, BATCH):
            rooms, seats, game_rows, actions = [], [], [], []
            for i in range(first + 1, min(count, first + BATCH) + 1):
                config, log = games[i % 3][(i // 3) % logs]
                code = new_code(7)
                while code in taken:
                    code = new_code(7)
                taken.add(code)
                codes.append(code)
                settings = {
                    **config.model_dump(
                        mode="json", include={"game", "players", "expansions", "wonder_side", "wonders"}
                    ),
                    "spectators": "live",
                    **clock,
                }
                rooms.append({"id": i, "code": code, "status": "playing", "settings": settings, "host_seat": 0})
                people = [
                    {
                        "room_id": i,
                        "seat": s,
                        "name": f"Player {s}",
                        "name_key": f"player {s}",
                        "kind": "human",
                        "token_hash": hash_token(f"{code}-{s}-token-of-a-stored-game"),
                    }
                    for s in range(config.seats)
                ]
                seats += people
                game_rows.append(
                    {
                        "id": i,
                        "room_id": i,
                        "kind": config.game,
                        "config": config.model_dump(mode="json"),
                        "seed": config.seed,
                        "seats": [{"seat": p["seat"], "name": p["name"], "kind": "human", "bot": None} for p in people],
                        "status": "running",
                    }
                )
                at = now()
                actions += [
                    {"game_id": i, "seq": n, "seat": e["seat"], "action": e["action"], "created_at": at}
                    for n, e in enumerate(log)
                ]
            with engine.begin() as conn:
                conn.execute(insert(Room), rooms)
                conn.execute(insert(Seat), seats)
                conn.execute(insert(Game), game_rows)
                conn.execute(insert(Action), actions)
        if engine.dialect.name == "postgresql":  # the ids given: the sequences move past them
            with engine.begin() as conn:
                for table in ("rooms", "games"):
                    conn.execute(
                        text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
                    )
    finally:
        engine.dispose()
    return codes


def memory_mb(pid: int) -> tuple[float | None, float | None]:
    """The process's resident memory now and at its peak (MB), from /proc (None elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None, None
    fields = {line.split(":")[0]: line.split()[1] for line in status.splitlines() if line.startswith("Vm")}
    return round(int(fields["VmRSS"]) / 1024, 1), round(int(fields["VmHWM"]) / 1024, 1)


@contextlib.contextmanager
def server(database_url: str, log: Path) -> Iterator[AppProcess]:
    """The real server on this database; started and stopped. (Its start is timed by the caller.)"""
    process = AppProcess(
        database_url, free_port(), log, env={"LOG_LEVEL": "warning", "MAX_ROOMS": "1000000", "ROOMS_PER_ADDRESS": "0"}
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


def healthz_seconds(database_url: str, log: Path, starts: int) -> list[float]:
    """Seconds from a server process's start until /healthz answers, for `starts` starts one after another.

    The app's bytecode is compiled first: a deployed server finds it written by its first start (here
    PYTHONDONTWRITEBYTECODE may be set, and the first start would then pay for compiling every module)."""
    compileall.compile_dir(ROOT / "app", quiet=1)
    seconds = []
    for _ in range(starts):
        process = AppProcess(database_url, free_port(), log, env={"LOG_LEVEL": "warning"})
        started = time.perf_counter()
        process.start()  # returns once /healthz answers
        seconds.append(round(time.perf_counter() - started, 3))
        process.stop()
    return seconds


def cold_states(url: str, codes: list[str], sample: int, seed: int) -> dict[str, float]:
    """A cold game's first state, ms, over a sample of games nobody asked for yet."""
    times = []
    with httpx.Client(base_url=url, timeout=30) as http:
        for code in random.Random(seed).sample(codes, min(sample, len(codes))):
            started = time.perf_counter()
            r = http.get(f"/api/rooms/{code}/game")
            times.append((time.perf_counter() - started) * 1000)
            if r.status_code != 200:
                raise RuntimeError(f"the state of room {code}: {r.status_code} {r.text[:200]}")
    times.sort()
    return {"p50": round(statistics.median(times), 1), "p99": round(times[int(0.99 * (len(times) - 1))], 1)}


def live_rooms(process: AppProcess, rooms: int) -> dict[str, Any]:
    """bench.server_load's rooms against this server, with its memory at the end and peak."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.server_load", "--url", process.url, "--server-pid", str(process.pid),
         "--rooms", str(rooms)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=1800,
    )  # fmt: skip
    if not done.stdout.strip():
        raise RuntimeError(f"bench.server_load printed nothing: {done.stderr[-500:]}")
    load = json.loads(done.stdout.strip().splitlines()[-1])
    rss, peak = memory_mb(process.pid)
    return {
        "actions_per_s": load["actions_per_s"],
        "server_ms_per_action": load["cpu"]["server_ms_per_action"],
        "errors": load["errors"],
        "rss_mb": rss,
        "peak_rss_mb": peak,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--database-url", help="a PostgreSQL database to use (emptied first); default SQLite")
    parser.add_argument("--logs", type=int, default=200, help="distinct random games per kind the stored ones repeat")
    parser.add_argument("--sample", type=int, default=200, help="cold games whose first state is timed")
    parser.add_argument("--rooms", type=int, default=200, help="live rooms played meanwhile (0: none)")
    parser.add_argument("--starts", type=int, default=3, help="server starts timed to /healthz (the median printed)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or f"sqlite:///{tmp}/many.db"
        began = time.perf_counter()
        codes = store_games(database_url, args.games, args.logs, args.seed)
        out: dict[str, Any] = {"games": args.games, "database": database_url.split(":")[0], "setup_s": 0.0}
        out["setup_s"] = round(time.perf_counter() - began, 1)
        starts = healthz_seconds(database_url, Path(tmp) / "starts.log", args.starts)
        out["healthz_s"], out["healthz_starts_s"] = statistics.median(starts), starts
        with server(database_url, Path(tmp) / "server.log") as process:
            out["cold_state_ms"] = cold_states(process.url, codes, args.sample, args.seed)
            if args.rooms:
                out["live"] = live_rooms(process, args.rooms)
            out["games_loaded"] = httpx.get(f"{process.url}/healthz", timeout=10).json()["games_loaded"]
        if args.rooms:
            empty = f"sqlite:///{tmp}/empty.db" if not args.database_url else database_url
            if args.database_url:
                store_games(database_url, 0, 1, args.seed)  # emptied
            with server(empty, Path(tmp) / "empty.log") as process:
                out["live_without_stored"] = live_rooms(process, args.rooms)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
