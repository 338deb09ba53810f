"""Server load: many concurrent rooms of bots playing whole games over real websockets.

    python -m bench.server_load --rooms 200 --players 4
    python -m bench.server_load --url http://127.0.0.1:8000 --rooms 50

Without --url it starts `python -m app` on a free port with a fresh SQLite database (or
--database-url) and stops it at the end. Every seat is a websocket client running a bot from
app.bots on the state the server sends (app.client's BotClient, without reconnecting).

The timed window leaves out the set-up: rooms are created and every seat is connected before the
clock starts, and each room's first `--warmup-turns` turns (reveals) are a warm-up. It runs from
the moment every room has played its warm-up to the end of the last game; actions/s counts the
actions sent in it. Prints one JSON line: rooms, games finished, actions in the window and
actions/s, the reveal latency (from the last pick of a turn being sent to the reveal having
arrived at every seat of the room) p50/p99/max in milliseconds, the wait from a turn's reveal to
the next turn's last pick (where the players of a room wait: their states arriving, every seat
choosing and sending), the turn time, the CPU used by the server, this client and the whole
machine during the window, the server's event-loop lag during the run (from its
`wonders_event_loop_lag_seconds` metric: how long anything ready waits for its turn; a reveal takes
a few such waits), the server's garbage-collector pauses during the run (`wonders_gc_pause_seconds`:
each collection stops the event loop, and every reveal in flight waits for it), and errors.

The clients themselves collect no cycles while they play (gc.freeze and gc.disable for the run): a
collection in this process stops all of its seats at once, and a 154 ms one once made 30 of a
run's slowest reveals, timed late by the clients rather than by the server.
"""

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families

from app.bots import make_bot
from app.client import BotClient
from app.client import connection as bot_client
from bench.live import ROOT, AppProcess, free_port


@dataclass
class Room:
    code: str
    tokens: dict[int, str]
    players: int
    last_send: float = 0.0
    pending: dict[int, tuple[float, list[float]]] = field(default_factory=dict)  # version -> (pick time, arrivals)
    latencies: list[float] = field(default_factory=list)
    reveal_times: list[float] = field(default_factory=list)  # the turn's last pick, per reveal
    reveal_done: list[float] = field(default_factory=list)  # when each reveal had reached every seat
    sends: list[float] = field(default_factory=list)  # when each action was sent
    finished: bool = False

    def sent(self) -> None:
        self.last_send = time.perf_counter()
        self.sends.append(self.last_send)

    def reveal_arrived(self, version: int) -> None:
        now = time.perf_counter()
        if version not in self.pending:
            self.pending[version] = (self.last_send, [])
        pick_time, arrivals = self.pending[version]
        arrivals.append(now)
        if len(arrivals) == self.players:
            self.latencies.append(max(arrivals) - pick_time)
            self.reveal_times.append(pick_time)
            self.reveal_done.append(max(arrivals))
            del self.pending[version]

    def waits(self) -> list[tuple[float, float]]:
        """(when the turn's last pick was sent, how long after the previous turn's reveal had reached every seat)."""
        return [(pick, pick - done) for pick, done in zip(self.reveal_times[1:], self.reveal_done[:-1], strict=True)]


