"""Notifications (app/rooms/notices.py, outbox.py, channels.py): channels set per seat and per room,
shown masked, bad ones refused naming the field; every owed turn told once, reminders once, the end
with its result, through a local webhook and a local SMTP server; never a secret; a flood merged;
the stop link; across a restart and two instances."""

import asyncio
import base64
import json
import os
import random
import re
import threading
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import httpx
import pytest
import time_machine
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from app.db.outbox_storage import ROOM_CHANNEL
from app.rooms.context import Services
from app.rooms.room_base import SeatAuth
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import bearer, error_of, full_room, until
from tests.server.receivers import Webhook, receivers

NOTIFY = {"notify_allow_private": True, "notify_poll_seconds": 0.05, "public_url": "http://wonders.test"}


def notify_url(code: str, seat: int | None = None) -> str:
    return f"/api/rooms/{code}/notify" if seat is None else f"/api/rooms/{code}/seats/{seat}/notify"


async def test_channels_are_kept_secret_and_bad_ones_refused_naming_the_field(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, smtp_host="", notify_poll_seconds=0)) as client:
        code, tokens = await full_room(client, 3, start=False)
        secret = "discord://1234567890/s3cr3t-w3bh00k-t0k3n"
        r = await client.put(notify_url(code, 1), json={"urls": [secret], "when": "always"}, headers=bearer(tokens[1]))
        assert r.status_code == 200, r.text
        assert r.json() == {"urls": ["discord://1234567890/***"], "push": False, "when": "always"}
        got = await client.get(notify_url(code, 1), headers=bearer(tokens[1]))
        assert got.json()["urls"] == ["discord://1234567890/***"] and "s3cr3t" not in got.text
        room = await client.get(f"/api/rooms/{code}", headers=bearer(tokens[0]))
        assert "s3cr3t" not in room.text and "discord" not in room.text

        cases: list[tuple[dict[str, Any], int, str, str]] = [
            ({"urls": ["foo://bar"]}, 422, "bad_channel", "urls[0]"),
            ({"urls": ["mailto://a:b@example.com", "windows://"]}, 422, "bad_channel", "urls[1]"),
            ({"urls": ["json://127.0.0.1:9/hook"]}, 422, "private_address", "urls[0]"),
            ({"urls": ["json://10.1.2.3/hook"]}, 422, "private_address", "urls[0]"),
            ({"urls": ["ntfys://localhost/topic"]}, 422, "private_address", "urls[0]"),
            ({"urls": ["ann@example.com"]}, 422, "bad_channel", "urls[0]"),  # this server has no SMTP
            ({"urls": [f"ntfy://topic{n}" for n in range(6)]}, 422, "invalid_request", "urls"),
            ({"urls": [""]}, 422, "invalid_request", "urls"),
            ({"urls": ["ntfy://topic"], "when": "sometimes"}, 422, "invalid_request", "when"),
            (
                {"urls": ["ntfy://topic"], "push": {"endpoint": "https://push.example.com/x", "keys": {}}},
                422,
                "invalid_request",
                "push",
            ),
        ]
        for body, status, wanted, field in cases:
            r = await client.put(notify_url(code, 1), json=body, headers=bearer(tokens[1]))
            assert r.status_code == status and error_of(r) == wanted, (body, r.text)
            assert field in r.text, (body, r.text)
        assert (await client.get(notify_url(code, 1), headers=bearer(tokens[1]))).json()["urls"] == [
            "discord://1234567890/***"
        ]  # nothing changed by a refusal

        r = await client.put(notify_url(code, 2), json={"urls": ["ntfy://topic"]}, headers=bearer(tokens[1]))
        assert r.status_code == 403 and error_of(r) == "not_your_seat"
        r = await client.get(notify_url(code, 1), headers=bearer(tokens[2]))
        assert r.status_code == 403 and error_of(r) == "not_your_seat"
        r = await client.put(notify_url(code), json={"urls": ["ntfy://topic"]}, headers=bearer(tokens[1]))
        assert r.status_code == 403 and error_of(r) == "not_host"
        r = await client.put(notify_url(code, 1), json={"urls": ["ntfy://topic"]})
        assert r.status_code == 401
        r = await client.put(notify_url(code), json={"urls": ["ntfys://ntfy.sh/friends"]}, headers=bearer(tokens[0]))
        assert r.status_code == 200 and r.json()["urls"] == ["ntfys://ntfy.sh/***"]
        r = await client.delete(notify_url(code, 1), headers=bearer(tokens[1]))
        assert r.status_code == 200 and r.json()["urls"] == []
        assert (await client.get(notify_url(code, 1), headers=bearer(tokens[1]))).json()["urls"] == []


