"""A hostile websocket client in a room where others play, against a real uvicorn: binary frames,
invalid UTF-8, bad JSON, deep nesting, huge and boundary-sized frames, unknown types, wrong types and
ranges, floods past the rate limit. Each message gets its `error` (or its answer) and the connection
stays open, except where the websocket protocol itself ends it (a text frame that is not UTF-8: 1007;
a frame over WS_HARD_MAX_BYTES: 1009). Afterwards the game is exactly as it was, the other clients
saw nothing of it, and everyone, the attacker included, still plays."""

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.server.conftest import live_sqlite_server
from tests.server.helpers import SeatClient, bearer, full_room, until
from tests.server.live import LiveServer

LIMIT = 64 * 1024  # WS_MAX_MESSAGE_BYTES
DEPTH = 32  # MAX_JSON_DEPTH


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Rate limits high enough that a message and its ping never run into them (floods are below)."""
    with live_sqlite_server(tmp_path_factory, "fuzz", ws_rate_per_second=10_000.0, ws_rate_burst=10_000) as server:
        yield server


@pytest.fixture
async def http(fuzz_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=fuzz_server.url, timeout=30) as client:
        yield client


def nested(depth: int, kind: str = "ping") -> str:
    """A message whose JSON nests `depth` levels deep in all (the message object is the first)."""
    inner = "[" * (depth - 1) + "]" * (depth - 1)
    if kind == "ping":
        return '{"type": "ping", "data": ' + inner + "}"
    return '{"type": "action", "version": 0, "action": {"type": "build", "card": "Baths", "x": ' + inner[1:-1] + "}}"


def sized(size: int, char: str = "y") -> str:
    """A ping of exactly `size` bytes of UTF-8, as many of them `char` as fit."""
    head = '{"type": "ping", "data": "'
    room = size - len(head) - 2
    count = room // len(char.encode())
    text = head + char * count + "y" * (room - count * len(char.encode())) + '"}'
    assert len(text.encode()) == size, (len(text.encode()), size)
    return text


# (what is sent, the error code it gets, or None: it is answered, not refused)
HOSTILE: list[tuple[str | bytes, str | None]] = [
    (b'{"type": "ping", "data": "binary"}', None),
    (b"\xff\xfe\xfd", "bad_encoding"),
    (b'{"type": "ping", "data": "\xe2\x82"}', "bad_encoding"),
    (b"\xc0\xaf", "bad_encoding"),
    (b"", "bad_json"),
    ("", "bad_json"),
    ("{", "bad_json"),
    ("nul", "bad_json"),
    ('{"type": "ping"', "bad_json"),
    ('{"type": "ping"}}', "bad_json"),
    ("\x00", "bad_json"),
    ('{"type": "ping", "data": NaN}', "bad_json"),  # Python's JSON reads NaN, JSON has none: refused
    ("[]", "bad_message"),
    ("42", "bad_message"),
    ("null", "bad_message"),
    ('"ping"', "bad_message"),
    (nested(DEPTH), None),
    (nested(DEPTH + 1), "too_deep"),
    (nested(260), "too_deep"),
    (nested(1000), "too_deep"),
    (nested(30_000), "too_deep"),
    (nested(DEPTH + 1, "action"), "too_deep"),
    (nested(1000, "action"), "too_deep"),
    (sized(LIMIT), None),
    (sized(LIMIT + 1), "too_large"),
    (sized(LIMIT + 1).encode(), "too_large"),
    (sized(LIMIT - 1, "é"), None),
    (sized(LIMIT + 2, "é"), "too_large"),
    (sized(512 * 1024), "too_large"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": null}', "unknown_type"),
    ('{"type": 5}', "unknown_type"),
    ('{"type": ["action"]}', "unknown_type"),
    ('{"type": "__proto__"}', "unknown_type"),
    ('{"kind": "action"}', "unknown_type"),
    ('{"type": "action"}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": "0"}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": 1.5}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": true}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": -1}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": 9223372036854775808}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": 0, "action_id": ""}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": 0, "action_id": "' + "a" * 65 + '"}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": 0, "seat": 1}', "bad_message"),
    ('{"type": "action", "action": {"type": "pass"}, "version": 0, "action_id": "a\\u0000b"}', "bad_message"),
    ('{"type": "action", "action": [], "version": 0}', "bad_message"),
    ('{"type": "action", "action": {}, "version": 0}', "illegal_action"),
    ('{"type": "action", "action": {"type": "fly"}, "version": 0}', "illegal_action"),
    ('{"type": "action", "action": {"type": []}, "version": 0}', "illegal_action"),  # no hashable tag
    ('{"type": "action", "action": {"type": {"a": 1}}, "version": 0}', "illegal_action"),
    ('{"type": "action", "action": {"type": "build", "card": 7}, "version": 0}', "illegal_action"),
    ('{"type": "action", "action": {"type": "build", "card": "' + "B" * 65 + '"}, "version": 0}', "illegal_action"),
    (
        '{"type": "action", "action": {"type": "build", "card": "Baths", "cost": {"bank": 1e400}}, "version": 0}',
        "illegal_action",
    ),
    (
        '{"type": "action", "action": {"type": "build", "card": "Baths", "trade": {"left": {"wood": -1}}}, '
        '"version": 0}',
        "illegal_action",
    ),
    (
        '{"type": "action", "action": {"type": "choose_starter", "seat": 99999999999999999999}, "version": 0}',
        "illegal_action",
    ),
    ('{"type": "action", "action": {"type": "pass"}, "version": 0}', "illegal_action"),
    ('{"type": "action", "action": {"type": "build", "card": "Atlantis"}, "version": 0}', "illegal_action"),
    ('{"type": "action", "action": {"type": "discard", "card": "Baths"}, "version": 2147483647}', "bad_version"),
    ('{"type": "hello", "token": "' + "t" * 200 + '"}', "bad_message"),
    ('{"type": "hello", "token": null}', "already_authenticated"),
    ('{"type": "ping", "data": "\\ud800"}', "bad_encoding"),  # half a surrogate pair: valid JSON, no text
    ('{"type": "ping", "data": "\\ud83d\\ude00"}', None),  # a whole pair: one emoji
    ('{"type": "ping", "data": {"__proto__": {"admin": true}}}', None),
    ('{"type": "sync", "extra": 1}', "bad_message"),
]


async def reply_to(client: SeatClient, frame: str | bytes, tag: int) -> dict[str, Any]:
    """Send the frame, then a ping: the frame's own reply (an error, a pong) comes before the pong."""
    start = len(client.messages)
    await client.ws.send(frame)
    await client.send({"type": "ping", "data": f"after-{tag}"})
    await client.wait_type("pong", data=f"after-{tag}", start=start, within=20)
    replies = [m for m in client.messages[start:] if m.get("data") != f"after-{tag}"]
    assert len(replies) == 1, (frame[:80], replies)
    return replies[0]


