"""Several app instances: the Redis broadcaster and presence against the real Redis, and a whole game
whose seats are connected to two different app instances sharing PostgreSQL and Redis."""

import asyncio
import logging
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from app.db.storage import StorageDown
from app.rooms.broadcast import RedisBroadcaster, RedisPresence
from app.rooms.context import Services
from app.rooms.quota import RedisQuota
from tests.server.conftest import REDIS_PORT, _clear_postgres, app_client, make_settings, two_instances
from tests.server.helpers import SeatClient, bearer, create_room, error_of, full_room, until
from tests.server.live import LiveServer
from tests.server.play import Truth, check_game, finished_log, play_lockstep
from tests.server.tcp_proxy import TcpProxy


async def test_redis_broadcaster_reaches_other_instances_once(redis_url: str, redis_prefix: str) -> None:
    a = RedisBroadcaster(redis_url, "inst-a-" + secrets.token_hex(3), prefix=redis_prefix)
    b = RedisBroadcaster(redis_url, "inst-b-" + secrets.token_hex(3), prefix=redis_prefix)
    got_a: list[tuple[str, dict]] = []
    got_b: list[tuple[str, dict]] = []
    a.subscribe(lambda code, notice: got_a.append((code, notice)))
    b.subscribe(lambda code, notice: got_b.append((code, notice)))
    await a.start()
    await b.start()
    try:
        room = "R" + secrets.token_hex(4).upper()
        await a.publish(room, {"kind": "game", "game_id": 1, "version": 3})
        await b.publish(room, {"kind": "room"})
        await until(lambda: len(got_a) >= 2 and len(got_b) >= 2, within=10)
        await asyncio.sleep(0.2)  # time for a notice delivered twice to show
        assert got_a == [(room, {"kind": "game", "game_id": 1, "version": 3}), (room, {"kind": "room"})]
        assert sorted(map(str, got_b)) == sorted(map(str, got_a))  # each notice once, local or remote
    finally:
        await a.stop()
        await b.stop()


async def test_two_deployments_sharing_one_redis_hear_nothing_of_each_other(redis_url: str) -> None:
    """REDIS_PREFIX keeps deployments apart on one Redis: notices, presence and quotas (pub/sub
    channels are shared by all of a Redis's databases, so a database number would not)."""
    blue, green = "wonders-blue-" + secrets.token_hex(3) + ":", "wonders-green-" + secrets.token_hex(3) + ":"
    heard: dict[str, list[tuple[str, dict]]] = {blue: [], green: []}
    broadcasters = {p: RedisBroadcaster(redis_url, "b-" + secrets.token_hex(3), prefix=p) for p in (blue, green)}
    presences = {p: RedisPresence(redis_url, "p-" + secrets.token_hex(3), prefix=p) for p in (blue, green)}
    quotas = {p: RedisQuota(1, 3600, redis_url, "rooms", prefix=p) for p in (blue, green)}
    for p in (blue, green):
        broadcasters[p].subscribe(lambda code, notice, p=p: heard[p].append((code, notice)))
        await broadcasters[p].start()
        await presences[p].start()
    room = "D" + secrets.token_hex(4).upper()  # the same room code in both deployments
    try:
        listener = RedisBroadcaster(redis_url, "l-" + secrets.token_hex(3), prefix=blue)
        listener.subscribe(lambda code, notice: heard[blue].append((code, notice)))
        await listener.start()
        await broadcasters[green].publish(room, {"kind": "room"})
        await broadcasters[blue].publish(room, {"kind": "game", "game_id": 2, "version": 1})
        await until(lambda: len(heard[blue]) >= 2, within=10)  # blue's own, and blue's listener's
        await asyncio.sleep(0.2)
        assert heard[blue] == [(room, {"kind": "game", "game_id": 2, "version": 1})] * 2
        assert heard[green] == [(room, {"kind": "room"})]  # its own delivery only
        await listener.stop()
        await presences[blue].join(room, 0)
        await presences[green].join(room, 1)
        assert await presences[blue].counts(room) == {"0": 1}
        assert await presences[green].counts(room) == {"1": 1}
        assert await quotas[blue].take("10.0.0.9") is None
        assert await quotas[green].take("10.0.0.9") is None  # a count of its own
        assert await quotas[green].take("10.0.0.9") is not None
        keys = [key async for key in presences[blue].redis.scan_iter(match=f"*{room}*")]
        assert sorted(keys) == sorted([f"{blue}presence:{room}", f"{green}presence:{room}"])
    finally:
        for part in (*broadcasters.values(), *presences.values(), *quotas.values()):
            await part.stop()


