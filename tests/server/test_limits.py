"""What clients send has limits the schema states, and a value past one is refused with a 4xx that
names the field and the limit: integers in paths, queries and bodies (the OpenAPI document gives
every one a minimum and a maximum, every string a length), body size, JSON depth; the keep-alive
connection survives each refusal. And the per-address room limit, the security headers and CORS."""

import asyncio
from typing import Any

import httpx
import pytest

from app.api.security import CONTENT_SECURITY_POLICY
from tests.server.conftest import app_client, live_sqlite_server, make_settings
from tests.server.helpers import SeatClient, bearer, create_room, error_of, full_room
from tests.server.live import LiveServer

HUGE = [2**63, -(2**63) - 1, 2**64, 10**30]


def request_schemas(openapi: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every (where, schema) a client fills in: each path and query parameter, and each property of a
    request body's model and of the models it holds, followed through $refs, unions and arrays."""
    components = openapi["components"]["schemas"]
    found: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()

    def walk(where: str, schema: dict[str, Any]) -> None:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[1]
            if name not in seen:
                seen.add(name)
                walk(name, components[name])
            return
        for key in ("anyOf", "oneOf", "allOf"):
            for option in schema.get(key, ()):
                walk(where, option)
        if "items" in schema:
            walk(f"{where}[]", schema["items"])
        if isinstance(schema.get("additionalProperties"), dict):
            walk(f"{where}{{}}", schema["additionalProperties"])
        for name, prop in schema.get("properties", {}).items():
            walk(f"{where}.{name}", prop)
        if schema.get("type") in ("integer", "string") and "const" not in schema and "enum" not in schema:
            found.append((where, schema))

    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", ()):
                walk(f"{method.upper()} {path} {parameter['in']}.{parameter['name']}", parameter["schema"])
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body:
                walk(f"{method.upper()} {path} body", body["schema"])
    return found


async def test_every_integer_and_string_a_client_sends_has_stated_limits(sqlite_client: httpx.AsyncClient) -> None:
    openapi = (await sqlite_client.get("/openapi.json")).json()
    fields = request_schemas(openapi)
    integers = [(w, s) for w, s in fields if s["type"] == "integer"]
    strings = [(w, s) for w, s in fields if s["type"] == "string"]
    assert len(integers) > 20 and len(strings) > 10  # the walk reaches the bodies, the actions included
    for where, schema in integers:
        assert "minimum" in schema and "maximum" in schema, where
        assert -(2**53) < schema["minimum"] <= schema["maximum"] < 2**53, where  # exact as a double, and in a column
    for where, schema in strings:
        assert "maxLength" in schema, where
    assert any("ChooseStarter.seat" in w for w, _ in integers)
    assert any(w.endswith("path.seat") for w, _ in integers)


@pytest.mark.parametrize("value", HUGE)
async def test_huge_integers_get_a_4xx_naming_the_field(client: httpx.AsyncClient, value: int) -> None:
    code, tokens = await full_room(client, 3, seed=1)
    host = bearer(tokens[0])
    base = f"/api/rooms/{code}"
    requests = [
        ("GET", f"{base}/game?game={value}", None, None, "game"),
        ("GET", f"{base}/game/history?game={value}", None, None, "game"),
        ("GET", f"{base}/game/result?game={value}", None, None, "game"),
        ("GET", f"{base}/game/history?at={value}", None, None, "at"),
        ("GET", f"{base}/game/history?seat={value}", None, None, "seat"),
        ("DELETE", f"{base}/seats/{value}", None, host, "seat"),
        ("POST", f"{base}/seats/{value}/bot", {}, host, "seat"),
        ("POST", f"{base}/seats/{value}/rejoin-link", None, host, "seat"),
        ("POST", f"{base}/join", {"name": "Zed", "seat": value}, None, "seat"),
        ("POST", f"{base}/bots", {"seat": value}, host, "seat"),
        ("POST", f"{base}/game/actions", {"action": {"type": "pass"}, "version": value}, host, "version"),
        (
            "POST",
            f"{base}/game/actions",
            {"action": {"type": "wonder", "card": "Baths", "stage": value}, "version": 0},
            host,
            "stage",
        ),
        ("POST", "/api/rooms", {"name": "Ada", "players": value}, None, "players"),
        ("POST", "/api/rooms", {"name": "Ada", "seed": value}, None, "seed"),
        ("POST", "/api/rooms", {"name": "Ada", "seat": value}, None, "seat"),
        ("POST", "/api/rooms", {"name": "Ada", "timeouts_before_bot": value}, None, "timeouts_before_bot"),
    ]
    for method, url, body, headers, field in requests:
        r = await client.request(method, url, json=body, headers=headers)
        assert r.status_code == 422, (method, url, body, r.text)
        message = r.json()["error"]["message"]
        assert field in message and ("less than or equal" in message or "greater than or equal" in message), message
    assert (await client.get(f"{base}/game")).json()["version"] == 0  # nothing changed
    assert error_of(await client.delete(f"{base}/seats/7", headers=host)) == "seat_free"  # in range: the room says
    r = await client.post(f"{base}/join", json={"name": "Zed", "seat": 7})
    assert r.status_code == 422 and error_of(r) == "bad_seat"  # out of the body's range: the room's code for it


async def test_an_action_id_holds_no_control_character(client: httpx.AsyncClient) -> None:
    """PostgreSQL's text cannot hold NUL: such an id reached the log writer, failed its whole batch
    (other games' actions with it) and answered 503. Now the edge refuses it, on either database."""
    code, tokens = await full_room(client, 3, seed=3)
    host = bearer(tokens[0])
    state = (await client.get(f"/api/rooms/{code}/game", headers=host)).json()
    action = state["legal_actions"][0]
    for action_id in ("a\u0000b", "\u0000", "tab\there", "bell\u0007", "del\u007f"):
        body = {"action": action, "version": 0, "action_id": action_id}
        r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=host)
        assert r.status_code == 422 and "action_id" in r.json()["error"]["message"], r.text
    assert (await client.get(f"/api/rooms/{code}/game", headers=host)).json()["version"] == 0
    body = {"action": action, "version": 0, "action_id": "Ada's pick, turn 1 \u00e9"}
    r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=host)
    assert r.status_code == 200, r.text


