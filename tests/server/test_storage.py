"""The storage interface (app/db/storage.py) as the rooms layer sees it: each test takes a `Store`
from `app.db.open_store` and uses nothing but the interface's methods and records, on SQLite and on
PostgreSQL. Whatever the database says comes out as the interface's own errors (Taken,
StorageDown), never as a driver's."""

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from app.db import open_store
from app.db.migrate import upgrade
from app.db.storage import Entry, RoomRecord, SeatRecord, StorageDown, Store, Taken, now


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    await upgrade(database_url)
    opened = open_store(database_url)
    opened.start()
    try:
        yield opened
    finally:
        await opened.stop_writing()
        await opened.close()


SETTINGS = {"game": "classic", "players": 3, "expansions": [], "wonder_side": "random", "wonders": None}


async def a_room(store: Store, code: str = "ABCDEF7") -> RoomRecord:
    async with store.transaction() as tx:
        room = await tx.add_room(code, SETTINGS, 0)
        await tx.add_person(room.id, 0, "Ann", f"hash-ann-{code}")  # token hashes are unique everywhere
        await tx.add_bot(room.id, 2, "greedy")
    return room


async def test_rooms_and_seats_are_plain_records_written_by_the_unit_of_work(store: Store) -> None:
    room = await a_room(store)
    async with store.reading() as tx:
        found = await tx.room("ABCDEF7")
        seats = await tx.seats(room.id)
        assert await tx.room("ZZZZZZ9") is None
    assert isinstance(found, RoomRecord) and found.status == "open" and found.settings == SETTINGS
    assert [(s.seat, s.name, s.kind, s.bot) for s in seats] == [
        (0, "Ann", "human", None),
        (2, "Greedy bot 2", "bot", "greedy"),
    ]
    assert all(isinstance(s, SeatRecord) for s in seats)
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.status = "closed"  # type: ignore[misc]  # a record is a value: changes go through the unit of work
    async with store.transaction() as tx:
        ann = await tx.seat_by_token(room.id, "hash-ann-ABCDEF7")
        assert ann is not None
        changed = await tx.update_seat(ann, bot_plays="random", bot_reason="host")
        assert (changed.bot_plays, ann.bot_plays) == ("random", None)  # the new record; the old one is as it was
        assert (await tx.seat(room.id, 0)) == changed  # the unit of work reads its own writes
        await tx.update_room(found, host_seat=2, updated_at=now())
    async with store.reading() as tx:
        again = await tx.room("ABCDEF7")
        seat = await tx.seat(room.id, 0)
    assert again is not None and again.host_seat == 2 and seat is not None and seat.bot_reason == "host"


async def test_a_unit_of_work_that_raises_writes_nothing(store: Store) -> None:
    room = await a_room(store)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.update_room(room, status="closed")
            await tx.add_person(room.id, 1, "Bo", "hash-bo")
            raise RuntimeError("changed my mind")
    async with store.reading() as tx:
        after = await tx.room(room.code)
        seats = await tx.seats(room.id)
    assert after is not None and after.status == "open" and [s.seat for s in seats] == [0, 2]


@pytest.mark.parametrize("clash", ["code", "seat", "name"])
async def test_a_key_another_writer_took_comes_out_as_taken(store: Store, clash: str) -> None:
    room = await a_room(store)
    with pytest.raises(Taken):
        async with store.transaction() as tx:
            if clash == "code":
                await tx.add_room(room.code, SETTINGS, 0)
            elif clash == "seat":
                await tx.add_person(room.id, 2, "Cy", "hash-cy")
            else:
                await tx.add_person(room.id, 1, "ANN", "hash-ann-2")  # names are unique as they read
    async with store.reading() as tx:
        assert [s.name for s in await tx.seats(room.id)] == ["Ann", "Greedy bot 2"]