async def test_redis_presence_counts_across_instances_and_forgets_dead_ones(redis_url: str, redis_prefix: str) -> None:
    a = RedisPresence(redis_url, "pa-" + secrets.token_hex(3), prefix=redis_prefix)
    b = RedisPresence(redis_url, "pb-" + secrets.token_hex(3), prefix=redis_prefix)
    await a.start()
    await b.start()
    room = "P" + secrets.token_hex(4).upper()
    try:
        await a.join(room, 0)
        await a.join(room, None)
        await b.join(room, 0)
        await b.join(room, 2)
        assert await a.counts(room) == {"0": 2, "s": 1, "2": 1}
        await b.leave(room, 2)
        assert await b.counts(room) == {"0": 2, "s": 1}
        await b.redis.delete(b._alive_key(b.instance_id))  # b dies without cleaning up
        assert await a.counts(room) == {"0": 1, "s": 1}
    finally:
        await a.stop()
        await b.stop()
    probe = RedisPresence(redis_url, "probe", prefix=redis_prefix)
    try:
        assert await probe.redis.exists(probe.presence_key(room)) == 0  # a clean stop leaves nothing
    finally:
        await probe.redis.aclose()


async def test_a_room_whose_instances_died_leaves_no_presence_behind(redis_url: str, redis_prefix: str) -> None:
    """An instance killed with connections open cannot delete its counts: its room's hash expires
    ROOM_TTL after the last heartbeat of an instance with connections there (each pushes it back)."""
    a = RedisPresence(redis_url, "pk-" + secrets.token_hex(3), prefix=redis_prefix)
    await a.start()
    room = "K" + secrets.token_hex(4).upper()
    key = a.presence_key(room)
    try:
        await a.join(room, 1)
        assert 0 < await a.redis.ttl(key) <= RedisPresence.ROOM_TTL
        await a.redis.expire(key, 5)
        await a._keep_rooms()  # what each heartbeat does
        assert await a.redis.ttl(key) > 5
        await a.leave(room, 1)
        await a.redis.expire(key, 5)
        await a._keep_rooms()  # no connection here any more: not kept
        assert await a.redis.ttl(key) in (-2, *range(6))
    finally:
        await a.stop()


async def test_rooms_per_address_is_one_count_for_every_instance_and_survives_a_restart(
    sqlite_url: str, redis_url: str, redis_prefix: str
) -> None:
    address, other = (f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}" for _ in range(2))  # fresh counts
    settings = make_settings(sqlite_url, rooms_per_address=2, max_rooms=100, redis_url=redis_url)

    def from_address(client: httpx.AsyncClient, address: str = address) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=client.app, client=(address, 5000))  # type: ignore[attr-defined]
        return httpx.AsyncClient(transport=transport, base_url="http://test")

    async with app_client(settings) as a, app_client(settings) as b, from_address(a) as on_a, from_address(b) as on_b:
        await create_room(on_a)
        await create_room(on_b)
        for client in (on_a, on_b):
            r = await client.post("/api/rooms", json={"name": "Ada"})
            assert r.status_code == 429 and error_of(r) == "too_many_rooms", r.text
            assert 3500 <= r.json()["error"]["details"]["retry_after_seconds"] <= 3600
        async with from_address(a, other) as elsewhere:
            await create_room(elsewhere)  # another address has its own count
    async with app_client(settings) as again, from_address(again) as on_again:
        r = await on_again.post("/api/rooms", json={"name": "Ada"})
        assert r.status_code == 429 and error_of(r) == "too_many_rooms", r.text
    probe = RedisQuota(2, 3600, redis_url, "rooms", prefix=redis_prefix)
    try:
        key = probe.redis_key(address)
        assert address not in key and await probe.redis.zcard(key) == 2  # a hash of it, never the address
        assert 0 < await probe.redis.ttl(key) <= 3600  # Redis forgets it after the window
    finally:
        await probe.stop()


