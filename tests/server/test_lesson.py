"""A learning game (POST /api/rooms with learn: true): the server deals a game of its own choosing
(its seed, even with ALLOW_SEED off, never shown), seats easy bots, turns hints on and marks the room a
lesson; what a lesson chooses itself is refused by name, and its settings stay the lesson's."""

import pytest

from app.rooms.room_rules import LESSON_SEEDS
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import bearer, error_of


@pytest.mark.parametrize(("game", "players"), [("classic", 3), ("duel", 2)])
async def test_a_lesson_fixes_the_deal_on_the_server_with_easy_bots_and_hints(
    sqlite_url: str, game: str, players: int
) -> None:
    async with app_client(make_settings(sqlite_url, allow_seed=False)) as client:
        r = await client.post("/api/rooms", json={"name": "Ada", "game": game, "learn": True})
        assert r.status_code == 201, r.text
        joined = r.json()
        settings = joined["room"]["settings"]
        assert settings["lesson"] is True and settings["hints"] is True and settings["seed_fixed"] is True
        assert settings["players"] == players and "seed" not in settings
        seats = joined["room"]["seats"]
        assert [s["kind"] for s in seats] == ["human"] + ["bot"] * (players - 1)
        assert all(s["bot"] == "easy" for s in seats[1:])
        token, code = joined["token"], joined["code"]
        r = await client.post(f"/api/rooms/{code}/start", headers=bearer(token))
        assert r.status_code == 200, r.text
        rt = next(iter(client.app.state.services.games.runtimes.values()))  # type: ignore[attr-defined]
        assert rt.config.seed == LESSON_SEEDS[game]
        # the same deal every time: a second lesson starts alike
        state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
        assert "seed" not in state.get("config", {})
        # its settings are the lesson's, before and after its game
        r = await client.patch(f"/api/rooms/{code}", json={"hints": False}, headers=bearer(token))
        assert r.status_code in (409, 400), r.text


async def test_a_second_lesson_deals_the_same_game(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, allow_seed=False)) as client:
        hands = []
        for _ in range(2):
            joined = (await client.post("/api/rooms", json={"name": "Ada", "learn": True})).json()
            r = await client.post(f"/api/rooms/{joined['code']}/start", headers=bearer(joined["token"]))
            assert r.status_code == 200, r.text
            state = (await client.get(f"/api/rooms/{joined['code']}/game", headers=bearer(joined["token"]))).json()
            hands.append(state["view"]["hand"])
        assert hands[0] == hands[1] and len(hands[0]) == 7


async def test_a_lesson_refuses_what_it_chooses_itself_and_its_settings_stay(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url, allow_seed=True)) as client:
        for extra, named in [
            ({"seed": 5}, "seed"),
            ({"players": 4}, "players"),
            ({"bots": [{"kind": "hard"}]}, "bots"),
            ({"hints": False}, "hints"),
            ({"expansions": ["armada"]}, "expansions"),
            ({"clock": {"mode": "turn", "seconds": 60}}, "clock"),
        ]:
            r = await client.post("/api/rooms", json={"name": "Ada", "learn": True, **extra})
            assert r.status_code == 422, r.text
            assert error_of(r) == "bad_lesson" and named in r.json()["error"]["message"], r.text
        r = await client.post("/api/rooms", json={"name": "Ada", "learn": "yes"})
        assert r.status_code in (400, 422), r.text
        joined = (await client.post("/api/rooms", json={"name": "Ada", "game": "duel", "learn": True})).json()
        r = await client.patch(
            f"/api/rooms/{joined['code']}", json={"game": "classic"}, headers=bearer(joined["token"])
        )
        assert r.status_code == 409 and error_of(r) == "lesson", r.text
        # learn: false is an ordinary room
        r = await client.post("/api/rooms", json={"name": "Ada", "learn": False})
        assert r.status_code == 201 and r.json()["room"]["settings"]["lesson"] is False


def test_the_learning_option_is_in_the_openapi_document() -> None:
    from app.main import create_app

    schema = create_app(make_settings("sqlite:///:memory:")).openapi()["components"]["schemas"]
    assert "learn" in schema["CreateRoomIn"]["properties"]
    assert "bad_lesson" in schema["CreateRoomIn"]["properties"]["learn"]["description"]
    assert "lesson" in schema["RoomSettingsOut"]["properties"]
