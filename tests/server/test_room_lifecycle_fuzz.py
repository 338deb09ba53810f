"""Random room lifecycles through a real server on SQLite and on PostgreSQL: several people (and
strangers with made-up or dead tokens) join, leave, change settings, add and remove bots, start,
hand seats to bots and take them back, make and open rejoin links and act, in random order, before
and during games of 7 Wonders, Armada and Duel.

Every answer is a success or a 4xx whose error has a code and a message, never a 5xx; a refused
request changes nothing in the room (its settings, seats, host and game); every game started ends
once the people still seated play it out; and the server logs no error."""

import asyncio
import logging
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import live_postgres_server, live_sqlite_server
from tests.server.helpers import bearer
from tests.server.live import LiveServer

ROOMS = 5  # per database
STEPS = 90  # random requests per room; the free seats are filled and the game started after START_AT
START_AT = 30
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed"]
OPERATIONS = [
    "join", "join", "leave", "settings", "add_bot", "remove_seat", "start", "start", "hand_to_bot",
    "hand_back", "come_back", "rejoin_link", "rejoin", "act", "act", "state",
]  # fmt: skip
SETTINGS_CHANGES: list[dict[str, Any]] = [
    {"players": 3},
    {"players": 5},
    {"players": 9},
    {"game": "duel"},
    {"game": "classic", "players": 4},
    {"expansions": ["armada"]},
    {"expansions": []},
    {"spectators": "none"},
    {"spectators": "after"},
    {"wonder_side": "b"},
]


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    if request.param == "sqlite":
        live = live_sqlite_server(tmp_path_factory, "lifecycle", bot_delay_ms=0)
    else:
        live = live_postgres_server(request.getfixturevalue("pg_server_url"), bot_delay_ms=0)
    with live as server:
        yield server


