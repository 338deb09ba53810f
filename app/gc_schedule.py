"""The garbage collector on a clock: many short pauses instead of a few long ones.

CPython starts a young collection when the number of containers made less those freed passes a
threshold. A server that plays games frees about as many as it makes (each step's new state
replaces the last one), so the count grows slowly while the young generation does not: at the
server's thresholds a young collection came once every ~10,000 actions and walked some 200,000
objects, a pause of 60-200 ms that every reveal in flight waited for (measured with
`wonders_gc_pause_seconds` and `python -m bench.server_load --think-ms 1000`; lower thresholds
gave pauses nearly as long, since the young generation holds several times the count).

Collecting the young generation every half second instead walks only what was made since and is
still alive (the states of the games that moved, requests in flight): 10-30 ms. What survives it is
collected with everything else once an hour (a pause of about 300 ms with 200 live rooms on the
project's machine), which frees the cycles that outlived a young collection (closed connections,
mostly). A collection of the middle generation every minute was tried: it walks nearly as much as a
full one (the live games' frames and connections), 250-500 ms, and made the reveals' p99 worse.
CPython's own thresholds stay as a backstop for a burst of allocations between two ticks.
"""

import asyncio
import gc

FULL_SECONDS = 3600.0


async def collect_on_schedule(young_seconds: float, full_seconds: float = FULL_SECONDS) -> None:
    """Collect the young generation every `young_seconds` and every generation every `full_seconds`,
    until cancelled."""
    loop = asyncio.get_running_loop()
    full_due = loop.time() + full_seconds
    while True:
        await asyncio.sleep(young_seconds)
        if loop.time() >= full_due:
            full_due = loop.time() + full_seconds
            gc.collect()
        else:
            gc.collect(0)
