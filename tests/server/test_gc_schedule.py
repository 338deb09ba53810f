"""The garbage collector on a clock (app/gc_schedule.py): young collections every tick, a full one
when its period has passed, none of the middle generation alone; the server runs it unless
GC_YOUNG_SECONDS is 0."""

import asyncio
import contextlib
import gc
from collections.abc import Iterator
from pathlib import Path

from app.gc_schedule import collect_on_schedule
from app.rooms.context import Services
from tests.server.conftest import make_settings


def collections() -> list[int]:
    return [generation["collections"] for generation in gc.get_stats()]


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """No automatic collection meanwhile (gc.collect still works): only the schedule's are counted."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


async def test_young_collections_every_tick_and_a_full_one_when_due() -> None:
    with collector_off():
        before = collections()
        clock = asyncio.create_task(collect_on_schedule(0.01, full_seconds=0.15))
        await asyncio.sleep(0.5)
        clock.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await clock
        young, middle, full = (after - was for after, was in zip(collections(), before, strict=True))
    assert young >= 10  # about 50 ticks; a loaded machine makes fewer
    assert 1 <= full <= 4  # due at 0.15, 0.3, 0.45 s
    assert middle == 0


async def test_the_server_collects_on_its_clock_unless_told_not_to(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'wonders.db'}"
    with collector_off():
        services = await Services.start(make_settings(url, gc_young_seconds=0.01))
        try:
            gc.disable()  # (the start turned it on)
            before = collections()[0]
            await asyncio.sleep(0.3)
            assert collections()[0] - before >= 5
        finally:
            await services.stop()
        assert services.gc_clock is not None and services.gc_clock.done()
        services = await Services.start(make_settings(url, gc_young_seconds=0), migrate=False)
        try:
            gc.disable()
            before = collections()[0]
            await asyncio.sleep(0.3)
            assert collections()[0] == before and services.gc_clock is None
        finally:
            await services.stop()
