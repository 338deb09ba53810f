"""The same load on a boardgame.io server, for comparison with bench.server_load.

    python -m bench.bgio --rooms 200
    python -m bench.bgio --rooms 200 --storage flatfile

An optional benchmark, run by hand only (never by the tests or CI): it needs Node and npm. It runs
`npm ci` in bench/bgio/ when node_modules is missing, starts bench/bgio/server.js (boardgame.io
0.50.2's Server with its in-memory storage, or FlatFile in a temporary directory) on a free
127.0.0.1 port, runs bench/bgio/load.js against it and prints its JSON line, with the storage and
the machine's load average before and after the run added.

The shape is bench.server_load's: 4 seats a room, whole games of 18 turns in which every seat picks
secretly and the turn resolves once all have picked (game.js), a closed loop (every seat picks the
moment its state arrives), the rooms created and every seat connected before the clock starts, the
first turn of every room a warm-up. actions_per_s counts the picks sent in the timed window;
reveal_latency_ms runs from a turn's last pick being sent to every seat of the room having the
next turn's state (or the game's end); cpu is read from /proc as bench.server_load does.
"""

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.live import free_port, stop_process

HERE = Path(__file__).resolve().parent
NODE_ENV = {**os.environ, "NODE_ENV": "production"}  # boardgame.io logs less in production


def install_packages() -> None:
    """The pinned boardgame.io of package-lock.json, once."""
    if not (HERE / "node_modules" / "boardgame.io").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True, stdout=sys.stderr)


def wait_for_port(proc: subprocess.Popen[bytes], port: int, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the boardgame.io server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the boardgame.io server did not listen within {timeout:g} s:\n{log.read_text()[-4000:]}")


@contextlib.contextmanager
def bgio_server(storage: str, log: Path, start_timeout: float = 60.0) -> Iterator[tuple[str, int]]:
    """server.js on a free 127.0.0.1 port: yields its URL and process id, stops it at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        command = ["node", "server.js", "--port", str(port), "--storage", storage, "--dir", tmp]
        with log.open("wb") as out:
            proc = subprocess.Popen(command, cwd=HERE, env=NODE_ENV, stdout=out, stderr=out)
        try:
            wait_for_port(proc, port, log, start_timeout)
            yield f"http://127.0.0.1:{port}", proc.pid
        finally:
            stop_process(proc, 10)


def run_load(url: str, server_pid: int, rooms: int, timeout: float) -> dict[str, Any]:
    command = ["node", "load.js", "--url", url, "--rooms", str(rooms), "--server-pid", str(server_pid)]
    command += ["--timeout", str(timeout)]
    # it exits 1 when a game did not finish, still printing its figures
    done = subprocess.run(
        command, check=False, cwd=HERE, env=NODE_ENV, capture_output=True, text=True, timeout=timeout + 120
    )
    if not done.stdout.strip():
        raise RuntimeError(f"the load generator printed nothing (exit {done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--storage", choices=["memory", "flatfile"], default="memory")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before unfinished games count as errors")
    parser.add_argument("--server-log", default=os.path.join(tempfile.gettempdir(), "wonders-bench-bgio-server.log"))
    args = parser.parse_args(argv)
    install_packages()
    before = load_average()
    with bgio_server(args.storage, Path(args.server_log)) as (url, pid):
        result = run_load(url, pid, args.rooms, args.timeout)
    result = {"storage": args.storage, **result, "load_average": {"before": before, "after": load_average()}}
    print(json.dumps(result))
    return 0 if result["errors"] == 0 and result["games_finished"] == args.rooms else 1
