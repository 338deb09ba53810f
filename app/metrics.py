"""Prometheus metrics, served as text at `GET /metrics` (app/api/metrics.py).

The metric objects live here, once per process, in a registry of their own (`REGISTRY`, with the
process, platform and garbage-collector metrics): every app made in the process (tests make many)
counts into the same objects, so nothing is ever registered twice. Counters and histograms count
what this process did; `wonders_connections` is this process's sockets. What the database knows
(rooms by status, running games) is read at each scrape (`scrape`), so it is right across
instances.

Other modules call the small functions below rather than touching the objects:
`timeout_fired()` for a seat's clock running out, `submission_accepted()` / `submission_refused()` for an action,
`commit_seconds()` for the log writer, `connection_opened()` / `connection_closed()` for the hub,
`long_poll_waiting()` for a REST long poll;
`watch_loop_lag()` runs for the server's life and samples how late its event loop runs, and moves the
garbage collector's pauses (timed by a `gc.callbacks` hook) into `wonders_gc_pause_seconds`.
"""

import asyncio
import gc
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics, generate_latest
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
ROOM_STATUSES = ("open", "playing", "finished")

disable_created_metrics()  # no `*_created` series: they double the output for nothing Prometheus uses
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

# seconds; an action is usually a few milliseconds, a busy PostgreSQL may take a second
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# seconds the event loop stood still (its lag, a garbage collection)
PAUSE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

