"""A game's next step is checked and applied on its predecessor's uncommitted state, so the picks of
a turn that arrive together are committed together; nobody hears of a step before it is committed,
a step built on one that was not stored is not stored either, and a refusal is decided on what is
committed. Writes are held up by a real second connection holding the database's lock."""

import asyncio
import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from app.db import repo
from app.db.log_writer import Entry
from app.db.models import Action
from app.rooms.context import Services
from app.rooms.errors import Conflict, Unavailable
from app.rooms.games import GameRuntime
from tests.server.conftest import _clear_postgres, make_settings
from tests.server.helpers import until
from tests.server.test_canonical_log import three_people
from tests.server.test_db import sync_url


async def three_seat_game(services: Services, seed: int) -> GameRuntime:
    """A started 3-seat game of three people (nobody acts unless the test says so)."""
    return await services.games.runtime(await three_people(services, seed))


@contextlib.contextmanager
def other_writer(database_url: str) -> Iterator[sa.Connection]:
    """Another connection in a transaction that holds the database's write lock on the actions
    (PostgreSQL: an exclusive table lock; SQLite: the file's write lock) until the block ends, when
    it commits."""
    engine = sa.create_engine(sync_url(database_url))
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.exec_driver_sql("LOCK TABLE actions IN EXCLUSIVE MODE")
            else:
                conn.exec_driver_sql("UPDATE rooms SET updated_at = updated_at")  # takes the write lock
            yield conn
    finally:
        engine.dispose()


async def staged(rt: GameRuntime, steps: int) -> None:
    """Until `steps` steps of the game wait for their commit."""

    async def waiting() -> bool:
        return len(rt.chain) == steps

    await until(waiting, within=30)


