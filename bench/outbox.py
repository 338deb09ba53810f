"""Notifications through the outbox: how many a second, and how long from the step to the delivery.

    python -m bench.outbox [--rooms 200] [--rounds 5] [--database-url URL]

`--rooms` rooms of three people each start a game with the room's group channel set to a local
webhook receiver (json:// on 127.0.0.1; the bench allows private addresses, as tests do). In each
round every room plays one turn (its three picks, in-process: `GameService.submit`), which writes
one notification with its last step; the round ends when the receiver has every one. It prints one
JSON line:

- `sent_per_s`: notifications delivered a second, over each round from its first step to its last
  delivery (median over the rounds);
- `delay_ms`: from the step that caused it (its commit) to its arrival at the receiver, p50 and p99
  over every notification;
- `rooms`, `rounds`, `poll_s`, `database`.

The sender polls every NOTIFY_POLL_SECONDS (here 0.05 s, as `--poll`), so a delay includes up to one
poll's wait; the receiver is Python's threading HTTP server.
"""

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from app.db.outbox_storage import ROOM_CHANNEL
from app.rooms.context import Services
from app.settings import Settings


class Receiver:
    """A webhook that notes when each message (by its idempotency key) arrived."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    receiver.arrived[self.headers["X-Idempotency-Key"]] = time.time()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"json://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextlib.contextmanager
def database(url: str | None) -> Iterator[str]:
    if url:
        from tests.server.conftest import _clear_postgres

        _clear_postgres(url)
        yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{Path(folder) / 'outbox.db'}"


async def rooms_with_a_channel(services: Services, count: int, url: str) -> list[int]:
    """`count` started games of three people, each room's group channel set to `url`."""
    games = []
    for n in range(count):
        joined = await services.rooms.create({"players": 3, "seed": n}, "Ann")
        code = joined.room["code"]
        host = await services.rooms.authenticate(code, joined.token)
        for name in ("Bo", "Cy"):
            await services.rooms.join(code, name)
        await services.rooms.set_notify(host, ROOM_CHANNEL, [url], None, "always")
        await services.rooms.start(host)
        games.append((await services.rooms.current_game(code))[0])
    return games


async def one_turn(services: Services, game_id: int, rng: random.Random) -> float:
    """Every seat picks; the time the last pick was committed."""
    for seat in (0, 1, 2):
        rt = await services.games.runtime(game_id)
        await services.games.submit(game_id, seat, rng.choice(rt.frame.legal(seat)), rt.version)
    return time.time()


async def waiting(done: Any, within: float = 120.0) -> None:
    for _ in range(int(within / 0.01)):
        if done():
            return
        await asyncio.sleep(0.01)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    receiver = Receiver()
    try:
        with database(args.database_url) as url:
            settings = Settings(
                database_url=url,
                redis_url=None,
                rooms_per_address=0,
                allow_seed=True,
                notify_allow_private=True,
                notify_poll_seconds=args.poll,
                notify_room_per_hour=1_000_000,
                max_rooms=args.rooms + 10,
            )
            services = await Services.start(settings)
            try:
                games = await rooms_with_a_channel(services, args.rooms, receiver.url)
                await waiting(lambda: len(receiver.arrived) >= len(games))  # the games' first "to move" messages
                rng = random.Random(1)
                delays: list[float] = []
                rates: list[float] = []
                played: list[float] = []
                for turn in range(2, 2 + args.rounds):
                    keys = {game_id: f"group:g{game_id}:t1-{turn}" for game_id in games}
                    begun = time.time()
                    stepped = dict(
                        zip(games, await asyncio.gather(*(one_turn(services, g, rng) for g in games)), strict=True)
                    )
                    played.append(max(stepped.values()) - begun)
                    await waiting(lambda keys=keys: all(k in receiver.arrived for k in keys.values()))
                    arrived = {g: receiver.arrived[k] for g, k in keys.items() if k in receiver.arrived}
                    delays += [arrived[g] - stepped[g] for g in arrived]
                    rates.append(len(arrived) / (max(arrived.values()) - begun))
            finally:
                await services.stop()
    finally:
        receiver.close()
    quantiles = statistics.quantiles(delays, n=100)
    return {
        "rooms": args.rooms,
        "rounds": args.rounds,
        "poll_s": args.poll,
        "database": "postgresql" if args.database_url else "sqlite",
        "sent_per_s": round(statistics.median(rates), 1),
        "delay_ms": {"p50": round(quantiles[49] * 1000, 1), "p99": round(quantiles[98] * 1000, 1)},
        "round_play_s": round(statistics.median(played), 2),
        "delivered": len(delays),
        "expected": args.rooms * args.rounds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--poll", type=float, default=0.05)
    parser.add_argument("--database-url", default=None, help="a PostgreSQL database to use (emptied first)")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