async def test_the_redis_quota_lets_an_address_again_once_its_oldest_event_leaves_the_window(
    redis_url: str, redis_prefix: str
) -> None:
    quota = RedisQuota(2, 6.0, redis_url, "test", prefix=redis_prefix)  # a window with room for a slow machine
    try:
        assert await quota.take("a") is None
        await asyncio.sleep(3)
        assert await quota.take("a") is None
        wait = await quota.take("a")
        assert wait is not None and 0 < wait <= 3  # until the first one is 6 s old
        assert await quota.take("b") is None
        await asyncio.sleep(wait + 0.1)
        assert await quota.take("a") is None
        assert await quota.take("a") is not None  # the second one is still in the window
    finally:
        await quota.stop()


@pytest.mark.postgres
async def test_a_game_across_two_instances(pg_server_url: str, redis_url: str) -> None:
    """Seats 0 and 1 on instance A, seat 2 on instance B: every round, simultaneous picks arrive at
    both instances; PostgreSQL orders them and Redis carries the notices."""
    async with two_instances(pg_server_url, redis_url, "i") as (a, b, http_a, http_b):
        code, tokens = await full_room(http_a, 3, start=False, seed=505)
        # B sees the room A made, and who is connected where
        async with SeatClient(b.ws_url, code, tokens[2]) as watcher:
            await watcher.wait_type("welcome")
            r = await http_a.get(f"/api/rooms/{code}")
            assert r.json()["seats"][2]["connected"]
        r = await http_b.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
        assert r.status_code == 200
        urls = {0: a.ws_url, 1: a.ws_url, 2: b.ws_url}
        clients, spectator, rounds = await play_lockstep(urls, code, tokens, seed=5, change_picks=True)
        config, log, _ = await finished_log(http_b, code)
    truth = Truth(config, log, a.services.games.factory)
    check_game(clients, spectator, truth, rounds)


