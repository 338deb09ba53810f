"""Rooms over REST: creating, reading, joining, leaving, the host's powers, tokens and errors.
Every test runs on SQLite and on PostgreSQL."""

import re

import httpx
import pytest
from sqlalchemy import select

from app.db.models import Seat
from app.engine.classic.armada.data import armada_data
from app.settings import Settings
from app.tokens import CODE_ALPHABET, hash_token
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import bearer, create_room, error_of, join


async def test_create_room_answers_a_code_and_a_token(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/rooms", json={"name": "Ada", "game": "classic", "players": 4})
    assert r.status_code == 201
    body = r.json()
    assert len(body["code"]) >= 6 and all(c in CODE_ALPHABET for c in body["code"])
    assert not set("0O1IL") & set(CODE_ALPHABET)
    assert body["seat"] == 0 and len(body["token"]) >= 32
    room = body["room"]
    assert room["status"] == "open" and room["host_seat"] == 0
    assert room["settings"] == {
        "game": "classic",
        "players": 4,
        "expansions": [],
        "wonder_side": "random",
        "wonders": None,
        "seed_fixed": False,
        "notices": [],
        "spectators": "live",
        "clock": {"mode": "off"},
        "pace": "live",
        "timeout_bot": "greedy",
        "timeouts_before_bot": 2,
        "hints": False,
        "lesson": False,
    }
    assert [s["kind"] for s in room["seats"]] == ["human", "free", "free", "free"]
    assert room["seats"][0] == {
        "seat": 0,
        "kind": "human",
        "name": "Ada",
        "bot": None,
        "host": True,
        "connected": False,
        "away": False,
        "away_since": None,
        "bot_plays": None,
        "bot_reason": None,
    }
    assert "token" not in str(room)


async def test_codes_differ_and_lookup_ignores_case(client: httpx.AsyncClient) -> None:
    codes = {(await create_room(client))[0] for _ in range(5)}
    assert len(codes) == 5
    code = codes.pop()
    r = await client.get(f"/api/rooms/{code.lower()}")
    assert r.status_code == 200 and r.json()["code"] == code


async def test_tokens_are_stored_only_as_hashes(client: httpx.AsyncClient) -> None:
    code, token = await create_room(client)
    _, token2 = await join(client, code, "Bob")
    db = client.app.state.services.db  # type: ignore[attr-defined]
    async with db.sessions() as session:
        rows = (await session.execute(select(Seat))).scalars().all()
    stored = {r.token_hash for r in rows}
    assert stored == {hash_token(token), hash_token(token2)}
    for row in rows:
        assert token not in str(vars(row)) and token2 not in str(vars(row))


async def test_bots_take_seats_at_creation(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/api/rooms",
        json={"name": "Ada", "players": 4, "seat": 1, "bots": [{"kind": "greedy", "seat": 3}, {"kind": "random"}]},
    )
    assert r.status_code == 201, r.text
    seats = r.json()["room"]["seats"]
    assert [s["kind"] for s in seats] == ["bot", "human", "free", "bot"]
    assert seats[0]["bot"] == "random" and seats[3]["bot"] == "greedy"
    assert seats[0]["connected"] and r.json()["seat"] == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "Ada", "players": 9}, "bad_settings"),
        ({"name": "Ada", "players": 2}, "bad_settings"),
        ({"name": "Ada", "expansions": ["cities"]}, "bad_settings"),
        ({"name": "Ada", "game": "duel", "expansions": ["armada"]}, "bad_settings"),
        ({"name": "Ada", "players": 3, "wonders": ["Rhodos", "Rhodos", "Gizah"]}, "bad_settings"),
        ({"name": "Ada", "players": 3, "wonders": ["Atlantis", "Rhodos", "Gizah"]}, "bad_settings"),
        ({"name": "Ada", "bots": [{"kind": "oracle"}]}, "bad_bot"),
        ({"name": "Ada", "bots": [{"kind": "random", "seat": 0}]}, "seat_taken"),
        ({"name": "Ada", "bots": [{"kind": "random"}] * 3}, "too_many_bots"),
        ({"name": "   "}, "bad_name"),
        ({"name": "x" * 40}, "bad_name"),
        ({"players": 3}, "invalid_request"),
        ({"name": "Ada", "colour": "red"}, "invalid_request"),
        ({"name": "Ada", "game": "chess"}, "invalid_request"),
    ],
)
async def test_bad_room_settings_are_refused(client: httpx.AsyncClient, body: dict, code: str) -> None:
    r = await client.post("/api/rooms", json=body)
    assert r.status_code == 422, r.text
    assert error_of(r) == code