class Lifecycle:
    """One room driven at random; `tokens` holds every token handed out, dead ones included."""

    def __init__(self, http: httpx.AsyncClient, rng: random.Random) -> None:
        self.http, self.rng = http, rng
        self.code = ""
        self.tokens: dict[str, int] = {}  # every token handed out (dead ones too), to its seat
        self.links: list[str] = []
        self.answers: dict[str, int] = {}

    async def create(self) -> None:
        body: dict[str, Any] = self.rng.choice(
            [{"players": 3}, {"players": 4, "expansions": ["armada"]}, {"game": "duel"}, {"players": 5}]
        )
        if self.rng.random() < 0.5:
            body["bots"] = [{"kind": "random"}]
        r = await self.send("create", "POST", "/api/rooms", None, {"name": "Host", **body})
        assert r.status_code == 201, r.text
        self.code = r.json()["code"]
        self.tokens[r.json()["token"]] = r.json()["seat"]

    async def room(self) -> dict[str, Any]:
        r = await self.http.get(f"/api/rooms/{self.code}")
        assert r.status_code == 200, r.text
        return r.json()

    async def send(
        self, op: str, method: str, path: str, token: str | None, body: dict[str, Any] | None = None
    ) -> httpx.Response:
        headers = bearer(token) if token else {}
        r = await self.http.request(method, path, headers=headers, json=body)
        assert r.status_code < 500, f"{op}: {method} {path} {body} -> {r.status_code} {r.text}"
        if r.status_code >= 400:
            error = r.json()["error"]
            assert error["code"] and error["message"], r.text
        self.answers[f"{op} {r.status_code}"] = self.answers.get(f"{op} {r.status_code}", 0) + 1
        return r

    def someone(self, room: dict[str, Any]) -> str | None:
        """A token: the host's (most often), anyone's (maybe dead), a made-up one, or none."""
        hosts = [token for token, seat in self.tokens.items() if seat == room["host_seat"]]
        if hosts and self.rng.random() < 0.4:
            return hosts[-1]  # the newest: older ones of that seat may have moved to another device
        return self.rng.choice([*self.tokens, None, "made-up-token"])

    async def step(self) -> None:
        """One random request, by someone; a refusal must leave the room as it was."""
        rng, room_path = self.rng, f"/api/rooms/{self.code}"
        room = await self.room()
        op = "act" if room["status"] == "playing" and rng.random() < 0.5 else rng.choice(OPERATIONS)
        token = self.someone(room)
        seat = rng.randrange(0, len(room["seats"]) if rng.random() < 0.8 else 8)  # a seat of the room, or none
        before = snapshot(room)
        if op == "join":
            name = rng.choice(NAMES)
            r = await self.send(op, "POST", f"{room_path}/join", None, {"name": name, "seat": seat})
            if r.status_code == 201:
                self.tokens[r.json()["token"]] = r.json()["seat"]
        elif op == "leave":
            r = await self.send(op, "POST", f"{room_path}/leave", token)
        elif op == "settings":
            r = await self.send(op, "PATCH", room_path, token, rng.choice(SETTINGS_CHANGES))
        elif op == "add_bot":
            r = await self.send(op, "POST", f"{room_path}/bots", token, {"kind": rng.choice(["random", "easy"])})
        elif op == "remove_seat":
            r = await self.send(op, "DELETE", f"{room_path}/seats/{seat}", token)
        elif op == "start":
            r = await self.send(op, "POST", f"{room_path}/start", token)
        elif op == "hand_to_bot":
            r = await self.send(op, "POST", f"{room_path}/seats/{seat}/bot", token, {"kind": "random"})
        elif op == "hand_back":
            r = await self.send(op, "DELETE", f"{room_path}/seats/{seat}/bot", token)
        elif op == "come_back":
            r = await self.send(op, "POST", f"{room_path}/seats/{seat}/back", token)
        elif op == "rejoin_link":
            r = await self.send(op, "POST", f"{room_path}/seats/{seat}/rejoin-link", token)
            if r.status_code == 201:
                self.links.append(r.json()["token"])
        elif op == "rejoin":
            link = rng.choice([*self.links[-1:], *self.links, "no-such-link"])  # the newest most often: it may work
            r = await self.send(op, "POST", f"{room_path}/rejoin", None, {"token": link})
            if r.status_code == 200:
                self.tokens[r.json()["token"]] = r.json()["seat"]
        elif op == "act":
            r = await self.act(token, stale=rng.random() < 0.15)
        else:
            r = await self.send(op, "GET", f"{room_path}/game", token)
        if r.status_code >= 400:
            after = snapshot(await self.room())
            if op == "act":  # a person's late action takes their seat back from its bot (documented)
                forget_bot_plays(before, after)
            assert after == before, f"{op} was refused ({r.text}) but the room changed"

    async def act(self, token: str | None, *, stale: bool = False) -> httpx.Response:
        """One of the token's legal actions (against an old version if stale)."""
        r = await self.send("state", "GET", f"/api/rooms/{self.code}/game", token)
        if r.status_code != 200 or not r.json()["legal_actions"]:
            return r
        state = r.json()
        body = {"action": self.rng.choice(state["legal_actions"]), "version": state["version"] - stale}
        return await self.send("act", "POST", f"/api/rooms/{self.code}/game/actions", token, body)

    async def fill_and_start(self) -> None:
        room = await self.room()
        if room["status"] == "closed":  # everyone left: a new room, to have a game to play
            await self.create()
            room = await self.room()
        if room["status"] != "open":
            return
        for seat in room["seats"]:
            if seat["kind"] == "free":
                name = f"Late {seat['seat']}"
                r = await self.send(
                    "join", "POST", f"/api/rooms/{self.code}/join", None, {"name": name, "seat": seat["seat"]}
                )
                self.tokens[r.json()["token"]] = seat["seat"]
        for token in list(self.tokens):  # whoever is the host now
            if (await self.send("start", "POST", f"/api/rooms/{self.code}/start", token)).status_code == 200:
                return
        raise AssertionError(f"nobody could start room {self.code}: {await self.room()}")

    async def play_out(self) -> None:
        """Everyone with a live token plays until the game ends (bots play the rest)."""
        for _ in range(2_000):
            room = await self.room()
            if room["status"] != "playing":
                return
            moved = [(await self.act(token)).status_code == 200 for token in list(self.tokens)]
            if not any(moved):
                await asyncio.sleep(0.02)  # the bots' turn
        raise AssertionError(f"the game of room {self.code} never ended: {await self.room()}")


def snapshot(room: dict[str, Any]) -> dict[str, Any]:
    """What a refused request must leave as it was (bots may finish the game meanwhile: not the status)."""
    fields = ("seat", "kind", "name", "bot", "host", "bot_plays", "bot_reason")
    return {
        "settings": room["settings"],
        "host_seat": room["host_seat"],
        "seats": [{k: s[k] for k in fields} for s in room["seats"]],
        "game": room["game"] and room["game"]["id"],
    }


def forget_bot_plays(*snapshots: dict[str, Any]) -> None:
    for snap in snapshots:
        for seat in snap["seats"]:
            seat["bot_plays"] = seat["bot_reason"] = None


async def test_random_room_lifecycles_refuse_cleanly_and_games_end(
    server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(11)
    answers: dict[str, int] = {}
    with caplog.at_level(logging.WARNING):
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for _ in range(ROOMS):
                life = Lifecycle(http, rng)
                await life.create()
                for step in range(STEPS):
                    if step == START_AT:
                        await life.fill_and_start()
                    await life.step()
                await life.play_out()
                for key, n in life.answers.items():
                    answers[key] = answers.get(key, 0) + n
    # the random requests reached the rules, not only the token check, and games were played
    for op in set(OPERATIONS):
        assert any(n for key, n in answers.items() if key.startswith(f"{op} ") and key != f"{op} 401"), (op, answers)
    for success in ("join 201", "start 200", "act 200", "leave 200"):
        assert answers.get(success), (success, answers)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
