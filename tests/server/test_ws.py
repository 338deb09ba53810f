"""The websocket protocol against a real uvicorn: connecting, notices, and bad input of every kind.
After an ordinary error the connection stays usable (checked with a ping each time)."""

import asyncio
import json
import random
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets

from app.api.ws_messages import server_message
from tests.server.helpers import SeatClient, bearer, full_room, join, until
from tests.server.live import LiveServer


@pytest.fixture
async def http(live_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        yield client


async def still_usable(client: SeatClient, tag: str) -> None:
    await client.send({"type": "ping", "data": tag})
    await client.wait_type("pong", data=tag)


def assert_valid(messages: list[dict]) -> None:
    """Every message the server sent is one of the protocol's models."""
    for message in messages:
        server_message.validate_python({k: v for k, v in message.items() if k != "_t"})


async def test_seat_connects_and_gets_room_and_view(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=1)
    async with SeatClient(live_server.ws_url, code, tokens[1]) as seat:
        welcome = await seat.wait_type("welcome")
        assert welcome["seat"] == 1 and welcome["room"]["code"] == code
        assert welcome["limits"]["max_message_bytes"] == 65536
        state = await seat.wait_type("state")
        assert state["seat"] == 1 and state["version"] == 0 and len(state["view"]["hand"]) == 7
        assert state["legal_actions"] and state["to_act"] == [0, 1, 2]
        assert welcome["room"]["seats"][1]["connected"] and not welcome["room"]["seats"][0]["connected"]
        assert_valid(seat.messages)


async def test_hello_authenticates_and_spectators_watch(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=2)
    async with (
        SeatClient(live_server.ws_url, code, tokens[2], header=False) as seat,
        SeatClient(live_server.ws_url, code, None) as spectator,
    ):
        assert (await seat.wait_type("welcome"))["seat"] == 2
        assert (await spectator.wait_type("welcome"))["seat"] is None
        view = await spectator.wait_type("state")
        assert view["legal_actions"] is None and view["view"]["hand"] == []
        await spectator.wait_for(lambda m: m["type"] in ("welcome", "room") and m["room"]["spectators"] == 1)
        await spectator.send({"type": "action", "action": {"type": "discard", "card": "Baths"}, "version": 0})
        error = await spectator.wait_type("error")
        assert error["code"] == "spectator"
        await still_usable(spectator, "s")
        await seat.send({"type": "hello", "token": tokens[2]})
        assert (await seat.wait_type("error"))["code"] == "already_authenticated"


async def test_messages_before_hello(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=3)
    async with websockets.connect(f"{live_server.ws_url}/ws/rooms/{code}") as ws:
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["code"] == "hello_first"
        await ws.send("{oops")
        assert json.loads(await ws.recv())["code"] == "bad_json"
        await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        assert json.loads(await ws.recv())["type"] == "welcome"


@pytest.mark.parametrize("how", ["header", "hello"])
async def test_wrong_token_is_refused(live_server: LiveServer, http: httpx.AsyncClient, how: str) -> None:
    code, _ = await full_room(http, 3, seed=4)
    headers = bearer("not-a-token") if how == "header" else None
    async with websockets.connect(f"{live_server.ws_url}/ws/rooms/{code}", additional_headers=headers) as ws:
        if how == "hello":
            await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        error = json.loads(await ws.recv())
        assert error == {
            "type": "error",
            "code": "bad_token",
            "message": error["message"],
            "details": None,
            "action_id": None,
        }
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == 4401


async def test_unknown_room_is_refused(live_server: LiveServer) -> None:
    async with websockets.connect(f"{live_server.ws_url}/ws/rooms/NOPE234") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        assert json.loads(await ws.recv())["code"] == "room_not_found"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == 4404


async def test_bad_messages_get_clear_errors(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=5)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as seat:
        state = await seat.wait_type("state")
        hand = state["view"]["hand"]
        cases = [
            ("{not json", "bad_json"),
            ('{"type": "ping", "data": NaN}', "bad_json"),  # Python reads NaN and Infinity; JSON has neither
            ('{"type": "ping", "data": -Infinity}', "bad_json"),
            ('{"type": "ping", "data": ' + "9" * 5000 + "}", "bad_json"),  # more digits than Python reads
            ("[1, 2]", "bad_message"),
            (json.dumps({"type": "dance"}), "unknown_type"),
            (json.dumps({"kind": "action"}), "unknown_type"),
            (json.dumps({"type": "action", "action": {"type": "discard", "card": hand[0]}}), "bad_message"),
            (json.dumps({"type": "action", "action": "discard", "version": 0}), "bad_message"),
            (json.dumps({"type": "action", "action": {}, "version": -1}), "bad_message"),
            (
                json.dumps({"type": "action", "seat": 2, "action": {"type": "discard", "card": hand[0]}, "version": 0}),
                "bad_message",
            ),
            (
                json.dumps({"type": "action", "action": {"type": "build", "card": "Atlantis"}, "version": 0}),
                "illegal_action",
            ),
            (
                json.dumps({"type": "action", "action": {"type": "discard", "card": hand[0]}, "version": 5}),
                "bad_version",
            ),
        ]
        for i, (text, code_) in enumerate(cases):
            start = len(seat.messages)
            await seat.ws.send(text)
            error = await seat.wait_type("error", start=start)
            assert error["code"] == code_, (text, error)
            assert error["message"]
            await still_usable(seat, f"case-{i}")
        unknown = next(m for m in seat.messages if m.get("code") == "unknown_type")
        assert "hello, action, ping, sync" in unknown["message"]
        missing = next(m for m in seat.messages if m.get("code") == "bad_message" and "version" in m["message"])
        assert "Field required" in missing["message"]
        reasons = [m["message"] for m in seat.messages if m.get("code") == "bad_json"]
        assert reasons[1:] == [
            "the message is not valid JSON: NaN is not a JSON value",
            "the message is not valid JSON: -Infinity is not a JSON value",
            "the message is not valid JSON: a number has more than 4300 digits",
        ]
        assert reasons[0].startswith("the message is not valid JSON: Expecting property name")
        # nothing was applied
        r = await http.get(f"/api/rooms/{code}/game")
        assert r.json()["version"] == 0
        assert_valid(seat.messages)


async def test_binary_frames_are_read_as_json(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=6)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as seat:
        await seat.wait_type("state")
        await seat.ws.send(json.dumps({"type": "ping", "data": "b"}).encode())
        await seat.wait_type("pong", data="b")
        await seat.ws.send(b"\xff\xfe")
        assert (await seat.wait_type("error"))["code"] == "bad_encoding"
        await still_usable(seat, "after")


async def test_oversized_messages_are_refused(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=7)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as seat:
        await seat.wait_type("state")
        big = json.dumps({"type": "ping", "data": "x" * (64 * 1024)})
        await seat.ws.send(big)
        error = await seat.wait_type("error")
        assert error["code"] == "too_large" and "65536" in error["message"]
        await seat.ws.send(big.encode())
        await seat.wait_for(lambda m: m["type"] == "error" and m["code"] == "too_large", start=len(seat.messages) - 1)
        await still_usable(seat, "after-big")
        just_fits = json.dumps({"type": "ping", "data": "y" * (64 * 1024 - 40)})
        assert len(just_fits) <= 64 * 1024
        await seat.ws.send(just_fits)
        await seat.wait_for(lambda m: m["type"] == "pong" and m["data"] and m["data"].startswith("y"))


async def test_floods_are_rate_limited(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=8)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as seat:
        await seat.wait_type("state")
        for i in range(200):
            await seat.ws.send(json.dumps({"type": "ping", "data": i}))
        error = await seat.wait_type("error")
        assert error["code"] == "rate_limited"
        await asyncio.sleep(0.3)
        pongs = [m for m in seat.messages if m["type"] == "pong"]
        assert 30 <= len(pongs) < 100  # the burst got through, the rest was dropped
        errors = [m for m in seat.messages if m["type"] == "error"]
        assert len(errors) <= 2  # one notice a second, not one per dropped message
        await asyncio.sleep(1.0)
        await still_usable(seat, "calm")


async def test_versions_duplicates_and_finished_games(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=9, bots=2)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as seat:
        state = await seat.wait_type("state")
        first = state["legal_actions"][0]
        await seat.send({"type": "action", "action": first, "version": state["version"], "action_id": "n1"})
        accepted = await seat.wait_type("accepted")
        assert accepted["action_id"] == "n1" and accepted["seq"] == state["version"]
        start = len(seat.messages)
        await seat.send({"type": "action", "action": first, "version": state["version"], "action_id": "n1"})
        dup = await seat.wait_type("error", start=start)
        assert dup["code"] == "duplicate" and dup["action_id"] == "n1"
        # play the game out with the bots
        while True:
            state = seat.latest_state()
            assert state is not None
            if state["status"] == "finished":
                break
            if 0 in state["to_act"]:
                start = len(seat.messages)
                await seat.send({"type": "action", "action": state["legal_actions"][0], "version": state["version"]})
                await seat.wait_for(lambda m: m["type"] in ("accepted", "error"), start=start)
            await seat.wait_for(lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v)
        over = await seat.wait_type("game_over")
        assert over["result"]["winners"]
        start = len(seat.messages)
        await seat.send({"type": "action", "action": first, "version": state["version"]})
        assert (await seat.wait_type("error", start=start))["code"] == "game_over"
        await still_usable(seat, "end")
        assert_valid(seat.messages)


async def test_out_of_turn_over_websocket(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    """Duel alternates: the seat that is not to act is told so; nothing changes; the socket stays usable."""
    code, tokens = await full_room(http, 2, game="duel", seed=12)
    async with (
        SeatClient(live_server.ws_url, code, tokens[0]) as s0,
        SeatClient(live_server.ws_url, code, tokens[1]) as s1,
    ):
        st0, st1 = await s0.wait_type("state"), await s1.wait_type("state")
        (mover,) = st0["to_act"]
        waiter, moving_state = (s1, st0) if mover == 0 else (s0, st1)
        await waiter.send(
            {"type": "action", "action": moving_state["legal_actions"][0], "version": 0, "action_id": "x"}
        )
        error = await waiter.wait_type("error")
        assert (
            error["code"] == "not_your_turn" and error["details"] == {"to_act": [mover]} and error["action_id"] == "x"
        )
        await still_usable(waiter, "after")
        assert (await http.get(f"/api/rooms/{code}/game")).json()["version"] == 0


async def test_sync_sends_everything_again(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=10)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as seat:
        await seat.wait_type("state")
        start = len(seat.messages)
        await seat.send({"type": "sync"})
        await seat.wait_type("room", start=start)
        await seat.wait_type("state", start=start)


async def test_removed_player_loses_the_connection(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, start=False)
    async with SeatClient(live_server.ws_url, code, tokens[1]) as seat:
        await seat.wait_type("welcome")
        r = await http.delete(f"/api/rooms/{code}/seats/1", headers=bearer(tokens[0]))
        assert r.status_code == 200
        error = await seat.wait_type("error")
        assert error["code"] == "seat_lost"
        for _ in range(100):
            if seat.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert seat.closed is not None and seat.closed.rcvd.code == 4403


async def test_a_rejoin_link_takes_the_seat_from_the_connected_device(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    """The old device's pick, sent as the link is opened, stands; the old device then gets `seat_lost`
    and close 4403 and nothing more, its token is refused; the new device plays the seat."""
    code, tokens = await full_room(http, 3, seed=15)
    async with SeatClient(live_server.ws_url, code, tokens[1]) as old:
        state = await old.wait_type("state")
        link = (await http.post(f"/api/rooms/{code}/seats/1/rejoin-link", headers=bearer(tokens[1]))).json()
        pick = {"type": "action", "action": state["legal_actions"][0], "version": state["version"], "action_id": "p"}
        await old.send(pick)
        await old.wait_type("accepted")
        r = await http.post(f"/api/rooms/{code}/rejoin", json={"token": link["token"]})
        assert r.status_code == 200 and r.json()["seat"] == 1
        lost = await old.wait_for(lambda m: m["type"] == "error" and m["code"] == "seat_lost")
        for _ in range(100):
            if old.closed is not None:
                break
            await asyncio.sleep(0.05)
        assert old.closed is not None and old.closed.rcvd.code == 4403
        assert old.messages[-1] is lost
    assert (await http.get(f"/api/rooms/{code}/game", headers=bearer(tokens[1]))).status_code == 401
    async with SeatClient(live_server.ws_url, code, r.json()["token"]) as new:
        assert (await new.wait_type("welcome"))["seat"] == 1
        view = (await new.wait_type("state"))["view"]
        assert view["players"][1]["has_chosen"] and len(view["hand"]) == 7


async def test_room_notices_reach_connections(live_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, start=False)
    async with SeatClient(live_server.ws_url, code, tokens[0]) as host:
        await host.wait_type("welcome")
        await http.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[2]))
        await host.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][2]["kind"] == "free")
        await http.post(f"/api/rooms/{code}/bots", json={"kind": "greedy"}, headers=bearer(tokens[0]))
        await host.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][2]["kind"] == "bot")
        await http.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
        await host.wait_for(lambda m: m["type"] == "room" and m["room"]["status"] == "playing")
        state = await host.wait_type("state")
        assert state["version"] >= 0 and state["seat"] == 0


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A server with tight limits: one spectator per room, one connection per seat."""
    from tests.server.conftest import make_settings

    db = tmp_path_factory.mktemp("strict") / "wonders.db"
    server = LiveServer(make_settings(f"sqlite:///{db}", max_spectators=1, max_connections_per_seat=1))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def impatient_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A server that gives a connection 0.5 s to say hello."""
    from tests.server.conftest import make_settings

    server = LiveServer(
        make_settings(f"sqlite:///{tmp_path_factory.mktemp('impatient') / 'w.db'}", ws_auth_timeout=0.5)
    )
    server.start()
    yield server
    server.stop()