@dataclass
class Stats:
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    messages: int = 0
    kinds: dict[str, int] = field(default_factory=dict)  # messages received, by type

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
    go: asyncio.Event,
) -> None:
    """One seat: app.client's BotClient with a bot of app.bots, measuring through its hooks."""
    bot = make_bot(bot_kind, seed=hash((room.code, seat)) & 0xFFFF)

    async def choose(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        if not go.is_set():  # no game plays before every room's game has started
            await go.wait()
        if think:
            await asyncio.sleep(random.uniform(0, 2 * think))
        return bot.choose(view, actions)

    def on_message(message: dict[str, Any]) -> None:
        stats.messages += 1
        kind = message["type"]
        stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
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


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, from /proc (None where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_cpu() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of every core of the machine so far, from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return None
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


@dataclass
class CpuSample:
    at: float
    server: float | None
    client: float
    machine: tuple[float, float] | None


def cpu_sample(server_pid: int | None) -> CpuSample:
    return CpuSample(
        time.perf_counter(),
        None if server_pid is None else process_cpu(server_pid),
        time.process_time(),
        machine_cpu(),
    )


async def sample_cpu(samples: list[CpuSample], server_pid: int | None, stop: asyncio.Event) -> None:
    while not stop.is_set():
        samples.append(cpu_sample(server_pid))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.05)
    samples.append(cpu_sample(server_pid))


def cpu_between(samples: list[CpuSample], start: float, end: float) -> dict[str, float | None]:
    """Cores used on average between two moments (1.0 = one core busy all the time): by the server
    process, by this client process, and by the whole machine (every process, the database's too)."""
    first = next((x for x in samples if x.at >= start), samples[-1])
    last = next((x for x in reversed(samples) if x.at <= end), samples[-1])
    span = last.at - first.at
    if span <= 0:
        return {"server_cores": None, "client_cores": None, "machine_cores": None, "cores": os.cpu_count()}

    def cores(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else round((b - a) / span, 2)

    machine = None
    if first.machine is not None and last.machine is not None:
        busy = last.machine[0] - first.machine[0]
        total = last.machine[1] - first.machine[1]
        machine = round(busy / total * (os.cpu_count() or 1), 2) if total else None
    return {
        "server_cores": cores(first.server, last.server),
        "client_cores": cores(first.client, last.client),
        "machine_cores": machine,
        "cores": os.cpu_count(),
    }


LAG_METRIC = "wonders_event_loop_lag_seconds"
GC_METRIC = "wonders_gc_pause_seconds"  # each of the server's garbage collections


async def server_histograms(http: httpx.AsyncClient) -> dict[str, dict[str, float]]:
    """The server's loop lag and GC pause histograms, each as {bucket bound or "sum"/"count": value}
    (empty where the server has no such metric)."""
    r = await http.get("/metrics")
    out: dict[str, dict[str, float]] = {LAG_METRIC: {}, GC_METRIC: {}}
    if r.status_code != 200:
        return out
    for family in text_string_to_metric_families(r.text):
        if family.name not in out:
            continue
        for sample in family.samples:
            if sample.name.endswith("_bucket"):
                out[family.name][sample.labels["le"]] = sample.value
            else:
                out[family.name][sample.name.removeprefix(family.name + "_")] = sample.value
    return out


def histogram_between(before: dict[str, float], after: dict[str, float]) -> dict[str, float | None]:
    """A server histogram during the run, from two scrapes: how many samples, their mean and total, and
    the bucket bounds that half, 99% and all of them fell within (the histogram's own buckets, so coarse)."""
    count = after.get("count", 0.0) - before.get("count", 0.0)
    if count <= 0:
        return {"count": 0, "mean": None, "total": None, "p50_at_most": None, "p99_at_most": None, "max_at_most": None}
    bounds = sorted((float(k), after[k] - before.get(k, 0.0)) for k in after if k not in ("sum", "count"))

    def within(share: float) -> float | None:
        for bound, seen in bounds:
            if seen >= share * count:
                return round(1000 * bound, 1)
        return None

    total = after["sum"] - before.get("sum", 0.0)
    return {
        "count": int(count),
        "mean": round(1000 * total / count, 1),
        "total": round(1000 * total, 1),
        "p50_at_most": within(0.5),
        "p99_at_most": within(0.99),
        "max_at_most": within(1.0),
    }


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


def cpu_per_action(cpu: dict[str, Any], rate: float) -> dict[str, Any]:
    """CPU milliseconds per action of the server and of the client: steadier than actions/s on a
    machine shared with other work."""
    for who in ("server", "client"):
        cores = cpu.get(f"{who}_cores")
        cpu[f"{who}_ms_per_action"] = round(1000 * cores / rate, 3) if cores is not None and rate else None
    return cpu


async def run_load(url: str, args: argparse.Namespace, server_pid: int | None = None) -> dict[str, Any]:
    stats = Stats()
    limits = httpx.Limits(max_connections=50)
    expansions = ["armada"] if args.armada else []
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        rooms = await gather_limited(
            [make_room(http, args.players, args.game, i, expansions) for i in range(args.rooms)], 20
        )
        tasks, readies = [], []
        go = asyncio.Event()
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
                            go=go,
                        )
                    )
                )
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
        lags: list[float] = []
        cpu: list[CpuSample] = []
        stop = asyncio.Event()

        async def start(room: Room, delay: float) -> None:
            await asyncio.sleep(delay)
            r = await http.post(f"/api/rooms/{room.code}/start", headers={"Authorization": f"Bearer {room.tokens[0]}"})
            r.raise_for_status()
            if args.ramp_s:
                go.set()

        step = args.ramp_s / max(1, len(rooms))
        if args.ramp_s:
            # rooms start one after another over --ramp-s seconds, as real rooms do (not all in one
            # instant), each playing as soon as it has started
            starts = asyncio.gather(*(start(room, i * step) for i, room in enumerate(rooms)))
        else:
            # every game starts first (that is set-up, not play), then all of them play at once
            await asyncio.gather(*(start(room, 0) for room in rooms))
            go.set()
        samplers = [asyncio.create_task(loop_lag(lags, stop)), asyncio.create_task(sample_cpu(cpu, server_pid, stop))]
        # the clients collect no cycles while they play (see the module's docstring)
        gc.collect()
        gc.freeze()
        gc.disable()
        before = await server_histograms(http)
        started = time.perf_counter()
        if args.verbose:
            print(f"play starts at {time.time():.3f}", file=sys.stderr)
        if args.ramp_s:
            await starts
        _done, not_done = await asyncio.wait(tasks, timeout=args.timeout)
        ended = time.perf_counter()
        gc.enable()
        gc.unfreeze()
        after = await server_histograms(http)
        stop.set()
        await asyncio.gather(*samplers)
        if args.verbose:
            print(f"play ends at {time.time():.3f}", file=sys.stderr)
        for task in not_done:
            task.cancel()
        if not_done:
            stats.error("timeout")
    # the timed window: from the moment every room has played its warm-up turns to the last game's end
    warm = [room.reveal_done[args.warmup_turns - 1] for room in rooms if len(room.reveal_done) >= args.warmup_turns]
    if args.warmup_turns == 0:
        window_start = started
    elif len(warm) == len(rooms):
        window_start = max(warm)
    else:
        window_start = ended  # some room never got that far: nothing to time
    window = ended - window_start
    actions = sum(1 for room in rooms for t in room.sends if t >= window_start)
    latencies = sorted(
        x for room in rooms for x, t in zip(room.latencies, room.reveal_times, strict=True) if t >= window_start
    )
    waits = sorted(w for room in rooms for t, w in room.waits() if t >= window_start)
    turns = sorted(
        b - a
        for room in rooms
        for a, b in zip(room.reveal_done, room.reveal_done[1:], strict=False)
        if a >= window_start
    )

    def pct(values: list[float], p: float) -> float | None:
        if not values:
            return None
        return round(1000 * values[min(len(values) - 1, int(p * len(values)))], 2)

    def summary(values: list[float]) -> dict[str, Any]:
        return {"p50": pct(values, 0.5), "p99": pct(values, 0.99), "max": pct(values, 1.0)}

    lags.sort()
    return {
        "rooms": args.rooms,
        "players": args.players,
        "game": args.game,
        "expansions": ["armada"] if args.armada else [],
        "bot": args.bot,
        "think_ms": args.think_ms,
        "ramp_s": args.ramp_s,
        "warmup_turns": args.warmup_turns,
        "games_finished": sum(room.finished for room in rooms),
        "actions": actions,
        "actions_total": sum(len(room.sends) for room in rooms),
        "window_s": round(window, 2),
        "actions_per_s": round(actions / window, 1) if window > 0 else None,
        "reveals": len(latencies),
        "reveal_latency_ms": summary(latencies),
        "reveal_to_next_last_pick_ms": summary(waits),
        "turn_ms": summary(turns),
        "cpu": cpu_per_action(cpu_between(cpu, window_start, ended), actions / window if window > 0 else 0),
        "messages_received": stats.messages,
        "messages_by_type": dict(sorted(stats.kinds.items())),
        "client_loop_lag_ms": {"p50": pct(lags, 0.5), "p99": pct(lags, 0.99)},
        "server_loop_lag_ms": histogram_between(before[LAG_METRIC], after[LAG_METRIC]),
        "server_gc_pause_ms": histogram_between(before[GC_METRIC], after[GC_METRIC]),
        "errors": stats.errors,
        "error_codes": stats.error_codes,
    }


