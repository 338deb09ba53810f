"""Server load: many concurrent rooms of bots playing whole games over real websockets.

    python -m bench.server_load --rooms 200 --players 4
    python -m bench.server_load --url http://127.0.0.1:8000 --rooms 50

Without --url it starts `python -m app` on a free port with a fresh SQLite database (or
--database-url) and stops it at the end. Every seat is a websocket client running a bot from
app.bots on the state the server sends (app.bots.client's BotClient, without reconnecting). Prints
one JSON line: rooms, games finished, actions and actions/s, and the reveal latency (from the last
pick of a turn being sent to the reveal having arrived at every seat of the room) p50/p99/max in
milliseconds, and errors.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.bots import make_bot
from app.bots.client import BotClient

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Room:
    code: str
    tokens: dict[int, str]
    players: int
    last_send: float = 0.0
    pending: dict[int, tuple[float, list[float]]] = field(default_factory=dict)  # version -> (pick time, arrivals)
    latencies: list[float] = field(default_factory=list)
    reveal_times: list[float] = field(default_factory=list)
    actions: int = 0
    finished: bool = False

    def sent(self) -> None:
        self.last_send = time.perf_counter()
        self.actions += 1

    def reveal_arrived(self, version: int) -> None:
        now = time.perf_counter()
        if version not in self.pending:
            self.pending[version] = (self.last_send, [])
        pick_time, arrivals = self.pending[version]
        arrivals.append(now)
        if len(arrivals) == self.players:
            self.latencies.append(max(arrivals) - pick_time)
            self.reveal_times.append(pick_time)
            del self.pending[version]


@dataclass
class Stats:
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    messages: int = 0

    def error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1


async def seat_bot(
    *,
    url: str,
    room: Room,
    seat: int,
    bot_kind: str,
    think: float,
    stats: Stats,
    ready: asyncio.Event,
) -> None:
    """One seat: app.bots.client's BotClient with a bot of app.bots, measuring through its hooks."""
    bot = make_bot(bot_kind, seed=hash((room.code, seat)) & 0xFFFF)

    async def choose(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        if think:
            await asyncio.sleep(random.uniform(0, 2 * think))
        return bot.choose(view, actions)

    def on_message(message: dict[str, Any]) -> None:
        stats.messages += 1
        kind = message["type"]
        if kind == "welcome":
            ready.set()
        elif kind == "reveal":
            room.reveal_arrived(message["version"])
        elif kind == "error" and message["code"] != "stale":
            stats.error(message["code"])

    client = BotClient(
        url,
        room.code,
        room.tokens[seat],
        choose,
        reconnect=False,  # a dropped connection is an error of the run
        open_timeout=60,
        think_in_thread=False,
        on_message=on_message,
        on_send=lambda _message: room.sent(),
    )
    try:
        outcome = await client.run()
        room.finished = room.finished or outcome.status == "finished"
    except Exception as exc:
        stats.error(type(exc).__name__)
        ready.set()


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late this client's own event loop wakes up: a busy client delays every timestamp it takes."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - start - 0.01)


async def make_room(http: httpx.AsyncClient, players: int, game: str, index: int, expansions: list[str]) -> Room:
    body = {"name": f"b{index}-0", "game": game, "players": players, "expansions": expansions}
    r = await http.post("/api/rooms", json=body)
    r.raise_for_status()
    code, tokens = r.json()["code"], {0: r.json()["token"]}
    for seat in range(1, players):
        j = await http.post(f"/api/rooms/{code}/join", json={"name": f"b{index}-{seat}"})
        j.raise_for_status()
        tokens[j.json()["seat"]] = j.json()["token"]
    return Room(code, tokens, players)


async def gather_limited(coros: list[Any], limit: int) -> list[Any]:
    semaphore = asyncio.Semaphore(limit)

    async def run(coro: Any) -> Any:
        async with semaphore:
            return await coro

    return await asyncio.gather(*(run(c) for c in coros))


async def run_load(url: str, args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    limits = httpx.Limits(max_connections=50)
    expansions = ["armada"] if args.armada else []
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        rooms = await gather_limited(
            [make_room(http, args.players, args.game, i, expansions) for i in range(args.rooms)], 20
        )
        tasks, readies = [], []
        for room in rooms:
            for seat in range(room.players):
                ready = asyncio.Event()
                readies.append(ready)
                tasks.append(
                    asyncio.create_task(
                        seat_bot(
                            url=url,
                            room=room,
                            seat=seat,
                            bot_kind=args.bot,
                            think=args.think_ms / 1000,
                            stats=stats,
                            ready=ready,
                        )
                    )
                )
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        lags: list[float] = []
        stop_lag = asyncio.Event()
        lag_task = asyncio.create_task(loop_lag(lags, stop_lag))
        started = time.perf_counter()
        if args.verbose:
            print(f"play starts at {time.time():.3f}", file=sys.stderr)

        async def start(room: Room, delay: float) -> None:
            await asyncio.sleep(delay)
            await http.post(f"/api/rooms/{room.code}/start", headers={"Authorization": f"Bearer {room.tokens[0]}"})

        # rooms start one after another over --ramp-s seconds, as real rooms do (not all in one instant)
        step = args.ramp_s / max(1, len(rooms))
        await asyncio.gather(*(start(room, i * step) for i, room in enumerate(rooms)))
        _done, not_done = await asyncio.wait(tasks, timeout=args.timeout)
        elapsed = time.perf_counter() - started
        stop_lag.set()
        await lag_task
        if args.verbose:
            print(f"play ends at {time.time():.3f}", file=sys.stderr)
        for task in not_done:
            task.cancel()
        if not_done:
            stats.error("timeout")
    latencies = sorted(x for room in rooms for x in room.latencies)
    # after every room has started (the ramp) and played a few turns: no set-up traffic left
    steady_from = started + args.ramp_s + 5
    steady = sorted(
        x for room in rooms for x, t in zip(room.latencies, room.reveal_times, strict=True) if t >= steady_from
    )
    actions = sum(room.actions for room in rooms)

    def pct(p: float, values: list[float] = latencies) -> float | None:
        if not values:
            return None
        return round(1000 * values[min(len(values) - 1, int(p * len(values)))], 2)

    lags.sort()

    return {
        "rooms": args.rooms,
        "players": args.players,
        "game": args.game,
        "expansions": ["armada"] if args.armada else [],
        "bot": args.bot,
        "think_ms": args.think_ms,
        "ramp_s": args.ramp_s,
        "games_finished": sum(room.finished for room in rooms),
        "actions": actions,
        "elapsed_s": round(elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1) if elapsed else None,
        "reveals": len(latencies),
        "reveal_latency_ms": {"p50": pct(0.50), "p99": pct(0.99), "max": pct(1.0)},
        "steady_reveal_latency_ms": {
            "reveals": len(steady),
            "p50": pct(0.50, steady),
            "p99": pct(0.99, steady),
            "max": pct(1.0, steady),
        },
        "messages_received": stats.messages,
        "client_loop_lag_ms": {"p50": pct(0.5, lags), "p99": pct(0.99, lags)},
        "errors": stats.errors,
        "error_codes": stats.error_codes,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def spawned_server(database_url: str | None, log_path: Path):  # type: ignore[no-untyped-def]
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": database_url or f"sqlite:///{tmp}/bench.db",
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "LOG_LEVEL": "warning",
            "MAX_ROOMS": "100000",
            "ROOMS_PER_ADDRESS": "0",  # every bot room comes from this one address
        }
        with log_path.open("wb") as log:
            proc = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=log, stderr=log)
            url = f"http://127.0.0.1:{port}"
            try:
                deadline = time.monotonic() + 60
                while True:
                    if proc.poll() is not None:
                        raise RuntimeError(f"the server exited; see {log_path}")
                    with contextlib.suppress(httpx.HTTPError):
                        if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                            break
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the server did not start; see {log_path}")
                    time.sleep(0.1)
                yield url
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()


def _runner() -> Any:
    """uvloop when installed (it comes with uvicorn[standard]): the client should cost as little as it can."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--database-url", help="database of the started server (default: a temporary SQLite file)")
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="classic")
    parser.add_argument("--armada", action="store_true", help="classic rooms with the Armada expansion")
    parser.add_argument("--bot", default="greedy", help="random, greedy or heuristic")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before each bot action")
    parser.add_argument("--ramp-s", type=float, default=0.0, help="start the rooms evenly over this many seconds")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before unfinished games count as errors")
    parser.add_argument("--verbose", action="store_true", help="print phase times to stderr")
    parser.add_argument("--server-log", default=os.path.join(tempfile.gettempdir(), "wonders-bench-server.log"))
    args = parser.parse_args(argv)
    run = _runner()
    if args.url:
        result = run(run_load(args.url.rstrip("/"), args))
    else:
        with spawned_server(args.database_url, Path(args.server_log)) as url:
            result = run(run_load(url, args))
    print(json.dumps(result))
    return 0 if result["errors"] == 0 and result["games_finished"] == args.rooms else 1


if __name__ == "__main__":
    sys.exit(main())