async def start_with_channels(
    client: httpx.AsyncClient, urls: dict[int | None, list[str]], *, when: str = "always", **settings: Any
) -> tuple[str, dict[int, str]]:
    code, tokens = await full_room(client, 3, start=False, seed=4, **settings)
    for seat, seat_urls in urls.items():
        token = tokens[0] if seat is None else tokens[seat]
        r = await client.put(notify_url(code, seat), json={"urls": seat_urls, "when": when}, headers=bearer(token))
        assert r.status_code == 200, r.text
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


async def play_turn(client: httpx.AsyncClient, code: str, tokens: dict[int, str], rng: random.Random) -> list[str]:
    """Every seat that owes a decision makes one (REST); the hands they saw (their cards' names)."""
    hands: list[str] = []
    for token in tokens.values():
        state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
        hands += state["view"].get("hand", [])
        if state["legal_actions"]:
            body = {"action": rng.choice(state["legal_actions"]), "version": state["version"]}
            r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))
            assert r.status_code == 200, r.text
    return hands


async def test_each_owed_turn_is_told_once_and_the_end_with_its_result(sqlite_url: str) -> None:
    hook = Webhook()
    try:
        async with app_client(make_settings(sqlite_url, **NOTIFY)) as client:
            code, tokens = await start_with_channels(client, {1: [hook.url], None: [hook.url + "/room"]})
            rng = random.Random(2)
            seen: list[str] = []
            for turn in range(3):
                await until(lambda turn=turn: sum("your move" in r.body for r in hook.got) >= turn + 1, within=10)
                seen += await play_turn(client, code, tokens, rng)
            await until(lambda: sum("your move" in r.body for r in hook.got) >= 4, within=10)
            await asyncio.sleep(0.3)  # a few more polls: nothing sent twice
            seat_told = [r for r in hook.got if "your move" in r.body]
            group = [r for r in hook.got if " to move in room" in r.body]
            assert [r.body.splitlines()[0] for r in seat_told] == [
                f"It is your move in room {code} (7 Wonders, Age I, turn {t})." for t in (1, 2, 3, 4)
            ]
            assert [r.body.splitlines()[0] for r in group] == [
                f"P0, P1 and P2 to move in room {code} (7 Wonders, Age I, turn {t})." for t in (1, 2, 3, 4)
            ]
            for r in hook.got:
                assert f"Open the table: http://wonders.test/room.html?code={code}" in r.body
                assert "Stop these messages: http://wonders.test/notify/stop/" in r.body
                assert r.headers["X-Idempotency-Key"]
            keys = [r.headers["X-Idempotency-Key"] for r in hook.got]
            assert len(keys) == len(set(keys))
            assert_no_secret(hook.got, seen, tokens)
    finally:
        hook.close()


def assert_no_secret(got: list[Any], cards: list[str], tokens: dict[int, str]) -> None:
    """No message carries a card of any hand seen during the game, or a seat token."""
    for message in got:
        text = f"{message.title}\n{message.body}"
        for card in set(cards):
            assert card not in text, (card, text)
        for token in tokens.values():
            assert token not in text


DAY = 24 * 3600