@pytest.mark.postgres
async def test_a_bot_whose_instance_stopped_is_played_by_another(pg_server_url: str, redis_url: str) -> None:
    """A bot's move belongs to the instance that stored the step asking for it. That instance stops
    during the bot's pause: the other one, which holds the game, sees no step come and plays the
    bot itself once its takeover time has passed (the pause and the hard bot's budget, plus 5 s)."""
    async with two_instances(pg_server_url, redis_url, "t", bot_delay_ms=1500, bot_hard_budget_ms=100) as (
        a,
        b,
        http_a,
        http_b,
    ):
        assert b.services.games.bot_takeover == pytest.approx(6.6)
        code, token = await create_room(http_a, game="duel", bots=[{"kind": "greedy"}], seed=3)
        assert (await http_a.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
        state = (await http_b.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()  # B holds it too
        assert state["to_act"] == [0]
        await pick_on(http_a, code, token)  # seat 1's bot is A's to play, after its pause
        a.stop()

        async def bot_moved() -> list[dict[str, Any]]:
            steps = (await http_b.get(f"/api/rooms/{code}/game/history")).json()["steps"]
            return [s for s in steps if s["seat"] == 1]

        moved = await until(bot_moved, within=30)
        assert [(s["seq"], s["by_timeout"]) for s in moved[:1]] == [(1, False)]
        state = (await http_b.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
        assert state["version"] >= 2 and not state.get("over")


async def kill_subscription(redis_url: str, instance_id: str) -> None:
    """Make Redis drop this instance's pub/sub connection (as a network cut or a Redis restart would)."""
    admin = aioredis.from_url(redis_url, decode_responses=True)
    try:
        clients = await admin.client_list(_type="pubsub")
        ids = [c["id"] for c in clients if c["name"] == f"wonders-broadcast-{instance_id}"]
        assert ids, clients
        for client_id in ids:
            await admin.client_kill_filter(_id=client_id)
    finally:
        await admin.aclose()


async def pick_on(http: httpx.AsyncClient, code: str, token: str) -> None:
    state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
    body = {"action": state["legal_actions"][0], "version": state["version"]}
    assert (await http.post(f"/api/rooms/{code}/game/actions", headers=bearer(token), json=body)).status_code == 200


def saw_pick(client: SeatClient, seat: int) -> bool:
    return any(m["type"] == "chosen" and m["seat"] == seat for m in client.messages)


async def test_notices_redis_lost_are_made_up_for(pg_server_url: str, redis_url: str) -> None:
    """Pub/sub delivers at most once. A publish that fails is tried again; notices published while an
    instance had no subscription are made up for when it subscribes again: its connections hear of
    the other instance's pick, and a socket whose seat a rejoin link moved meanwhile loses it."""
    async with two_instances(pg_server_url, redis_url, "lost") as (a, b, http_a, http_b):
        code, tokens = await full_room(http_a, 3, seed=606)
        async with SeatClient(a.ws_url, code, tokens[0]) as seat0, SeatClient(a.ws_url, code, tokens[2]) as seat2:
            await seat0.wait_type("state")
            await seat2.wait_type("state")
            redis_b = b.services.broadcaster.redis  # type: ignore[attr-defined]
            publish, refused = redis_b.publish, []

            async def flaky(channel: str, payload: str) -> int:
                if len(refused) < 2:  # B's first two tries fail, whatever they carry
                    refused.append(payload)
                    raise ConnectionError("Redis is unreachable")
                return await publish(channel, payload)

            redis_b.publish = flaky
            await pick_on(http_b, code, tokens[1])
            await seat0.wait_for(lambda m: m["type"] == "chosen" and m["seat"] == 1)
            assert refused  # the pick's notice met the failure (how it reached A: tried again, or A's rereads)

            async def lost(*args: object) -> int:
                return 0  # Redis took it, nobody subscribed got it: A's subscription is down

            redis_b.publish = lost
            await pick_on(http_b, code, tokens[2])
            link = (await http_b.post(f"/api/rooms/{code}/seats/2/rejoin-link", headers=bearer(tokens[0]))).json()
            assert (await http_b.post(f"/api/rooms/{code}/rejoin", json={"token": link["token"]})).status_code == 200
            await asyncio.sleep(0.5)
            assert not saw_pick(seat0, 2) and seat2.closed is None  # the notices are lost
            redis_b.publish = publish
            await kill_subscription(redis_url, a.settings.instance_id)
            await seat0.wait_for(lambda m: m["type"] == "chosen" and m["seat"] == 2)
            await seat2.wait_for(lambda m: m["type"] == "error" and m["code"] == "seat_lost")
            heard = [m["seat"] for m in seat0.messages if m["type"] == "chosen"]
            assert heard.count(1) == 1 and heard.count(2) == 1  # each pick told once: nothing lost or doubled


UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


async def test_presence_counts_alone_while_redis_is_unreachable_then_writes_back(
    redis_url: str, redis_prefix: str
) -> None:
    class QuickPresence(RedisPresence):
        TTL = 1  # a heartbeat every third of a second

    here = QuickPresence(redis_url, "here-" + secrets.token_hex(3), prefix=redis_prefix)
    there = RedisPresence(redis_url, "there", prefix=redis_prefix)
    await here.start()
    code = "P" + secrets.token_hex(3)
    try:
        await here.join(code, 0)
        assert await there.counts(code) == {"0": 1}
        reachable, here.redis = here.redis, aioredis.from_url(UNREACHABLE)
        await here.join(code, 1)  # no error: the connection opens
        await here.leave(code, 0)
        assert await here.counts(code) == {"1": 1}  # what it counts itself
        assert await there.counts(code) == {"0": 1}  # Redis missed the changes
        here.redis = reachable
        for _ in range(100):
            if await there.counts(code) == {"1": 1}:
                break
            await asyncio.sleep(0.05)
        assert await there.counts(code) == {"1": 1}  # written back by the heartbeat
    finally:
        await here.stop()
        await there.redis.aclose()


async def test_the_room_quota_counts_alone_while_redis_is_unreachable(redis_url: str, redis_prefix: str) -> None:
    quota = RedisQuota(2, 3600, UNREACHABLE, "rooms", prefix=redis_prefix)
    try:
        assert await quota.take("10.0.0.1") is None
        assert await quota.take("10.0.0.1") is None
        wait = await quota.take("10.0.0.1")
        assert wait is not None and 3590 < wait <= 3600
        assert await quota.take("10.0.0.2") is None
    finally:
        await quota.stop()


async def test_a_redis_outage_in_the_middle_of_a_game(
    pg_server_url: str, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis cut off from the instance for a while: picks are still accepted and shown, rooms read,
    created and joined, websockets opened; afterwards the game plays to its end; no error logged."""
    _clear_postgres(pg_server_url)
    proxy = TcpProxy(REDIS_PORT)
    proxy.start()
    redis_through_proxy = f"redis://127.0.0.1:{proxy.port}/0"
    settings = make_settings(
        pg_server_url, redis_url=redis_through_proxy, instance_id="cut-" + secrets.token_hex(2), rooms_per_address=50
    )
    server = LiveServer(settings)
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            code, tokens = await full_room(http, 3, seed=707)
            async with SeatClient(server.ws_url, code, tokens[0]) as seat0:
                await seat0.wait_type("state")
                proxy.cut()
                for _ in range(3):  # turns
                    for token in tokens.values():
                        await pick_on(http, code, token)
                await seat0.state_at_least(9)
                room = await http.get(f"/api/rooms/{code}")
                assert room.status_code == 200 and room.json()["seats"][0]["connected"]
                other, _ = await create_room(http, "Zed", players=3)
                assert (await http.post(f"/api/rooms/{other}/join", json={"name": "Yan"})).status_code == 201
                async with SeatClient(server.ws_url, code, tokens[1]) as seat1:
                    assert (await seat1.wait_type("state"))["version"] >= 9
                proxy.restore()
                for _ in range(200):  # the rest of the game
                    states = [await http.get(f"/api/rooms/{code}/game", headers=bearer(t)) for t in tokens.values()]
                    if states[0].json()["status"] == "finished":
                        break
                    for token, state in zip(tokens.values(), states, strict=True):
                        if state.json()["legal_actions"]:
                            await pick_on(http, code, token)
                assert states[0].json()["status"] == "finished"
                await seat0.wait_for(lambda m: m["type"] == "state" and m["status"] == "finished")
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    finally:
        server.stop()
        proxy.stop()


async def test_an_instance_whose_catch_up_failed_catches_up_again(pg_server_url: str, redis_url: str) -> None:
    """Instance A hears of B's pick but cannot read it (the database away for a moment): it reads it
    again a little later, and its connections see the pick (they once waited for the next notice)."""
    async with two_instances(pg_server_url, redis_url, "cu") as (a, _, http_a, http_b):
        code, tokens = await full_room(http_a, 3, seed=607)
        async with SeatClient(a.ws_url, code, tokens[0]) as seat0:
            await seat0.wait_type("state")
            store = a.services.games.store
            steps_since, failed = store.steps_since, []

            async def once_down(*args: object) -> list:
                if not failed:
                    failed.append(True)
                    raise StorageDown("connection refused")
                return await steps_since(*args)

            store.steps_since = once_down
            await pick_on(http_b, code, tokens[1])
            await seat0.wait_for(lambda m: m["type"] == "chosen" and m["seat"] == 1)
            assert failed


async def test_an_instance_whose_redis_does_not_answer_says_so_at_start(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path}/wonders.db", redis_url="redis://:hunter2@127.0.0.1:1/0")
    with pytest.raises(RuntimeError) as failed:
        await Services.start(settings, migrate=False)  # the database untouched: only Redis is in question
    message = str(failed.value)
    assert "REDIS_URL is set, but the Redis at 127.0.0.1:1 does not answer" in message and "hunter2" not in message