async def protocol_close(url: str, token: str, frame: str | bytes, *, text: bool | None = None) -> int:
    """The close code the server answers a frame with (on a connection of its own)."""
    ws = await websockets.connect(url, additional_headers=bearer(token), max_size=None)
    try:
        await ws.recv()  # welcome
        await ws.send(frame, text=text)
        async with asyncio.timeout(10):
            while True:
                await ws.recv()
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None
        return closed.rcvd.code
    finally:
        with contextlib.suppress(Exception):
            await ws.close()


async def test_hostile_client_changes_nothing_and_everyone_still_plays(
    fuzz_server: LiveServer, http: httpx.AsyncClient
) -> None:
    code, tokens = await full_room(http, 3, seed=31)
    url = f"{fuzz_server.ws_url}/ws/rooms/{code}"
    async with (
        SeatClient(fuzz_server.ws_url, code, tokens[0]) as attacker,
        SeatClient(fuzz_server.ws_url, code, tokens[1]) as bob,
        SeatClient(fuzz_server.ws_url, code, tokens[2], header=False) as cy,
        SeatClient(fuzz_server.ws_url, code, None) as spectator,
    ):
        for client in (attacker, bob, cy, spectator):
            await client.wait_type("state")
        bob_state = await bob.wait_type("state")
        await bob.send({"type": "action", "action": bob_state["legal_actions"][0], "version": 0})
        await bob.wait_type("accepted")
        for client in (attacker, cy, spectator):
            await client.state_at_least(1)
        before = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
        seen = {name: len(c.messages) for name, c in (("bob", bob), ("cy", cy), ("spectator", spectator))}

        for i, (frame, expected) in enumerate(HOSTILE):
            reply = await reply_to(attacker, frame, i)
            if expected is None:
                assert reply["type"] == "pong", (frame[:80], reply)
            else:
                assert reply["type"] == "error" and reply["code"] == expected, (frame[:80], reply)
                assert reply["message"]
        too_deep = next(m for m in attacker.messages if m.get("code") == "too_deep")
        assert "32 levels" in too_deep["message"] and too_deep["details"] == {"limit": 32}
        too_large = next(m for m in attacker.messages if m.get("code") == "too_large")
        assert "65536 bytes" in too_large["message"] and too_large["details"]["limit"] == LIMIT
        assert attacker.closed is None

        # what the websocket protocol itself refuses ends that connection only
        assert await protocol_close(url, tokens[0], b'{"type": "ping", "data": "\xff"}', text=True) == 1007
        assert await protocol_close(url, tokens[0], sized(1024 * 1024 + 1)) == 1009

        after = (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()
        assert after == before and after["version"] == 1  # Bob's pick only
        for name, client in (("bob", bob), ("cy", cy), ("spectator", spectator)):
            new = client.messages[seen[name] :]
            assert {m["type"] for m in new} <= {"room"}, (name, new)  # the extra connections came and went

        # everyone still plays: the turn ends and is revealed to all
        state = attacker.latest_state()
        assert state is not None
        await attacker.send({"type": "action", "action": state["legal_actions"][0], "version": state["version"]})
        await attacker.wait_type("accepted")
        cy_state = await cy.state_at_least(2)
        await cy.send({"type": "action", "action": cy_state["legal_actions"][0], "version": cy_state["version"]})
        for client in (attacker, bob, cy, spectator):
            reveal = await client.wait_type("reveal")
            assert reveal["version"] == 3
            assert (await client.state_at_least(3))["version"] == 3


async def test_floods_past_the_rate_limit_leave_the_room_playing(
    live_server: LiveServer,
) -> None:
    """With the default limits (30 a second, bursts of 60): 2,000 messages as fast as they go, of
    every kind. The flood is dropped past the burst, the flooder hears so at most once a second, and the
    others play on; the flooder's connection stays and works once it calms down."""
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=32)
        before = (await http.get(f"/api/rooms/{code}/game")).json()
        async with (
            SeatClient(live_server.ws_url, code, tokens[0]) as flooder,
            SeatClient(live_server.ws_url, code, tokens[1]) as bob,
            SeatClient(live_server.ws_url, code, tokens[2]) as cy,
        ):
            for client in (flooder, bob, cy):
                await client.wait_type("state")
            frames = [
                json.dumps({"type": "ping", "data": 1}),
                "{oops",
                b"\xff",
                nested(500),
                json.dumps({"type": "action", "action": {"type": "fly"}, "version": 0}),
                json.dumps({"type": "sync"}),
            ]
            start = len(flooder.messages)
            began = time.monotonic()
            for i in range(2000):
                await flooder.ws.send(frames[i % len(frames)])

            def flood_read() -> bool:  # the server answers what it admits as it reads: then silence
                replies = flooder.messages[start:]
                limited = any(m.get("code") == "rate_limited" for m in replies)
                return limited and time.monotonic() - replies[-1]["_t"] > 1.5

            await until(flood_read, within=60)
            replies = flooder.messages[start:]
            limited = [m for m in replies if m.get("code") == "rate_limited"]
            answered = [m for m in replies if m["type"] in ("pong", "error") and m.get("code") != "rate_limited"]
            took = max(m["_t"] for m in replies) - began
            assert 1 <= len(limited) <= took + 1 and "at most 30 a second" in limited[0]["message"]
            # the burst (less its syncs, answered by a state), and 30 a second while the server read the
            # flood: the rest was dropped, whatever the frames held
            assert 50 <= len(answered) <= 60 + 30 * took + 5 and len(answered) < 1000, (len(answered), took)
            assert (await http.get(f"/api/rooms/{code}/game")).json() == before
            for client in (bob, cy):
                state = client.latest_state()
                assert state is not None
                await client.send({"type": "action", "action": state["legal_actions"][0], "version": state["version"]})
                await client.wait_type("accepted")
            await asyncio.sleep(2.5)  # the bucket refills
            state = await flooder.state_at_least(2)
            await flooder.send({"type": "action", "action": state["legal_actions"][0], "version": state["version"]})
            await flooder.wait_type("accepted")
            for client in (flooder, bob, cy):
                assert (await client.wait_type("reveal"))["version"] == 3
            assert flooder.closed is None