async def friends_room(
    services: Services, urls: dict[int, list[str]], *, when: str = "always", **settings: Any
) -> tuple[str, int, dict[int, SeatAuth]]:
    """Ann, Bo and Cy at a classic table with these channels, started: (code, game id, each seat's auth)."""
    joined = await services.rooms.create({"players": 3, "seed": 11, **settings}, "Ann")
    code = joined.room["code"]
    auths = {0: await services.rooms.authenticate(code, joined.token)}
    for name in ("Bo", "Cy"):
        seat = await services.rooms.join(code, name)
        auths[seat.seat] = await services.rooms.authenticate(code, seat.token)
    for seat, seat_urls in urls.items():
        auth = auths[0] if seat == ROOM_CHANNEL else auths[seat]
        await services.rooms.set_notify(auth, seat, seat_urls, None, when)
    await services.rooms.start(auths[0])
    game_id, _ = await services.rooms.current_game(code)
    return code, game_id, auths


def hands_now(services: Services, game_id: int) -> list[str]:
    """Every card in any hand, and every pending pick, now (what no message may carry)."""
    rt = services.games.runtimes[game_id]
    out = []
    for seat in range(3):
        view = rt.frame.view(seat)
        out += view.get("hand", [])
        if view.get("pick"):
            out.append(str(view["pick"].get("card", "")))
    return [c for c in out if c]


async def decide(services: Services, game_id: int, seats: list[int], rng: random.Random) -> list[str]:
    rt = await services.games.runtime(game_id)
    seen = hands_now(services, game_id)
    for seat in seats:
        rt = await services.games.runtime(game_id)
        if seat in rt.frame.to_act:
            await services.games.submit(game_id, seat, rng.choice(rt.frame.legal(seat)), rt.version)
            seen += hands_now(services, game_id)
    return seen


def told(got: list[Any], who: str, what: str) -> list[str]:
    return [r.body.splitlines()[0] for r in got if who in (r.to or [""])[0] and what in r.body]


async def test_a_turn_based_game_over_simulated_days(sqlite_url: str) -> None:
    """Three friends, a day for each decision. Ann is told by e-mail (the server's SMTP), Bo and Cy
    by webhook. Ann and Bo move at once; Cy is reminded once when 6 hours are left, then the bot
    decides for Cy at the deadline; the server restarts; the rest of the game is played, each turn
    told once to each, and the end told with its result. No message carries a card of a hand."""
    start = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    with receivers() as (hook, box), time_machine.travel(start, tick=True) as clock:
        settings = make_settings(
            sqlite_url,
            smtp_host="127.0.0.1",
            smtp_port=box.port,
            smtp_security="none",
            smtp_from="wonders@wonders.test",
            game_idle_seconds=0,
            wake_poll_seconds=0.05,
            **NOTIFY,
        )
        services = await Services.start(settings)
        rng = random.Random(3)
        try:
            clock_setting = {"clock": {"mode": "turn", "seconds": DAY}, "timeouts_before_bot": 3}
            urls = {0: ["ann@example.com"], 1: [hook.url + "/bo"], 2: [hook.url + "/cy"]}
            code, game_id, _ = await friends_room(services, urls, **clock_setting)
            await until(lambda: len(box.got) == 1 and len(hook.got) == 2, within=10)
            assert box.got[0].to == ["ann@example.com"] and box.got[0].title == f"Your move in room {code}"
            assert box.got[0].body.startswith(
                f"It is your move in room {code} (7 Wonders, Age I, turn 1). Decide by Tue 02 Mar 09:00 UTC."
            )
            seen = await decide(services, game_id, [0, 1], rng)
            assert await services.games.put_away(services.games.runtimes[game_id])
            clock.shift(timedelta(hours=17))
            await asyncio.sleep(0.3)
            assert not [r for r in hook.got if "reminder" in r.body]  # not yet: 7 h are left
            clock.shift(timedelta(hours=2))  # 5 h left: a quarter of the day is past
            await until(lambda: told(hook.got, "/cy", "A reminder"), within=10)
            await asyncio.sleep(0.3)
            assert len(told(hook.got, "/cy", "A reminder")) == 1
            assert not told(hook.got, "/bo", "A reminder") and not [m for m in box.got if "reminder" in m.body]
            clock.shift(timedelta(hours=6))  # past Cy's deadline: the bot decides, and turn 2 begins
            await until(
                lambda: len(told(hook.got, "/cy", "turn 2")) == 1 and len(told(hook.got, "/bo", "turn 2")) == 1,
                within=10,
            )
            await until(lambda: len([m for m in box.got if "turn 2" in m.body]) == 1, within=10)
        finally:
            await services.stop()
        services = await Services.start(settings, migrate=False)  # a restart
        try:
            turn = 2
            while True:
                rt = await services.games.runtime(game_id)
                if rt.over:
                    break
                seen += await decide(services, game_id, [0, 1, 2], rng)
                rt = await services.games.runtime(game_id)
                if rt.over:
                    break
                view = rt.frame.view(None)
                turn += 1
                label = f"Age {['', 'I', 'II', 'III'][view['age']]}, turn {view['turn']}"
                await until(
                    lambda label=label: all(len(told(hook.got, w, label)) == 1 for w in ("/cy", "/bo")), within=10
                )
                await until(lambda label=label: len([m for m in box.got if label in m.body]) == 1, within=10)
            await until(lambda: len([r for r in [*hook.got, *box.got] if "is over" in r.body]) == 3, within=10)
        finally:
            await services.stop()
        result = rt.frame.result()
        ends = [r for r in [*hook.got, *box.got] if "is over" in r.body]
        names = ["Ann", "Bo", "Cy"]
        winners = " and ".join(names[w] for w in result["winners"])
        for end in ends:
            assert f"The game in room {code} is over. {winners} won" in end.body
            for score in result["scores"]:
                assert f"{names[score['seat']]} {score['total']}" in end.body
        turns = [r for r in [*hook.got, *box.got] if "It is your move" in r.body]
        assert len(turns) == 3 * 18  # each of the 18 turns told once to each of the three
        assert len({(tuple(r.to), r.body.splitlines()[0]) for r in turns}) == len(turns)
        assert_no_secret([*hook.got, *box.got], seen, {})