def canonical(rt: GameRuntime, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """The form in which the engine stores `seat`'s action on the game's current state."""
    game = rt.frame.game.clone()
    game.apply(seat, action)
    return game.log[-1]["action"]


async def stored_seats(services: Services, game_id: int) -> list[int]:
    async with services.db.sessions() as session:
        return [row["seat"] for row in await repo.actions_of(session, game_id)]


async def test_a_turns_picks_wait_unheard_for_their_commit_and_are_checked_again_when_one_lost_a_race(
    database_url: str,
) -> None:
    services = await Services.start(make_settings(database_url))
    try:
        rt = await three_seat_game(services, seed=5)
        heard: list[int] = []
        services.games.listeners.append(lambda r: heard.append(r.version))
        legal = {seat: rt.frame.legal(seat)[0] for seat in range(3)}
        with other_writer(database_url) as other:
            # another instance stores seat 2's pick as step 0 (committed when the block ends)
            other.execute(
                sa.insert(Action).values(
                    game_id=rt.game_id, seq=0, seat=2, action=canonical(rt, 2, legal[2]), created_at=datetime.now(UTC)
                )
            )
            picks = [asyncio.ensure_future(services.games.submit(rt.game_id, s, legal[s], 0)) for s in (0, 1)]
            await staged(rt, 2)
            await asyncio.sleep(0.1)
            # both picks were applied, seat 1's on seat 0's uncommitted step, and nobody heard of them
            assert rt.head.version == 2 and [p.entry.seat for p in rt.chain] == [0, 1]
            assert rt.version == 0 and heard == [] and not any(p.done() for p in picks)
        done = await asyncio.gather(*picks)
        # seat 0's step 0 lost to the other instance's; seat 1's step 1, built on it, was not stored
        # either; both were checked again on the other instance's step and stored after it
        assert sorted(d.seq for d in done) == [1, 2] and services.games.conflicts >= 1
        seats = await stored_seats(services, rt.game_id)
        assert seats[0] == 2 and sorted(seats[1:]) == [0, 1] and len(seats) == 3
        assert rt.version == 3 and not rt.chain and rt.frame.can_act(0)  # the turn was revealed
        services.games.unload(rt.game_id)
        reloaded = await services.games.runtime(rt.game_id)
        assert reloaded.frame.game.snapshot() == rt.frame.game.snapshot()
    finally:
        await services.stop()


async def test_a_refusal_on_an_uncommitted_step_waits_for_its_commit(database_url: str) -> None:
    services = await Services.start(make_settings(database_url))
    try:
        rt = await three_seat_game(services, seed=6)
        pick = rt.frame.legal(0)[0]
        with other_writer(database_url):
            first = asyncio.ensure_future(services.games.submit(rt.game_id, 0, pick, 0, "pick-1"))
            await staged(rt, 1)
            again = asyncio.ensure_future(services.games.submit(rt.game_id, 0, pick, 0, "pick-1"))
            await asyncio.sleep(0.1)
            assert not first.done() and not again.done()  # not "duplicate" before step 0 is committed
        assert (await first).seq == 0
        with pytest.raises(Conflict) as refused:
            await again
        assert refused.value.code == "duplicate" and refused.value.details["seq"] == 0
        assert await stored_seats(services, rt.game_id) == [0]
    finally:
        await services.stop()


async def test_the_log_writer_never_stores_a_step_without_its_predecessor(database_url: str) -> None:
    services = await Services.start(make_settings(database_url))
    try:
        rt = await three_seat_game(services, seed=7)
        writer, at = services.store.writer, datetime.now(UTC)
        lost = Entry(rt.game_id, 50_000, 0, {"type": "ours"}, None, at)
        built_on_lost = Entry(rt.game_id, 50_001, 1, {"type": "ours"}, None, at, after=lost)
        kept = Entry(rt.game_id, 60_000, 0, {"type": "ours"}, None, at)
        built_on_kept = Entry(rt.game_id, 60_001, 1, {"type": "ours"}, None, at, after=kept)
        with other_writer(database_url) as other:
            other.execute(sa.insert(Action).values(game_id=rt.game_id, seq=50_000, seat=2, action={"type": "theirs"}))
            # queued together while the other writer holds the lock: one batch, in order
            commits = [writer.submit(e) for e in (lost, built_on_lost, kept, built_on_kept)]
        assert await asyncio.gather(*commits) == [False, False, True, True]
        assert built_on_lost.dropped and not lost.dropped and not built_on_kept.dropped
        # the step built on the lost one was written in the same transaction and taken out again
        late = Entry(rt.game_id, 50_002, 1, {"type": "ours"}, None, at, after=built_on_lost)
        assert not await writer.append(late) and late.dropped  # and one queued after it is not written
        async with services.db.sessions() as session:
            rows = {r["seq"]: r["action"]["type"] for r in await repo.actions_of(session, rt.game_id, 40_000)}
        assert rows == {50_000: "theirs", 60_000: "ours", 60_001: "ours"}
    finally:
        await services.stop()


async def test_a_step_whose_submitter_went_away_is_still_committed_and_announced(database_url: str) -> None:
    services = await Services.start(make_settings(database_url))
    try:
        rt = await three_seat_game(services, seed=8)
        heard: list[int] = []
        services.games.listeners.append(lambda r: heard.append(r.version))
        with other_writer(database_url):
            submission = asyncio.ensure_future(services.games.submit(rt.game_id, 0, rt.frame.legal(0)[0], 0))
            await staged(rt, 1)
            submission.cancel()  # its connection closed while the commit waited
            with pytest.raises(asyncio.CancelledError):
                await submission
            assert rt.version == 0 and heard == []

        async def announced() -> bool:
            return rt.version == 1 and heard == [1]

        await until(announced, within=30)
        assert await stored_seats(services, rt.game_id) == [0]
    finally:
        await services.stop()


@pytest.mark.postgres
async def test_a_commit_that_fails_takes_the_steps_built_on_it_and_the_game_goes_on(pg_server_url: str) -> None:
    """The log writer's connection dies while a turn's picks wait for their commit: the pick whose
    commit failed is refused with database_down, none built on it is stored, and the game goes on."""
    _clear_postgres(pg_server_url)
    services = await Services.start(make_settings(pg_server_url))
    try:
        rt = await three_seat_game(services, seed=9)
        legal = {seat: rt.frame.legal(seat)[0] for seat in range(3)}
        with other_writer(pg_server_url) as other:
            picks = [asyncio.ensure_future(services.games.submit(rt.game_id, s, legal[s], 0)) for s in (0, 1)]
            await staged(rt, 2)

            async def writer_waits() -> bool:
                # pg_stat_activity is read once per transaction and kept: read it afresh each time
                other.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
                blocked = other.exec_driver_sql(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND query ILIKE 'INSERT INTO actions%%'"
                )
                return blocked.scalar_one() > 0

            await until(writer_waits, within=30)
            other.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
            other.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' "
                "AND query ILIKE 'INSERT INTO actions%%'"
            )
            with pytest.raises(Unavailable) as refused:  # at once, while the lock is still held
                await asyncio.wait_for(asyncio.shield(picks[0]), 10)
            assert refused.value.code == "database_down"
        # seat 1's pick was either in the failed batch (refused too) or built on seat 0's failed step
        # and checked again on the committed state, then stored as step 0
        (second,) = await asyncio.gather(picks[1], return_exceptions=True)
        assert isinstance(second, Unavailable) or second.seq == 0, second
        again = await services.games.submit(rt.game_id, 0, legal[0], rt.version)
        seats = await stored_seats(services, rt.game_id)
        assert seats[again.seq] == 0 and len(seats) == rt.version and not rt.chain
        services.games.unload(rt.game_id)
        reloaded = await services.games.runtime(rt.game_id)
        assert reloaded.version == len(seats)
    finally:
        await services.stop()