async def test_refusals_keep_the_connection_open(live_server: LiveServer) -> None:
    """On a real server, one keep-alive connection carries every refused request and then a good one."""
    async with httpx.AsyncClient(base_url=live_server.url, limits=httpx.Limits(max_connections=1)) as http:
        code, tokens = await full_room(http, 3, seed=2)
        ports = set()
        for url in (
            f"/api/rooms/{code}/game?game={2**63}",
            f"/api/rooms/{code}/game/history?game={-(2**63) - 1}",
            f"/api/rooms/{code}/game/result?game={2**63}",
            f"/api/rooms/{code}/game/history?seat={2**63}",
        ):
            r = await http.get(url)
            assert r.status_code == 422, r.text
            ports.add(r.extensions["network_stream"].get_extra_info("client_addr")[1])
        r = await http.delete(f"/api/rooms/{code}/seats/{2**63}", headers=bearer(tokens[0]))
        assert r.status_code == 422
        for kind in ([], {"a": 1}):  # a type no game's tag can be (it was a TypeError, a 500 and a reset)
            body = {"action": {"type": kind}, "version": 0}
            r = await http.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(tokens[0]))
            assert r.status_code == 422 and error_of(r) == "illegal_action", r.text
        deep = b"[" * 5000
        r = await http.post(f"/api/rooms/{code}/join", content=deep, headers={"content-type": "application/json"})
        assert r.status_code == 400 and error_of(r) == "too_deep"
        r = await http.get(f"/api/rooms/{code}")
        assert r.status_code == 200
        ports.add(r.extensions["network_stream"].get_extra_info("client_addr")[1])
        assert len(ports) == 1  # the same connection throughout


async def test_an_idle_connection_outlives_the_clients_pool(live_server: LiveServer) -> None:
    """An idle keep-alive connection is kept past the 5 s that pools such as httpx's keep one: the
    client closes it first. A server that closes first (uvicorn's own default is 5 s) races the
    client's next request on it, which then meets a reset connection (seen as httpx.ReadError on a
    busy server, as 502s behind a proxy)."""
    assert live_server.settings.http_keep_alive_seconds > 60  # longer than nginx's upstream pool (60 s)
    limits = httpx.Limits(max_connections=1, keepalive_expiry=30)
    async with httpx.AsyncClient(base_url=live_server.url, limits=limits) as http:
        ports = set()
        for pause in (0, 6):
            await asyncio.sleep(pause)
            r = await http.get("/healthz")
            assert r.status_code == 200
            ports.add(r.extensions["network_stream"].get_extra_info("client_addr")[1])
        assert len(ports) == 1  # the same connection, still open after 6 s idle