CONNECTIONS = Gauge(
    "wonders_connections",
    "Websocket connections open on this instance, by kind (seat or spectator)",
    ["kind"],
    registry=REGISTRY,
)
ACTIONS_ACCEPTED = Counter(
    "wonders_actions_accepted", "Actions accepted (stored and applied) by this instance", registry=REGISTRY
)
ACTIONS_REFUSED = Counter(
    "wonders_actions_refused",
    "Actions refused by this instance, by error code (illegal_action, stale, not_your_turn, duplicate, ...)",
    ["code"],
    registry=REGISTRY,
)
ACTION_SECONDS = Histogram(
    "wonders_action_seconds",
    "From receiving an action to its acceptance (stored, applied and announced)",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
COMMIT_SECONDS = Histogram(
    "wonders_commit_seconds",
    "The action log writer's database write, per batch",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
LOOP_LAG = Histogram(
    "wonders_event_loop_lag_seconds",
    "How late the event loop ran a timer that was due (sampled every 0.1 s): how long anything ready "
    "waits for its turn. A busy server's messages, commits and sends each wait about this long.",
    buckets=PAUSE_BUCKETS,
    registry=REGISTRY,
)
GC_PAUSE = Histogram(
    "wonders_gc_pause_seconds",
    "How long each of this process's garbage collections stopped everything (the event loop included): "
    "a reveal or a commit under way waits for it",
    buckets=PAUSE_BUCKETS,
    registry=REGISTRY,
)
ACTION_WRITES_FAILED = Counter(
    "wonders_action_writes_failed",
    "Batches of actions the database refused to store (their submitters were told; see /healthz)",
    registry=REGISTRY,
)
CONNECTIONS_OVER_LIMIT = Counter(
    "wonders_connections_over_address_limit",
    "Websocket connections refused because their client address held WS_CONNECTIONS_PER_ADDRESS already",
    registry=REGISTRY,
)
HTTP_CONNECTIONS_OVER_LIMIT = Counter(
    "wonders_http_connections_over_address_limit",
    "HTTP connections whose requests were refused because their client address held HTTP_CONNECTIONS_PER_ADDRESS "
    "already",
    registry=REGISTRY,
)
LONG_POLLS = Gauge(
    "wonders_long_polls_waiting",
    "REST long polls (GET .../game?after=V&wait=S) waiting on this instance for a game's next step",
    registry=REGISTRY,
)
TIMEOUTS = Counter("wonders_timeouts", "Turn clocks that ran out (the server acted for the seat)", registry=REGISTRY)
ROOMS_CLOSED_IDLE = Counter(
    "wonders_rooms_closed_idle", "Rooms this instance closed because nobody used them", registry=REGISTRY
)
GAMES_ABANDONED = Counter(
    "wonders_games_abandoned", "Running games this instance ended as abandoned (their room closed)", registry=REGISTRY
)
NOTIFICATIONS = Counter(
    "wonders_notifications",
    "Notifications handled by this instance: sent, merged, skipped, retried, failed; by the channel's scheme only",
    ["outcome", "scheme"],
    registry=REGISTRY,
)

for kind in ("seat", "spectator"):
    CONNECTIONS.labels(kind=kind)
for code in ("illegal_action", "stale", "not_your_turn", "duplicate"):
    ACTIONS_REFUSED.labels(code=code)


HINTS = Counter("wonders_hints", "Hints given by this instance (one per seat and game version)", registry=REGISTRY)
REVIEW_QUEUE = Gauge(
    "wonders_review_queue", "Game reviews waiting for a worker process of this instance", registry=REGISTRY
)
REVIEWS = Counter("wonders_reviews", "Game reviews computed by this instance's workers", registry=REGISTRY)
REVIEW_CPU_SECONDS = Counter(
    "wonders_review_cpu_seconds", "CPU seconds the workers of this instance spent on game reviews", registry=REGISTRY
)


def hint_given() -> None:
    HINTS.inc()


def review_queue(length: int) -> None:
    REVIEW_QUEUE.set(length)


def review_done(seconds: float, cpu_seconds: float) -> None:
    REVIEWS.inc()
    REVIEW_CPU_SECONDS.inc(cpu_seconds)


def notification(outcome: str, scheme: str = "") -> None:
    """One notification's outcome (a channel is named by its scheme: its URL is a secret)."""
    NOTIFICATIONS.labels(outcome=outcome, scheme=scheme).inc()


def timeout_fired(count: int = 1) -> None:
    """A seat's turn clock ran out and the server acted for it (call once per timeout)."""
    TIMEOUTS.inc(count)


def connection_opened(seat: int | None) -> None:
    CONNECTIONS.labels(kind="spectator" if seat is None else "seat").inc()


def connection_closed(seat: int | None) -> None:
    CONNECTIONS.labels(kind="spectator" if seat is None else "seat").dec()


def long_poll_waiting(change: int) -> None:
    """A long poll began (+1) or ended (-1) its wait."""
    LONG_POLLS.inc(change)


def action_writes_failed() -> None:
    ACTION_WRITES_FAILED.inc()


def connection_over_address_limit() -> None:
    CONNECTIONS_OVER_LIMIT.inc()


def http_connection_over_address_limit() -> None:
    HTTP_CONNECTIONS_OVER_LIMIT.inc()


def commit_seconds(seconds: float) -> None:
    COMMIT_SECONDS.observe(seconds)


def submission_accepted(received: float) -> None:
    """An action was accepted, `received` (a `time.perf_counter()`) after it arrived."""
    ACTIONS_ACCEPTED.inc()
    ACTION_SECONDS.observe(time.perf_counter() - received)


def submission_refused(code: str) -> None:
    ACTIONS_REFUSED.labels(code=code).inc()


# Pauses timed by the collector's hook, waiting to be observed: the hook runs inside a collection,
# where taking a metric's lock could deadlock with the code the collection interrupted (deque appends
# and pops take none).
_gc_pauses: deque[float] = deque(maxlen=10_000)
_gc_started = [0.0]


def _time_collection(phase: str, _info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    else:
        _gc_pauses.append(time.perf_counter() - _gc_started[0])


def time_gc_pauses() -> None:
    """Time this process's garbage collections from now on (once per process, however often called)."""
    if _time_collection not in gc.callbacks:
        gc.callbacks.append(_time_collection)


def record_gc_pauses() -> None:
    """Observe the pauses timed since the last call."""
    while _gc_pauses:
        GC_PAUSE.observe(_gc_pauses.popleft())


async def watch_loop_lag(interval: float = 0.1) -> None:
    """Sample the event loop's lag every `interval` seconds until cancelled, and record the garbage
    collector's pauses meanwhile."""
    loop = asyncio.get_running_loop()
    time_gc_pauses()
    while True:
        due = loop.time() + interval
        await asyncio.sleep(interval)
        LOOP_LAG.observe(max(0.0, loop.time() - due))
        record_gc_pauses()


def scrape(counts: Iterable[tuple[str, int]], games_loaded: int) -> bytes:
    """The text exposition: this process's metrics, and the database's counts read just now
    (`counts`: (room status, n) pairs and ("games_running", n))."""
    by_name = dict(counts)
    local = CollectorRegistry()
    rooms = Gauge("wonders_rooms", "Rooms by status, from the database (all instances)", ["status"], registry=local)
    for status in ROOM_STATUSES:
        rooms.labels(status=status).set(by_name.get(status, 0))
    Gauge("wonders_games_running", "Games running, from the database (all instances)", registry=local).set(
        by_name.get("games_running", 0)
    )
    Gauge("wonders_games_loaded", "Games held in this instance's memory", registry=local).set(games_loaded)
    return generate_latest(REGISTRY) + generate_latest(local)
