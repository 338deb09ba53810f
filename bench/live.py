"""A real `python -m app` in a child process, on a free port: started, killed and started again on
the same database (bench.server_load, bench.soak and the restart tests use it)."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(proc: subprocess.Popen[Any], timeout: float) -> None:
    """SIGTERM, then SIGKILL if it has not exited within `timeout` seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# `python -m app` with SIGXFSZ ignored
IGNORING_SIGXFSZ = (
    "import runpy, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); runpy.run_module('app', run_name='__main__')"
)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


class AppProcess:
    """`python -m app` serving `database_url` on 127.0.0.1:`port`, its output appended to `log`.

    `env` adds settings (e.g. ALLOW_SEED); REDIS_URL is never inherited (one instance, alone).
    `app_dir` is the directory whose `app` package is run (default: this checkout)."""

    def __init__(
        self,
        database_url: str,
        port: int,
        log: Path,
        *,
        env: dict[str, str] | None = None,
        app_dir: Path = ROOT,
        start_timeout: float = 60.0,
        ignore_file_size_limit: bool = False,
    ) -> None:
        self.database_url, self.port, self.log = database_url, port, log
        self.extra_env = env or {}
        # a write past RLIMIT_FSIZE then fails (EFBIG) instead of killing the server with SIGXFSZ:
        # a test lowers the limit of the running server (resource.prlimit) for a disk that refuses writes
        self.ignore_file_size_limit = ignore_file_size_limit
        self.app_dir = app_dir
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def start(self) -> None:
        """Start the server and wait until `/healthz` answers (its migrations run)."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "LOG_LEVEL": "warning",
            "PYTHONPATH": str(self.app_dir),
            # every room and connection of a benchmark's clients comes from this one address
            "ROOMS_PER_ADDRESS": "0",
            "WS_CONNECTIONS_PER_ADDRESS": "0",
            "HTTP_CONNECTIONS_PER_ADDRESS": "0",
            **self.extra_env,
        }
        env.pop("REDIS_URL", None)
        with self.log.open("ab") as out:
            launch = ["-c", IGNORING_SIGXFSZ] if self.ignore_file_size_limit else ["-m", "app"]
            self.proc = subprocess.Popen([sys.executable, *launch], cwd=self.app_dir, env=env, stdout=out, stderr=out)
        self.starts += 1
        deadline = time.monotonic() + self.start_timeout
        # one client for every try, tried often: the moment it answers is timed (bench.many_games), and
        # a new client a try (its TLS context made each time) took longer than the server's answer
        with httpx.Client(timeout=1) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get(f"{self.url}/healthz").status_code == 200:
                        return
                time.sleep(0.005)
        self.proc.kill()
        self.proc.wait()
        raise RuntimeError(f"the server did not start within {self.start_timeout:g} s:\n{self.log_tail()}")

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind (what a crash or a power cut leaves behind)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def terminate(self, limit: float) -> float | None:
        """SIGTERM, what a deploy or `docker stop` sends: the seconds the server took to shut down,
        or None if it had not exited within `limit` and was killed."""
        assert self.proc is not None
        started = time.perf_counter()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        return time.perf_counter() - started

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, 20)

    def __enter__(self) -> "AppProcess":
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