async def test_a_flood_to_one_channel_is_merged_beyond_its_hourly_limit(sqlite_url: str) -> None:
    """The room's group channel may get two messages an hour here: the third and fourth turns wait,
    and an hour later go as one message with both."""
    start = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    with receivers() as (hook, _), time_machine.travel(start, tick=True) as clock:
        settings = make_settings(sqlite_url, notify_room_per_hour=2, **NOTIFY)
        services = await Services.start(settings)
        try:
            code, game_id, _ = await friends_room(services, {ROOM_CHANNEL: [hook.url]})
            rng = random.Random(5)
            for turn in range(1, 4):
                if turn <= 2:
                    await until(lambda turn=turn: len(hook.got) == turn, within=10)
                await decide(services, game_id, [0, 1, 2], rng)
            await asyncio.sleep(0.5)
            assert [r.body.splitlines()[0] for r in hook.got] == [
                f"Ann, Bo and Cy to move in room {code} (7 Wonders, Age I, turn {t})." for t in (1, 2)
            ]
            clock.shift(timedelta(minutes=61))
            await until(lambda: len(hook.got) == 3, within=10)
            merged = hook.got[2]
            assert merged.title == f"2 updates from room {code}"
            assert merged.body.splitlines()[:2] == [
                f"- Ann, Bo and Cy to move in room {code} (7 Wonders, Age I, turn {t})." for t in (3, 4)
            ]
            await asyncio.sleep(0.3)
            assert len(hook.got) == 3
        finally:
            await services.stop()


async def test_away_seats_are_told_only_while_not_at_the_table(sqlite_url: str) -> None:
    """By default a seat is told only while it has no open connection to the room."""
    with receivers() as (hook, _):
        services = await Services.start(make_settings(sqlite_url, **NOTIFY))
        try:
            code, game_id, _ = await friends_room(services, {1: [hook.url]}, when="away")
            await until(lambda: len(hook.got) == 1, within=10)
            await services.presence.join(code, 1)  # Bo opens the table
            rng = random.Random(1)
            await decide(services, game_id, [0, 1, 2], rng)
            await asyncio.sleep(0.5)
            assert len(hook.got) == 1
            await services.presence.leave(code, 1)
            await decide(services, game_id, [0, 1, 2], rng)
            await until(lambda: len(hook.got) == 2, within=10)
            assert "turn 3" in hook.got[1].body
        finally:
            await services.stop()