async def test_wonders_and_sides_can_be_assigned(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/api/rooms",
        json={"name": "Ada", "players": 3, "wonders": ["Rhodos", "Gizah", "Babylon"], "wonder_side": "night"},
    )
    assert r.status_code == 201, r.text
    assert r.json()["room"]["settings"]["wonders"] == ["Rhodos", "Gizah", "Babylon"]


async def test_duel_rooms_have_two_seats(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/rooms", json={"name": "Ada", "game": "duel"})
    assert r.status_code == 201, r.text
    assert r.json()["room"]["settings"]["players"] == 2 and len(r.json()["room"]["seats"]) == 2
    r = await client.post("/api/rooms", json={"name": "Ada", "game": "duel", "players": 3})
    assert r.status_code == 422


async def test_malformed_json_and_unknown_routes(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and error_of(r) == "bad_json"
    assert r.json()["error"]["message"] == (
        "the body is not valid JSON: Expecting property name enclosed in double quotes at character 1"
    )
    long_number = b'{"name": "Ada", "players": ' + b"9" * 5000 + b"}"  # more digits than Python reads
    r = await client.post("/api/rooms", content=long_number, headers={"content-type": "application/json"})
    assert r.status_code == 400 and error_of(r) == "bad_json", r.text
    assert "a number has more than 4300 digits" in r.json()["error"]["message"]
    r = await client.get("/api/nowhere")
    assert r.status_code == 404 and error_of(r) == "not_found"
    r = await client.delete("/api/rooms")
    assert r.status_code == 405 and error_of(r) == "method_not_allowed"


async def test_unknown_room(client: httpx.AsyncClient) -> None:
    for code in ("ZZZZZZZ", "not-a-code", "0000000"):
        r = await client.get(f"/api/rooms/{code}")
        assert r.status_code == 404 and error_of(r) == "room_not_found"
    r = await client.post("/api/rooms/ZZZZZZZ/join", json={"name": "Bob"})
    assert r.status_code == 404


async def test_join_fills_seats_in_order_or_as_asked(client: httpx.AsyncClient) -> None:
    code, _ = await create_room(client, players=4)
    assert (await join(client, code, "Bob", seat=3))[0] == 3
    assert (await join(client, code, "Cy"))[0] == 1
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "Di", "seat": 3})
    assert r.status_code == 409 and error_of(r) == "seat_taken"
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "Di", "seat": 7})
    assert r.status_code == 422 and error_of(r) == "bad_seat"
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "bob"})
    assert r.status_code == 409 and error_of(r) == "name_taken"
    assert (await join(client, code, "Di"))[0] == 2
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "Ed"})
    assert r.status_code == 409 and error_of(r) == "room_full"
    room = (await client.get(f"/api/rooms/{code}")).json()
    assert [s["name"] for s in room["seats"]] == ["Ada", "Cy", "Di", "Bob"]


async def test_names_that_read_alike_are_one_name(client: httpx.AsyncClient) -> None:
    """Nobody sits down as a look-alike of another player: width, case, how an accent is written and
    characters that show nothing do not make another name; a name that shows nothing is refused."""
    code, _ = await create_room(client, "Ada", players=7)
    for alike in ("\uff21\uff24\uff21", "\uff21da", "ADA", "Ada\u034f", "A\u034fda", "Ada\ufe0f"):
        r = await client.post(f"/api/rooms/{code}/join", json={"name": alike})
        assert r.status_code == 409 and error_of(r) == "name_taken", (alike, r.text)
        if alike != "ADA":
            assert "'Ada' reads the same" in r.json()["error"]["message"]
    seat, _ = await join(client, code, "Zo\u0308e")  # o + combining diaeresis: kept as it shows, NFC
    assert (await client.get(f"/api/rooms/{code}")).json()["seats"][seat]["name"] == "Z\u00f6e"
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "Z\u00d6E"})
    assert r.status_code == 409 and error_of(r) == "name_taken"
    for invisible, says in (
        ("\u3164", "shows nothing (U+3164)"),  # a Hangul filler: a name that looks blank
        ("Bob\u115f", "shows nothing (U+115F)"),
        ("\u034f", "at least one character that shows"),
        ("\u200d", "at least one character that shows"),
        ("Bob\u200b", "not U+200B"),
        ("\ufdfa" * 4, "at most 64 characters"),  # each spells out as 18 characters
    ):
        r = await client.post(f"/api/rooms/{code}/join", json={"name": invisible})
        assert r.status_code == 422 and error_of(r) == "bad_name", (invisible, r.text)
        assert says in r.json()["error"]["message"], r.text
    for emoji in ("\U0001f469\u200d\U0001f469\u200d\U0001f467", "\u2764\ufe0f"):  # joiners, a variation selector
        await join(client, code, emoji)
    names = [s["name"] for s in (await client.get(f"/api/rooms/{code}")).json()["seats"]]
    assert names[:4] == ["Ada", "Z\u00f6e", "\U0001f469\u200d\U0001f469\u200d\U0001f467", "\u2764\ufe0f"]