async def test_hello_timeout(impatient_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=impatient_server.url) as http:
        code, _ = await full_room(http, 3, start=False)
    async with websockets.connect(f"{impatient_server.ws_url}/ws/rooms/{code}") as ws:
        assert json.loads(await ws.recv())["code"] == "hello_timeout"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == 4408


async def test_connection_limits_and_presence(strict_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=strict_server.url) as http:
        code, tokens = await full_room(http, 3, start=False)
        async with SeatClient(strict_server.ws_url, code, None) as watcher:
            await watcher.wait_type("welcome")
            async with websockets.connect(f"{strict_server.ws_url}/ws/rooms/{code}") as ws:
                await ws.send(json.dumps({"type": "hello"}))
                assert json.loads(await ws.recv())["code"] == "room_busy"
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd.code == 4429
            async with SeatClient(strict_server.ws_url, code, tokens[1]) as seat:
                await seat.wait_type("welcome")
                await watcher.wait_for(lambda m: m["type"] == "room" and m["room"]["seats"][1]["connected"])
                assert (await http.get(f"/api/rooms/{code}")).json()["seats"][1]["connected"]
                async with websockets.connect(
                    f"{strict_server.ws_url}/ws/rooms/{code}", additional_headers=bearer(tokens[1])
                ) as second:
                    assert json.loads(await second.recv())["code"] == "too_many_connections"
            await watcher.wait_for(lambda m: m["type"] == "room" and not m["room"]["seats"][1]["connected"])
            assert not (await http.get(f"/api/rooms/{code}")).json()["seats"][1]["connected"]