async def test_what_is_written_before_a_restart_is_sent_after_it_once(sqlite_url: str) -> None:
    """An instance that sends nothing (NOTIFY_POLL_SECONDS=0) stores the notifications of a turn and
    stops; the next one sends each of them, once."""
    with receivers() as (hook, _):
        quiet = await Services.start(make_settings(sqlite_url, **{**NOTIFY, "notify_poll_seconds": 0}))
        try:
            _, game_id, _ = await friends_room(services=quiet, urls={0: [hook.url], 2: [hook.url]})
            await decide(quiet, game_id, [0, 1, 2], random.Random(1))
        finally:
            await quiet.stop()
        assert hook.got == []
        services = await Services.start(make_settings(sqlite_url, **NOTIFY), migrate=False)
        try:
            await until(lambda: len(hook.got) == 2, within=10)  # turn 1 is overtaken: they moved; turn 2
            await asyncio.sleep(0.5)
            assert sorted(r.headers["X-Idempotency-Key"] for r in hook.got) == ["turn:g1:s0:t1-2", "turn:g1:s2:t1-2"]
        finally:
            await services.stop()


async def test_the_stop_link_stops_the_messages(sqlite_url: str) -> None:
    hook = Webhook()
    try:
        async with app_client(make_settings(sqlite_url, **NOTIFY)) as client:
            code, tokens = await start_with_channels(client, {1: [hook.url]})
            await until(lambda: len(hook.got) == 1, within=10)
            link = hook.got[0].body.splitlines()[-1].removeprefix("Stop these messages: http://wonders.test")
            page = await client.get(link)
            assert page.status_code == 200 and "Stop these messages" in page.text and "<form" in page.text
            assert (await client.get(notify_url(code, 1), headers=bearer(tokens[1]))).json()[
                "urls"
            ]  # a GET stops nothing
            done = await client.post(link)
            assert done.status_code == 200 and f"no longer get these messages for room {code}" in done.text
            assert (await client.get(notify_url(code, 1), headers=bearer(tokens[1]))).json()["urls"] == []
            again = await client.post(link)
            assert again.status_code == 404
            await play_turn(client, code, tokens, random.Random(1))
            await asyncio.sleep(0.5)
            assert len(hook.got) == 1
    finally:
        hook.close()


@pytest.mark.postgres
async def test_two_instances_send_each_notification_once(pg_server_url: str, redis_url: str) -> None:
    """Two instances share PostgreSQL and Redis, both sending: every notification of a game played on
    both arrives exactly once."""
    from tests.server.conftest import _clear_postgres

    _clear_postgres(pg_server_url)
    with receivers() as (hook, _):
        settings = {**NOTIFY, "notify_poll_seconds": 0.01, "redis_url": redis_url}
        a = await Services.start(make_settings(pg_server_url, instance_id="notify-a", **settings))
        b = await Services.start(make_settings(pg_server_url, instance_id="notify-b", **settings), migrate=False)
        try:
            _, game_id, _ = await friends_room(a, {0: [hook.url], 1: [hook.url], ROOM_CHANNEL: [hook.url]})
            rng = random.Random(8)
            for turn in range(2, 8):
                await until(lambda turn=turn: len(hook.got) >= 3 * (turn - 1), within=10)
                await decide(a if turn % 2 else b, game_id, [0, 1, 2], rng)
            await until(lambda: len(hook.got) >= 3 * 7, within=10)
            await asyncio.sleep(0.5)
            keys = [r.headers["X-Idempotency-Key"] for r in hook.got]
            assert len(keys) == 3 * 7 and len(set(keys)) == len(keys)
        finally:
            await b.stop()
            await a.stop()


