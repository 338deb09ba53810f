"""The server's background loops stop between their rounds: a round under way when the server stops
(its database work included) finishes instead of being cut, and nothing is logged as an error; a
round that outlasts the grace is cancelled after all. A round that fails is logged (an error with
its traceback, or a warning while the database is out) and the next one comes."""

import asyncio
import logging
from typing import Any

import pytest

from app.db.storage import StorageDown
from app.rooms.context import Services
from app.rooms.periodic import Periodic, RoundLog
from tests.server.conftest import make_settings

LOG = logging.getLogger("wonders.test-loop")
SAID = RoundLog(LOG, "the test round failed", "the test round waits for the database")


async def test_a_round_under_way_finishes_and_no_other_starts() -> None:
    entered, release = asyncio.Event(), asyncio.Event()
    rounds: list[str] = []

    async def round_() -> None:
        rounds.append("began")
        entered.set()
        await release.wait()
        rounds.append("ended")

    loop = Periodic("test", round_, 0.01, wait_first=False, said=SAID)
    loop.start()
    await entered.wait()
    stopping = asyncio.create_task(loop.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # it waits for the round
    release.set()
    await stopping
    assert rounds == ["began", "ended"] and not loop.running


async def test_a_loop_that_waits_first_stops_before_its_first_round() -> None:
    rounds: list[int] = []

    async def round_() -> None:
        rounds.append(1)

    loop = Periodic("test", round_, 3600, wait_first=True, said=SAID)
    loop.start()
    await asyncio.sleep(0)
    await loop.stop()
    assert rounds == [] and not loop.running


async def test_a_round_longer_than_the_grace_is_cancelled() -> None:
    outcome: list[str] = []
    entered = asyncio.Event()

    async def round_() -> None:
        entered.set()
        try:
            await asyncio.Event().wait()  # never set
        except asyncio.CancelledError:
            outcome.append("cancelled")
            raise

    loop = Periodic("test", round_, 0.01, wait_first=False, said=SAID)
    loop.start()
    await entered.wait()
    await loop.stop(grace=0.05)
    assert outcome == ["cancelled"] and not loop.running


@pytest.mark.parametrize(
    ("failure", "level", "message"),
    [
        (ValueError("a bug"), logging.ERROR, "the test round failed; trying again in 0.01s"),
        (StorageDown("refused"), logging.WARNING, "the test round waits for the database: refused"),
    ],
)
async def test_a_failed_round_is_logged_and_the_next_one_comes(
    failure: Exception, level: int, message: str, caplog: pytest.LogCaptureFixture
) -> None:
    rounds: list[int] = []
    third = asyncio.Event()

    async def round_() -> None:
        rounds.append(len(rounds))
        if len(rounds) == 3:
            third.set()
        if len(rounds) == 1:
            raise failure

    loop = Periodic("test", round_, 0.01, wait_first=False, said=SAID)
    with caplog.at_level(logging.INFO, logger="wonders.test-loop"):
        loop.start()
        await asyncio.wait_for(third.wait(), 10)
        await loop.stop()
    said = [(r.levelno, r.getMessage(), r.exc_info is not None) for r in caplog.records if r.name == LOG.name]
    assert said == [(level, message, level == logging.ERROR)]  # the traceback with an error only
    assert rounds[:3] == [0, 1, 2]


async def test_the_server_stops_after_the_poll_under_way(database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """The poll for due games is in the middle of its database work when the services stop: it ends
    its claim, and neither it nor the connection pool logs an error (a cancelled rollback did)."""
    services = await Services.start(make_settings(database_url, wake_poll_seconds=0.05))
    await services.wakes.first_poll.wait()
    real_claim = services.store.claim_due
    entered, release = asyncio.Event(), asyncio.Event()
    claims: list[Any] = []

    async def claim_due(*args: Any) -> Any:
        entered.set()
        await release.wait()
        claims.append(await real_claim(*args))  # the database work after the stop was asked
        return claims[-1]

    services.store.claim_due = claim_due  # type: ignore[method-assign]
    await entered.wait()
    with caplog.at_level(logging.WARNING):
        stopping = asyncio.create_task(services.stop())
        await asyncio.sleep(0.05)
        release.set()
        await stopping
    assert claims == [[]]  # the claim ran to its end: nothing was due
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