async def test_seat_actions_need_the_right_token(client: httpx.AsyncClient) -> None:
    code, host = await create_room(client)
    _other_code, other_host = await create_room(client)
    r = await client.post(f"/api/rooms/{code}/start")
    assert r.status_code == 401 and error_of(r) == "missing_token"
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer("nonsense"))
    assert r.status_code == 401 and error_of(r) == "bad_token"
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(other_host))
    assert r.status_code == 401 and error_of(r) == "bad_token"
    r = await client.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Basic {host}"})
    assert r.status_code == 401


async def test_only_the_host_changes_the_room(client: httpx.AsyncClient) -> None:
    code, _host = await create_room(client, players=3)
    _, guest = await join(client, code, "Bob")
    for method, path, body in [
        ("PATCH", "", {"players": 4}),
        ("POST", "/bots", {"kind": "random"}),
        ("DELETE", "/seats/0", None),
        ("POST", "/start", None),
    ]:
        r = await client.request(method, f"/api/rooms/{code}{path}", json=body, headers=bearer(guest))
        assert r.status_code == 403 and error_of(r) == "not_host", (method, path)


async def test_host_changes_settings(client: httpx.AsyncClient) -> None:
    code, host = await create_room(client, players=3)
    r = await client.patch(f"/api/rooms/{code}", json={"players": 5, "wonder_side": "day"}, headers=bearer(host))
    assert r.status_code == 200, r.text
    assert r.json()["settings"]["players"] == 5 and len(r.json()["seats"]) == 5
    await join(client, code, "Bob", seat=4)
    r = await client.patch(f"/api/rooms/{code}", json={"players": 3}, headers=bearer(host))
    assert r.status_code == 409 and error_of(r) == "seats_taken"
    r = await client.patch(f"/api/rooms/{code}", json={"players": 8}, headers=bearer(host))
    assert r.status_code == 422 and error_of(r) == "bad_settings"
    assert (await client.get(f"/api/rooms/{code}")).json()["settings"]["players"] == 5


async def test_host_adds_and_removes_bots_and_people(client: httpx.AsyncClient) -> None:
    code, host = await create_room(client, players=4)
    _, guest = await join(client, code, "Bob")
    r = await client.post(f"/api/rooms/{code}/bots", json={"kind": "greedy", "seat": 3}, headers=bearer(host))
    assert r.status_code == 201 and r.json()["seats"][3]["kind"] == "bot"
    r = await client.post(f"/api/rooms/{code}/bots", json={"kind": "greedy", "seat": 3}, headers=bearer(host))
    assert r.status_code == 409 and error_of(r) == "seat_taken"
    r = await client.delete(f"/api/rooms/{code}/seats/3", headers=bearer(host))
    assert r.status_code == 200 and r.json()["seats"][3]["kind"] == "free"
    r = await client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(host))
    assert r.json()["seats"][1]["kind"] == "free"
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(guest))
    assert r.status_code == 401 and error_of(r) == "bad_token"  # the removed person's token is void
    r = await client.delete(f"/api/rooms/{code}/seats/2", headers=bearer(host))
    assert r.status_code == 404 and error_of(r) == "seat_free"
    r = await client.delete(f"/api/rooms/{code}/seats/0", headers=bearer(host))
    assert r.status_code == 422


async def test_leaving_frees_the_seat_and_passes_the_host_on(client: httpx.AsyncClient) -> None:
    code, host = await create_room(client, players=3)
    _, bob = await join(client, code, "Bob")
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(host))
    assert r.status_code == 200
    room = r.json()
    assert room["host_seat"] == 1 and room["seats"][0]["kind"] == "free" and room["status"] == "open"
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(host))
    assert r.status_code == 401
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(bob))
    assert r.json()["status"] == "closed" and r.json()["host_seat"] is None
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert r.status_code == 409 and error_of(r) == "room_closed"


async def test_start_needs_every_seat_and_happens_once(client: httpx.AsyncClient) -> None:
    code, host = await create_room(client, players=3)
    await join(client, code, "Bob")
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(host))
    assert r.status_code == 409 and error_of(r) == "room_not_full"
    assert r.json()["error"]["message"].startswith("seats [2] are free")
    await client.post(f"/api/rooms/{code}/bots", json={"kind": "random"}, headers=bearer(host))
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(host))
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert r.json()["game"]["status"] == "running"
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(host))
    assert r.status_code == 409 and error_of(r) == "game_started"
    r = await client.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert r.status_code == 409 and error_of(r) == "game_started"
    r = await client.patch(f"/api/rooms/{code}", json={"players": 4}, headers=bearer(host))
    assert r.status_code == 409 and error_of(r) == "game_started"