async def test_web_push_reaches_a_browser_subscription(sqlite_url: str) -> None:
    """With VAPID keys, a seat's push subscription gets its turn: a signed (VAPID), encrypted
    (aes128gcm) message that its keys decrypt to the title, the words and the room's link. (The push
    service here is a local receiver; a browser's is always https, as the API requires.)"""

    vapid = Vapid()
    vapid.generate_keys()
    private_pem = vapid.private_pem().decode()
    public = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    browser_key = ec.generate_private_key(ec.SECP256R1())
    browser_public = browser_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    secret = os.urandom(16)

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    pushed: list[tuple[dict[str, str], bytes]] = []

    class PushService(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            pushed.append((dict(self.headers), self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(201)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), PushService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    subscription = {
        "endpoint": f"http://127.0.0.1:{server.server_port}/push/abc",
        "keys": {"p256dh": b64(browser_public), "auth": b64(secret)},
    }
    settings = make_settings(
        sqlite_url,
        vapid_private_key=private_pem,
        vapid_public_key=b64(public),
        vapid_subject="mailto:t@example.org",
        **NOTIFY,
    )
    try:
        async with app_client(settings) as client:
            assert (await client.get("/api/notify/push-key")).json() == {"public_key": b64(public)}
            code, tokens = await full_room(client, 3, start=False, seed=4)
            r = await client.put(
                notify_url(code, 1), json={"push": {**subscription, "endpoint": "http://x"}}, headers=bearer(tokens[1])
            )
            assert r.status_code == 422 and "push" in r.text  # https only
            services = client.app.state.services  # type: ignore[attr-defined]
            auth = await services.rooms.authenticate(code, tokens[1])
            await services.rooms.set_notify(auth, 1, [], subscription, "always")  # (past the https check)
            assert (await client.get(notify_url(code, 1), headers=bearer(tokens[1]))).json()["push"] is True
            r = await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
            assert r.status_code == 200
            await until(lambda: pushed, within=10)
        headers, body = pushed[0]
        headers = {k.lower(): v for k, v in headers.items()}
        assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid t=")
        message = json.loads(http_ece.decrypt(body, private_key=browser_key, auth_secret=secret, version="aes128gcm"))
        assert message["title"] == f"Your move in room {code}"
        assert message["body"].startswith(f"It is your move in room {code} (7 Wonders, Age I, turn 1).")
        assert message["url"] == f"/room.html?code={code}"
    finally:
        server.shutdown()
        server.server_close()


async def test_a_failing_channel_is_retried_with_backoff_and_its_url_never_logged(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A webhook that answers 500: the message waits (30 s, then longer), is sent once it answers,
    and neither the log nor /metrics ever shows the channel's URL (only its scheme)."""
    start = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    hook = Webhook(status=500)
    secret_url = hook.url + "/t0ps3cr3t"
    try:
        with time_machine.travel(start, tick=True) as clock:
            async with app_client(make_settings(sqlite_url, **NOTIFY)) as client:
                code, tokens = await start_with_channels(client, {1: [secret_url]})
                services = client.app.state.services  # type: ignore[attr-defined]

                (rt,) = services.games.runtimes.values()

                async def attempts() -> int:
                    return (await services.store.outbox(rt.room_id))[0]["attempts"]

                await until(attempts, within=10)  # one failed try
                await asyncio.sleep(0.3)
                assert await attempts() == 1 and hook.got == []  # not tried again at once
                hook.status = 200
                clock.shift(timedelta(seconds=40))  # past the first backoff (30 s, give or take a fifth)
                await until(lambda: hook.got, within=10)
                await asyncio.sleep(0.3)
                assert len(hook.got) == 1 and hook.got[0].body.startswith(f"It is your move in room {code}")
                metrics = (await client.get("/metrics")).text
                assert re.search(r'wonders_notifications_total\{outcome="sent",scheme="json"\} [1-9]', metrics)
                assert "t0ps3cr3t" not in metrics and "127.0.0.1" not in metrics
                r = await client.get(notify_url(code, 1), headers=bearer(tokens[1]))
                assert "t0ps3cr3t" not in r.text
    finally:
        hook.close()
    logged = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
    assert "was not delivered: json: the service did not accept it" in logged
    assert "t0ps3cr3t" not in logged and "/hook" not in logged