async def test_one_writer_claims_a_room(store: Store) -> None:
    room = await a_room(store)
    async with store.transaction() as tx:
        assert await tx.claim_room(room.id, ("open", "finished"), "playing")
    async with store.transaction() as tx:
        assert not await tx.claim_room(room.id, ("open", "finished"), "playing")  # already playing


async def a_game(store: Store) -> tuple[RoomRecord, int]:
    room = await a_room(store)
    async with store.transaction() as tx:
        await tx.add_person(room.id, 1, "Bo", "hash-bo")
        assert await tx.claim_room(room.id, ("open",), "playing")
        game_id = await tx.add_game(
            room_id=room.id,
            kind="classic",
            config={"game": "classic", "players": 3, "seed": 4},
            seed=4,
            seats=[],
            clock=None,
        )
    return room, game_id


async def test_a_games_log_is_appended_once_per_step_and_read_back(store: Store) -> None:
    room, game_id = await a_game(store)
    at = now()
    first = Entry(game_id, 0, 1, {"type": "discard", "card": "Loom"}, "a-1", at)
    assert await store.committed(store.submit(first))
    assert not await store.append(
        Entry(game_id, 0, 2, {"type": "discard", "card": "Press"}, None, at)
    )  # step 0 is taken
    assert not await store.append(Entry(game_id, 1, 1, {"type": "pass"}, "a-1", at))  # so is seat 1's key a-1
    assert await store.append(Entry(game_id, 1, 0, {"type": "pass"}, None, at, by_timeout=True))
    stored = await store.game(game_id)
    assert stored is not None and stored.room_code == room.code and stored.status == "running"
    assert [(s["seq"], s["seat"], s["action"], s["by_timeout"]) for s in stored.steps] == [
        (0, 1, {"type": "discard", "card": "Loom"}, False),
        (1, 0, {"type": "pass"}, True),
    ]
    assert [s.seat for s in stored.room_seats] == [0, 1, 2]
    assert [s["seq"] for s in await store.steps_since(game_id, 1)] == [1]
    async with store.reading() as tx:
        assert await tx.step_count(game_id) == 2
        latest = await tx.latest_game(room.id)
        assert latest is not None and latest.id == game_id and [g.id for g in await tx.games(room.id)] == [game_id]
    assert ("playing", 1) in await store.status_counts()


async def test_a_games_last_step_finishes_it_and_its_room(store: Store) -> None:
    room, game_id = await a_game(store)
    result = {"winners": [1]}
    assert await store.append(Entry(game_id, 0, 1, {"type": "pass"}, None, now(), result=result, room_id=room.id))
    stored = await store.game(game_id)
    async with store.reading() as tx:
        after = await tx.room(room.code)
    assert stored is not None and (stored.status, stored.result) == ("finished", result)
    assert after is not None and after.status == "finished"


async def test_an_unused_room_is_found_and_closed_once_with_its_game(store: Store) -> None:
    room, game_id = await a_game(store)
    await asyncio.sleep(0.01)
    cutoff = now()
    assert await store.idle_rooms(cutoff, 10) == [(room.id, room.code)]
    assert await store.close_idle_room(room.id, cutoff) == (game_id,)
    assert await store.close_idle_room(room.id, cutoff) is None  # closed already
    assert await store.abandoned_among([game_id, game_id + 1]) == [game_id]
    other = await a_room(store, "GHJKLM2")
    await store.touch_room(other.code)
    assert await store.idle_rooms(now() - timedelta(hours=1), 10) == []


async def test_a_database_that_does_not_answer_is_storage_down() -> None:
    down = open_store("postgresql://nobody@127.0.0.1:1/nothing")  # nothing listens on port 1
    try:
        with pytest.raises(StorageDown):
            await down.ping()
        with pytest.raises(StorageDown):
            async with down.reading() as tx:
                await tx.room("ABCDEF7")
        with pytest.raises(StorageDown):
            await down.game(1)
    finally:
        await down.close()