async def test_fixed_seeds_only_when_the_server_allows(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, allow_seed=False)) as c:
        r = await c.post("/api/rooms", json={"name": "Ada", "seed": 42})
        assert r.status_code == 422 and error_of(r) == "seed_not_allowed"
        r = await c.post("/api/rooms", json={"name": "Ada"})
        assert r.status_code == 201 and r.json()["room"]["settings"]["seed_fixed"] is False


async def test_armada_is_off_by_default_and_says_its_values_are_provisional(client: httpx.AsyncClient) -> None:
    # offered (ENABLED_EXPANSIONS), but chosen only when asked for: its values are provisional
    r = await client.post("/api/rooms", json={"name": "Ada", "players": 4})
    assert r.status_code == 201 and r.json()["room"]["settings"]["expansions"] == []
    assert r.json()["room"]["settings"]["notices"] == []
    assert (await client.get("/api/catalog")).json()["expansions"]["armada"]["enabled"] is True
    r = await client.post("/api/rooms", json={"name": "Ada", "players": 4, "expansions": ["armada"]})
    assert r.status_code == 201, r.text
    settings = r.json()["room"]["settings"]
    assert settings["expansions"] == ["armada"]
    assert settings["notices"] == [armada_data().notice] and "provisional" in settings["notices"][0]
    code, token = r.json()["code"], r.json()["token"]
    assert (await client.get(f"/api/rooms/{code}")).json()["settings"]["notices"] == [armada_data().notice]
    # the host turns Armada off, and on again
    r = await client.patch(f"/api/rooms/{code}", json={"expansions": []}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["settings"]["notices"] == []
    r = await client.patch(f"/api/rooms/{code}", json={"expansions": ["armada"]}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["settings"]["notices"] == [armada_data().notice]
    spec = (await client.get("/openapi.json")).json()
    assert "provisional" in spec["components"]["schemas"]["RoomSettingsOut"]["properties"]["notices"]["description"]


async def test_a_server_may_turn_armada_off(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENABLED_EXPANSIONS", "[]")
    assert Settings().enabled_expansions == []
    monkeypatch.delenv("ENABLED_EXPANSIONS")
    assert Settings().enabled_expansions == ["armada"]
    async with app_client(make_settings(sqlite_url, enabled_expansions=[])) as c:
        r = await c.post("/api/rooms", json={"name": "Ada", "expansions": ["armada"]})
        assert r.status_code == 422 and error_of(r) == "expansion_unavailable"
        assert "ENABLED_EXPANSIONS" in r.json()["error"]["message"]
        code, token = await create_room(c)
        r = await c.patch(f"/api/rooms/{code}", json={"expansions": ["armada"]}, headers=bearer(token))
        assert r.status_code == 422 and error_of(r) == "expansion_unavailable"


async def test_room_limit(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, max_rooms=2)) as c:
        await create_room(c)
        await create_room(c)
        r = await c.post("/api/rooms", json={"name": "Ada"})
        assert r.status_code == 429 and error_of(r) == "too_many_rooms"


async def test_healthz_and_docs(client: httpx.AsyncClient) -> None:
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.json()["database"] in ("sqlite", "postgresql")
    assert (await client.get("/docs")).status_code == 200
    spec = (await client.get("/openapi.json")).json()
    paths = set(spec["paths"])
    for path in [
        "/api/rooms",
        "/api/rooms/{code}",
        "/api/rooms/{code}/join",
        "/api/rooms/{code}/leave",
        "/api/rooms/{code}/bots",
        "/api/rooms/{code}/seats/{seat}",
        "/api/rooms/{code}/seats/{seat}/bot",
        "/api/rooms/{code}/seats/{seat}/back",
        "/api/rooms/{code}/seats/{seat}/rejoin-link",
        "/api/rooms/{code}/rejoin",
        "/api/rooms/{code}/start",
        "/api/rooms/{code}/games",
        "/api/rooms/{code}/game",
        "/api/rooms/{code}/game/legal-actions",
        "/api/rooms/{code}/game/actions",
        "/api/rooms/{code}/game/result",
        "/api/rooms/{code}/game/history",
        "/healthz",
    ]:
        assert path in paths, path
    assert "HTTPBearer" in spec["components"]["securitySchemes"]
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            assert op.get("summary"), (path, method)
            assert re.match(r"^[A-Z]", op["summary"]), (path, method)