@contextlib.contextmanager
def spawned_server(database_url: str | None, log_path: Path, app_dir: Path = ROOT):  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as tmp:
        server = AppProcess(
            database_url or f"sqlite:///{tmp}/bench.db",
            free_port(),
            log_path,
            env={"MAX_ROOMS": "100000"},
            app_dir=app_dir,
            start_timeout=300,  # a busy machine
        )
        log_path.write_bytes(b"")
        with server:
            yield server


def _runner() -> Any:
    """uvloop when installed (it comes with uvicorn[standard]): the client should cost as little as it can."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


class _OrjsonText:
    """json.loads / json.dumps for the bot clients of this process, by orjson: a seat's client spends
    a fifth of its time decoding the server's states with the standard library."""

    @staticmethod
    def loads(text: str | bytes) -> Any:
        return orjson.loads(text)

    @staticmethod
    def dumps(value: Any) -> str:
        return orjson.dumps(value).decode()


def cheap_client_json() -> None:
    """The bot clients (app.client.connection) decode and encode with orjson in this load generator (as it
    runs on uvloop): the fewer cycles the clients take, the more of the machine the server gets."""
    bot_client.json = _OrjsonText  # type: ignore[assignment]


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
    parser.add_argument(
        "--warmup-turns", type=int, default=1, help="turns of every room played before the timed window starts"
    )
    parser.add_argument("--server-pid", type=int, help="with --url: the server's process, to measure its CPU")
    parser.add_argument("--app-dir", default=str(ROOT), help="the checkout whose server is started (A/B runs)")
    parser.add_argument("--stdlib-json", action="store_true", help="the clients decode with json, not orjson")
    parser.add_argument("--verbose", action="store_true", help="print phase times to stderr")
    parser.add_argument("--server-log", default=os.path.join(tempfile.gettempdir(), "wonders-bench-server.log"))
    args = parser.parse_args(argv)
    if not args.stdlib_json:
        cheap_client_json()
    run = _runner()
    if args.url:
        result = run(run_load(args.url.rstrip("/"), args, args.server_pid))
    else:
        with spawned_server(args.database_url, Path(args.server_log), Path(args.app_dir)) as server:
            result = run(run_load(server.url, args, server.pid))
    print(json.dumps(result))
    return 0 if result["errors"] == 0 and result["games_finished"] == args.rooms else 1


if __name__ == "__main__":
    sys.exit(main())