async def test_body_size_and_json_depth(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, max_body_bytes=2048, max_json_depth=8)) as client:
        code, _ = await create_room(client)
        JSON = {"content-type": "application/json"}

        def nested(depth: int) -> bytes:
            return b'{"name": "Bob", "x": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"

        r = await client.post(f"/api/rooms/{code}/join", content=nested(9), headers=JSON)
        assert r.status_code == 400 and error_of(r) == "too_deep"
        assert "8 levels" in r.json()["error"]["message"] and r.json()["error"]["details"] == {"limit": 8}
        r = await client.post(f"/api/rooms/{code}/join", content=nested(8), headers=JSON)
        assert r.status_code == 422 and error_of(r) == "invalid_request"  # deep enough to parse: 'x' is unknown
        for size in (2049, 100_000):
            body = b'{"name": "' + b"x" * (size - 12) + b'"}'
            assert len(body) == size
            r = await client.post(f"/api/rooms/{code}/join", content=body, headers={"content-type": "application/json"})
            assert r.status_code == 413 and error_of(r) == "too_large", r.text
            assert r.json()["error"]["details"] == {"limit": 2048, "size": size}
            assert "2048 bytes" in r.json()["error"]["message"]
        fits = b'{"name": "Bob", "seat": 1' + b" " * (2048 - 26) + b"}"
        assert len(fits) == 2048
        r = await client.post(f"/api/rooms/{code}/join", content=fits, headers={"content-type": "application/json"})
        assert r.status_code == 201, r.text
        r = await client.post(f"/api/rooms/{code}/join", json={"name": "x" * 65})
        assert r.status_code == 422 and "at most 64 characters" in r.json()["error"]["message"]
        r = await client.post(f"/api/rooms/{code}/rejoin", json={"token": "t" * 129})
        assert r.status_code == 422 and "token" in r.json()["error"]["message"]


async def test_action_shapes_are_checked_before_the_engine(sqlite_client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(sqlite_client, 3, seed=3)
    url, headers = f"/api/rooms/{code}/game/actions", bearer(tokens[0])
    cases = [
        ({"type": "fly"}, "'type' must be an action type: build, wonder"),
        ({"type": "build", "card": "Baths", "cost": {"bank": "2"}}, "action.cost.bank: Input should be a valid int"),
        ({"type": "build", "card": "Baths", "trade": {"left": {"gold": 1}}}, "action.trade.left.gold"),
        ({"type": "build", "card": "Baths", "naval": 1}, "action.naval: Input should be a valid boolean"),
        ({"type": "discard", "card": "Baths", "reward": "gold"}, "action.reward"),
        ({"type": "choose_starter", "seat": True}, "action.seat: Input should be a valid integer"),
        ({"type": "build", "card": "B" * 65}, "action.card: String should have at most 64 characters"),
    ]
    for action, words in cases:
        r = await sqlite_client.post(url, json={"action": action, "version": 0}, headers=headers)
        assert r.status_code == 422 and error_of(r) == "illegal_action", r.text
        assert words in r.json()["error"]["message"], r.json()
    r = await sqlite_client.post(url, json={"action": "discard", "version": 0}, headers=headers)
    assert r.status_code == 422 and error_of(r) == "invalid_request"
    assert (await sqlite_client.get(f"/api/rooms/{code}/game")).json()["version"] == 0


async def test_room_creation_is_limited_per_address(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, rooms_per_address=2, max_rooms=100)) as client:
        for _ in range(2):
            await create_room(client)
        r = await client.post("/api/rooms", json={"name": "Ada"})
        assert r.status_code == 429 and error_of(r) == "too_many_rooms", r.text
        assert r.json()["error"]["details"]["limit"] == 2 and "ROOMS_PER_ADDRESS" in r.json()["error"]["message"]
        elsewhere = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=client.app, client=("192.0.2.7", 5000)),  # type: ignore[attr-defined]
            base_url="http://test",
        )
        async with elsewhere:
            await create_room(elsewhere)  # another address has its own count
        r = await client.post("/api/rooms", json={"name": "Ada", "players": 99})
        assert r.status_code == 422  # a refused body costs no room


@pytest.mark.parametrize("path", ["/", "/room.html", "/static/js/ui.js", "/api/catalog", "/api/rooms/NOPE123"])
async def test_security_headers(sqlite_client: httpx.AsyncClient, path: str) -> None:
    r = await sqlite_client.get(path, headers={"Origin": "https://elsewhere.example"})
    assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY and "script-src 'self';" in CONTENT_SECURITY_POLICY
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert "access-control-allow-origin" not in r.headers