@pytest.fixture(scope="module")
def three_per_address_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A server where one client address may hold three websocket connections at once. Connections
    that never say hello are closed after 5 s: long enough for the test's silent ones to stay open
    while it works, on a busy machine too."""
    from tests.server.conftest import make_settings

    db = tmp_path_factory.mktemp("per_address") / "wonders.db"
    server = LiveServer(make_settings(f"sqlite:///{db}", ws_connections_per_address=3, ws_auth_timeout=5))
    server.start()
    yield server
    server.stop()


def refused_over_the_address_limit(metrics: str) -> float:
    (line,) = [line for line in metrics.splitlines() if line.startswith("wonders_connections_over_address_limit_total")]
    return float(line.split()[1])


async def refused_as_over_the_address_limit(url: str) -> None:
    async with websockets.connect(url) as ws:
        error = json.loads(await ws.recv())
        assert error["code"] == "too_many_connections"
        assert "maximum of 3 open connections" in error["message"]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd.code == 4429


async def test_one_address_holds_a_bounded_number_of_connections(three_per_address_server: LiveServer) -> None:
    server = three_per_address_server
    async with httpx.AsyncClient(base_url=server.url) as http:
        refused_before = refused_over_the_address_limit((await http.get("/metrics")).text)
        code, tokens = await full_room(http, 3, seed=4)
        url = f"{server.ws_url}/ws/rooms/{code}"
        async with SeatClient(server.ws_url, code, tokens[0]) as seat:
            await seat.wait_type("state")
            # connections that have not said hello count too: they hold the server's descriptors already
            silent = [await websockets.connect(url) for _ in range(2)]
            await refused_as_over_the_address_limit(url)
            await still_usable(seat, "after the refusal")
            await silent[0].close()
            held = server.app.state.connections_per_address.held
            await until(lambda: held("127.0.0.1") <= 2, within=10)  # the server has seen the close
            async with SeatClient(server.ws_url, code, tokens[1]) as second:  # a slot came free
                await second.wait_type("state")
                await refused_as_over_the_address_limit(url)
            for ws in silent[1:]:
                await ws.close()
        # every way a connection ends gives its slot back: a hello timeout, a bad token, a close
        for token in (None, "not-a-token"):
            async with websockets.connect(url) as ws:
                if token is not None:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                await ws.recv()
                with pytest.raises(websockets.ConnectionClosed):
                    await ws.recv()
        await until(lambda: held("127.0.0.1") == 0, within=10)
        async with (
            SeatClient(server.ws_url, code, tokens[0]) as a,
            SeatClient(server.ws_url, code, tokens[1]) as b,
            SeatClient(server.ws_url, code, tokens[2]) as c,
        ):
            for client in (a, b, c):
                await client.wait_type("state")
        assert refused_over_the_address_limit((await http.get("/metrics")).text) == refused_before + 2


async def test_a_seat_taken_after_a_game_ended_watches_that_game(
    live_server: LiveServer, http: httpx.AsyncClient
) -> None:
    """Three played; a friend arrives, the host makes room for four, the friend sits at seat 3: the
    room's latest game has no seat 3. Its state (REST and websocket) is the spectator's view, with
    nothing to decide; it was a 500 on REST and a websocket closed before its welcome's state."""
    code, tokens = await full_room(http, 3, bots=2, seed=11)
    host = bearer(tokens[0])
    rng = random.Random(11)
    while (state := (await http.get(f"/api/rooms/{code}/game", headers=host)).json())["status"] != "finished":
        if state["legal_actions"]:
            body = {"action": rng.choice(state["legal_actions"]), "version": state["version"]}
            await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=host)
        else:
            await asyncio.sleep(0.02)
    assert (await http.patch(f"/api/rooms/{code}", json={"players": 4}, headers=host)).status_code == 200
    seat, token = await join(http, code, "Late")
    assert seat == 3
    r = await http.get(f"/api/rooms/{code}/game", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert r.json()["seat"] is None and r.json()["legal_actions"] is None and r.json()["status"] == "finished"
    assert r.json()["view"]["hand"] == []
    r = await http.get(f"/api/rooms/{code}/game/legal-actions", headers=bearer(token))
    assert r.status_code == 200 and r.json()["legal_actions"] == [] and r.json()["seat"] == 3
    async with SeatClient(live_server.ws_url, code, token) as late:
        assert (await late.wait_type("welcome"))["seat"] == 3
        state = await late.wait_type("state")
        assert state["seat"] is None and state["status"] == "finished" and state["result"] is not None
        await still_usable(late, "after the state")
    # the next game has the new seat
    assert (await http.post(f"/api/rooms/{code}/start", headers=host)).status_code == 200, r.text
    r = await http.get(f"/api/rooms/{code}/game", headers=bearer(token))
    assert r.json()["seat"] == 3 and len(r.json()["view"]["hand"]) == 7
