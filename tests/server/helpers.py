"""Client helpers for the server tests: REST shortcuts and a websocket seat client."""

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
import websockets


async def until(predicate: Any, within: float = 20.0, every: float = 0.02) -> Any:
    """Wait for `predicate()` (plain or async) to return something true, and return it; fail after
    `within` seconds. Tests wait for what they need this way rather than sleep and hope."""
    deadline = time.monotonic() + within
    while True:
        got = predicate()
        if asyncio.iscoroutine(got):
            got = await got
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {within:g} s: {getattr(predicate, '__name__', predicate)}")
        await asyncio.sleep(every)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create_room(client: httpx.AsyncClient, name: str = "Ada", **settings: Any) -> tuple[str, str]:
    r = await client.post("/api/rooms", json={"name": name, **settings})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


async def join(client: httpx.AsyncClient, code: str, name: str, seat: int | None = None) -> tuple[int, str]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    r = await client.post(f"/api/rooms/{code}/join", json=body)
    assert r.status_code == 201, r.text
    return r.json()["seat"], r.json()["token"]


async def full_room(
    client: httpx.AsyncClient, players: int = 3, *, start: bool = True, bots: int = 0, **settings: Any
) -> tuple[str, dict[int, str]]:
    """A room with `players` seats: people in the first seats, `bots` bots in the last ones. {seat: token}."""
    code, host = await create_room(
        client,
        "P0",
        players=players,
        bots=[{"kind": "random", "seat": players - 1 - i} for i in range(bots)],
        **settings,
    )
    tokens = {0: host}
    for i in range(1, players - bots):
        seat, token = await join(client, code, f"P{i}")
        tokens[seat] = token
    if start:
        r = await client.post(f"/api/rooms/{code}/start", headers=bearer(host))
        assert r.status_code == 200, r.text
    return code, tokens


def error_of(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"], body
    return body["error"]["code"]


class SeatClient:
    """A websocket connection that records every message it receives."""

    def __init__(self, ws_url: str, code: str, token: str | None, *, header: bool = True) -> None:
        self.url = f"{ws_url}/ws/rooms/{code}"
        self.token = token
        self.header = header
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.received = asyncio.Event()
        self.closed: websockets.ConnectionClosed | None = None
        self.seat: int | None = None

    async def __aenter__(self) -> "SeatClient":
        headers = {"Authorization": f"Bearer {self.token}"} if self.token and self.header else None
        self.ws = await websockets.connect(self.url, additional_headers=headers, max_size=2**24)
        self._reader = asyncio.create_task(self._read())
        if not self.header or self.token is None:
            await self.send({"type": "hello", "token": self.token})
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                message = json.loads(text)
                message["_t"] = time.monotonic()
                self.raw.append(text)
                self.messages.append(message)
                if message["type"] == "welcome":
                    self.seat = message["seat"]
                self.received.set()
        except websockets.ConnectionClosed as exc:
            self.closed = exc
            self.received.set()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def wait_for(self, predicate: Any, within: float = 20.0, start: int = 0) -> dict[str, Any]:
        """The first message from index `start` on for which predicate(message) holds."""
        deadline = time.monotonic() + within
        index = start
        while True:
            while index < len(self.messages):
                message = self.messages[index]
                index += 1
                if predicate(message):
                    return message
            if self.closed is not None:
                raise AssertionError(f"connection closed ({self.closed}) while waiting; got {self.types()}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting; got {self.types()[-15:]}")
            self.received.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.received.wait(), remaining)

    async def wait_type(self, kind: str, within: float = 20.0, start: int = 0, **fields: Any) -> dict[str, Any]:
        return await self.wait_for(
            lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items()), within, start
        )

    def types(self) -> list[str]:
        return [m["type"] for m in self.messages]

    def latest_state(self) -> dict[str, Any] | None:
        return next((m for m in reversed(self.messages) if m["type"] == "state"), None)

    async def state_at_least(self, version: int, within: float = 20.0) -> dict[str, Any]:
        return await self.wait_for(lambda m: m["type"] == "state" and m["version"] >= version, within)


OUTDATED = ("stale", "not_your_turn", "duplicate", "game_over")


async def play_reactive(
    clients: dict[int, "SeatClient"], rng: Any, within: float = 120.0, choose: Any = None
) -> dict[str, Any]:
    """Each seat answers every state that asks it to act with a random legal action (or
    `choose(rng, state)`), until the game ends."""

    async def seat_loop(seat: int, client: SeatClient) -> dict[str, Any]:
        acted: set[int] = set()
        index = 0
        while True:
            message = await client.wait_for(lambda m: m["type"] == "state", within=within, start=index)
            index = client.messages.index(message) + 1
            if message["status"] == "finished":
                return message
            if message is not client.latest_state():
                continue  # a newer state is already here
            if seat in message["to_act"] and message["version"] not in acted:
                acted.add(message["version"])
                action = rng.choice(message["legal_actions"]) if choose is None else choose(rng, message)
                start = len(client.messages)
                await client.send({"type": "action", "action": action, "version": message["version"]})
                reply = await client.wait_for(lambda m: m["type"] in ("accepted", "error"), within=within, start=start)
                # answers to a state that was already outdated when the action arrived: "duplicate" is the
                # precise form of "stale" for a resent identical action, "game_over" when it had ended
                assert reply["type"] == "accepted" or reply["code"] in OUTDATED, reply

    finals = await asyncio.gather(*(seat_loop(s, c) for s, c in clients.items()))
    return finals[0]