async def test_docs_keep_their_own_policy(sqlite_client: httpx.AsyncClient) -> None:
    r = await sqlite_client.get("/docs")
    assert r.headers["content-security-policy"].startswith("default-src 'self' 'unsafe-inline'")
    assert r.headers["x-frame-options"] == "DENY"


async def test_cors_only_for_the_origins_a_setting_allows(sqlite_url: str) -> None:
    preflight = {"Origin": "https://friends.example", "Access-Control-Request-Method": "POST"}
    async with app_client(make_settings(sqlite_url)) as client:
        r = await client.options("/api/rooms", headers=preflight)
        assert "access-control-allow-origin" not in r.headers
    async with app_client(make_settings(sqlite_url, cors_origins=["https://friends.example"])) as client:
        r = await client.options("/api/rooms", headers=preflight)
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://friends.example"
        r = await client.get("/api/catalog", headers={"Origin": "https://friends.example"})
        assert r.headers["access-control-allow-origin"] == "https://friends.example"
        r = await client.options("/api/rooms", headers={**preflight, "Origin": "https://other.example"})
        assert r.headers.get("access-control-allow-origin") != "https://other.example"


async def test_half_a_surrogate_pair_is_no_text(sqlite_client: httpx.AsyncClient) -> None:
    """`"\\ud800"` is valid JSON but no Unicode text: refused before any database sees it."""
    for body in (b'{"name": "\\ud800"}', b'{"name": "Ada\\uDFFF"}'):
        r = await sqlite_client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and error_of(r) == "bad_encoding", r.text
    r = await sqlite_client.post(
        "/api/rooms", content=b'{"name": "Ada \\ud83d\\ude00"}', headers={"content-type": "application/json"}
    )  # a whole pair: an emoji
    assert r.status_code == 201 and r.json()["room"]["seats"][0]["name"] == "Ada \U0001f600", r.text


async def test_a_server_failure_has_the_security_headers_too(sqlite_url: str) -> None:
    """A 500 is answered outside the middlewares (by Starlette's error handler): it still says them."""

    def failing_factory(config: Any) -> Any:
        raise RuntimeError("the engine failed")

    async with app_client(make_settings(sqlite_url), factory=failing_factory) as client:
        failing = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=client.app, raise_app_exceptions=False),  # type: ignore[attr-defined]
            base_url="http://test",
        )
        async with failing:
            r = await failing.post("/api/rooms", json={"name": "Ada", "players": 3})  # sets up a game
        assert r.status_code == 500 and error_of(r) == "internal"
        assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY" and r.headers["referrer-policy"] == "no-referrer"


@pytest.fixture(scope="module")
def quick_request_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A server that gives a request one second to arrive."""
    with live_sqlite_server(tmp_path_factory, "request", http_request_timeout_seconds=1.0) as server:
        yield server


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closed the connection within `seconds` (nothing else arrives first)."""
    try:
        return await asyncio.wait_for(reader.read(1), seconds) == b""
    except TimeoutError:
        return False


async def trickle_until_closed(port: int, start: bytes) -> None:
    """Send `start`, then a byte every 0.3 s until the server closes the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(start)
    trickled = 0
    while not await closed_within(reader, 0.3):
        writer.write(b"X")
        await writer.drain()
        trickled += 1
        assert trickled < 20, f"a trickling request was never cut: {start!r}"
    writer.close()


async def test_a_connection_must_send_its_request_in_time(quick_request_server: LiveServer) -> None:
    """A connection that sends nothing, or trickles its headers or its body a byte at a time, is
    closed once its request is late (uvicorn alone kept all three open for good: one file descriptor
    each); a prompt request, a keep-alive wait and a websocket are not cut."""
    port = quick_request_server.port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    assert await closed_within(reader, 5)  # silent
    writer.close()
    await trickle_until_closed(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 60000\r\n\r\n"
    await trickle_until_closed(port, head + b'{"name": "')

    limits = httpx.Limits(max_connections=1, keepalive_expiry=30)
    async with httpx.AsyncClient(base_url=quick_request_server.url, limits=limits) as http:
        ports = set()
        for pause in (0, 1.5):  # longer than the head's second: the keep-alive wait is not a late head
            await asyncio.sleep(pause)
            r = await http.get("/healthz")
            assert r.status_code == 200
            ports.add(r.extensions["network_stream"].get_extra_info("client_addr")[1])
        assert len(ports) == 1
        code, _ = await create_room(http)
    async with SeatClient(quick_request_server.ws_url, code, None) as watcher:
        await watcher.wait_type("welcome")
        await asyncio.sleep(1.5)
        await watcher.send({"type": "ping", "data": "still here"})
        await watcher.wait_type("pong", data="still here")
