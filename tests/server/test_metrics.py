"""GET /metrics against a real uvicorn: the text parses, and a short game over websockets moves the
counters by the right amounts. Counters are per process (several apps may live in one test process),
so the test compares scrapes taken before and after."""

import asyncio
import contextlib
import gc
import random
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app import metrics
from tests.server.helpers import SeatClient, bearer, full_room, play_reactive, until
from tests.server.live import LiveServer

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
async def http(live_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        yield client


async def scrape(http: httpx.AsyncClient) -> Samples:
    r = await http.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    out: Samples = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


async def test_metrics_text_and_schema(http: httpx.AsyncClient) -> None:
    samples = await scrape(http)
    names = {name for name, _ in samples}
    for name in (
        "wonders_rooms",
        "wonders_games_running",
        "wonders_games_loaded",
        "wonders_connections",
        "wonders_actions_accepted_total",
        "wonders_actions_refused_total",
        "wonders_action_seconds_count",
        "wonders_commit_seconds_count",
        "wonders_timeouts_total",
        "wonders_event_loop_lag_seconds_count",
        "wonders_gc_pause_seconds_count",
        "process_cpu_seconds_total",
    ):
        assert name in names, name
    for status in ("open", "playing", "finished"):
        assert ("wonders_rooms", frozenset({("status", status)})) in samples
    paths = (await http.get("/openapi.json")).json()["paths"]
    assert "/metrics" not in paths


async def test_a_short_game_moves_the_counters(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    before = await scrape(http)
    code, tokens = await full_room(http, 3, seed=31)
    started = await scrape(http)
    assert moved(before, started, "wonders_rooms", status="playing") == 1
    assert moved(before, started, "wonders_games_running") == 1
    async with contextlib.AsyncExitStack() as stack:
        url = live_server.ws_url
        clients = {s: await stack.enter_async_context(SeatClient(url, code, t)) for s, t in tokens.items()}
        spectator = await stack.enter_async_context(SeatClient(url, code, None))
        for c in [*clients.values(), spectator]:
            await c.wait_type("state")
        connected = await scrape(http)
        assert moved(before, connected, "wonders_connections", kind="seat") == 3
        assert moved(before, connected, "wonders_connections", kind="spectator") == 1
        # one illegal action over the websocket, one over REST: both counted under their code
        start = len(clients[0].messages)
        await clients[0].send({"type": "action", "action": {"type": "build", "card": "Atlantis"}, "version": 0})
        assert (await clients[0].wait_type("error", start=start))["code"] == "illegal_action"
        r = await http.post(
            f"/api/rooms/{code}/game/actions",
            json={"action": {"type": "build", "card": "Atlantis"}, "version": 0},
            headers=bearer(tokens[1]),
        )
        assert r.status_code == 422
        await play_reactive(clients, random.Random(31))
    steps = (await http.get(f"/api/rooms/{code}/game/history")).json()["steps"]

    async def settled() -> Samples | None:  # the server notices the closed sockets a moment later
        now = await scrape(http)
        kinds = ("seat", "spectator")
        return now if all(moved(before, now, "wonders_connections", kind=kind) == 0 for kind in kinds) else None

    after = await until(settled, within=10)
    assert moved(before, after, "wonders_actions_accepted_total") == len(steps) > 0
    assert moved(before, after, "wonders_actions_refused_total", code="illegal_action") == 2
    assert moved(before, after, "wonders_action_seconds_count") == len(steps)
    assert moved(before, after, "wonders_action_seconds_sum") > 0
    assert moved(before, after, "wonders_commit_seconds_count") >= 1
    assert moved(before, after, "wonders_rooms", status="finished") == 1
    assert moved(before, after, "wonders_rooms", status="playing") == 0
    assert moved(before, after, "wonders_games_running") == 0
    assert moved(before, after, "wonders_connections", kind="seat") == 0
    assert moved(before, after, "wonders_connections", kind="spectator") == 0


async def test_timeouts_counter(http: httpx.AsyncClient) -> None:
    before = await scrape(http)
    metrics.timeout_fired()
    after = await scrape(http)
    assert moved(before, after, "wonders_timeouts_total") == 1


async def test_the_server_samples_its_event_loop_lag(http: httpx.AsyncClient) -> None:
    before = await scrape(http)

    async def three_samples() -> bool:  # one every 0.1 s
        return moved(before, await scrape(http), "wonders_event_loop_lag_seconds_count") >= 3

    await until(three_samples, within=10)


def read() -> Samples:
    """This process's metrics (those of an app served in it included)."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(metrics.scrape([], 0).decode())
        for s in family.samples
    }


@contextlib.asynccontextmanager
async def loop_watched() -> AsyncIterator[tuple[Samples, Samples]]:
    """metrics.watch_loop_lag running (every 0.05 s) around the block; yields this process's metrics
    read before the block, and a mapping filled with them read a moment after it."""
    watcher = asyncio.create_task(metrics.watch_loop_lag(0.05))
    after: Samples = {}
    try:
        await asyncio.sleep(0.12)
        yield read(), after
        await asyncio.sleep(0.12)
        after.update(read())
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


async def test_a_blocked_event_loop_shows_as_lag() -> None:
    def late(samples: Samples) -> float:  # samples above 0.25 s
        return value(samples, "wonders_event_loop_lag_seconds_count") - value(
            samples, "wonders_event_loop_lag_seconds_bucket", le="0.25"
        )

    async with loop_watched() as (before, after):
        time.sleep(0.4)  # noqa: ASYNC251 (the point: nothing else runs meanwhile)
    assert late(after) - late(before) >= 1
    assert moved(before, after, "wonders_event_loop_lag_seconds_sum") >= 0.3


async def test_a_garbage_collection_shows_as_a_pause() -> None:
    async with loop_watched() as (before, after):
        walked = [[] for _ in range(300_000)]  # containers for the collection to walk
        started = time.perf_counter()
        gc.collect()
        took = time.perf_counter() - started
        del walked
    assert moved(before, after, "wonders_gc_pause_seconds_count") >= 1
    assert moved(before, after, "wonders_gc_pause_seconds_sum") >= 0.5 * took > 0


def test_many_apps_in_one_process() -> None:
    from app.main import create_app
    from tests.server.conftest import make_settings

    for _ in range(3):
        create_app(make_settings("sqlite:///unused.db"))
    assert metrics.scrape([("open", 2), ("games_running", 1)], 0).count(b'wonders_rooms{status="open"} 2.0') == 1
