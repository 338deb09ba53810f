"""`python -m bench.server_load` runs whole games against a server it starts, and its JSON line
carries the figures docs/PERFORMANCE.md reads (no figure is judged here: tests never time)."""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_small_load_plays_every_game_and_reports_its_figures() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            # players who think a little (0-40 ms a decision), so that the play lasts longer than a
            # few of the server's lag samples (one each 0.1 s): without, a fast machine played the
            # three games in less than one, and the server's lag had no sample to report
            [sys.executable, "-m", "bench.server_load", "--rooms", "3", "--players", "3", "--think-ms", "20"]
            + ["--server-log", str(Path(tmp) / "server.log")],
            check=False,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=240,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["games_finished"] == 3 and line["errors"] == 0
    assert line["actions_total"] >= 3 * 3 * 18  # every seat's 18 picks (and wonders' extra decisions)
    assert line["reveals"] > 0 and line["reveal_latency_ms"]["p50"] is not None
    lag = line["server_loop_lag_ms"]  # read from the server's own /metrics
    assert lag["mean"] is not None and lag["mean"] >= 0 and lag["p99_at_most"] is not None
    assert line["server_gc_pause_ms"]["count"] >= 0  # none may run in so short a load
    assert set(line["cpu"]) >= {"server_cores", "client_cores", "server_ms_per_action"}
