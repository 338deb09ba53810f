"""Games over REST: views, legal actions, versions (stale, duplicate, changed picks), bad input,
concurrent picks, the score sheet and the history. Every test runs on SQLite and on PostgreSQL."""

import asyncio
import random
from typing import Any

import httpx
from sqlalchemy import select

from app.db.models import Action
from app.engine import GameConfig, replay
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import bearer, error_of, full_room


async def state(client: httpx.AsyncClient, code: str, token: str | None = None) -> dict[str, Any]:
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(token) if token else None)
    assert r.status_code == 200, r.text
    return r.json()


async def act(
    client: httpx.AsyncClient, code: str, token: str, action: Any, version: int, **extra: Any
) -> httpx.Response:
    return await client.post(
        f"/api/rooms/{code}/game/actions", json={"action": action, "version": version, **extra}, headers=bearer(token)
    )


async def play_out(client: httpx.AsyncClient, code: str, tokens: dict[int, str], seed: int = 0) -> dict[str, Any]:
    """Play random legal actions for every person until the game ends (bots play themselves)."""
    rng = random.Random(seed)
    for _ in range(2000):
        progressed = False
        for seat, token in tokens.items():
            st = await state(client, code, token)
            if st["status"] == "finished":
                return st
            if seat in st["to_act"]:
                r = await act(client, code, token, rng.choice(st["legal_actions"]), st["version"])
                assert r.status_code == 200, r.text
                progressed = True
        if not progressed:
            await asyncio.sleep(0.01)  # bots are playing
    raise AssertionError("the game did not end")


async def test_seat_and_spectator_views(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=11)
    mine = await state(client, code, tokens[1])
    assert mine["seat"] == 1 and mine["version"] == 0 and mine["status"] == "running"
    assert len(mine["view"]["hand"]) == 7 and mine["legal_actions"]
    assert mine["to_act"] == [0, 1, 2]
    spectator = await state(client, code)
    assert spectator["seat"] is None and spectator["legal_actions"] is None
    assert spectator["view"]["hand"] == []
    r = await client.get(f"/api/rooms/{code}/game/legal-actions", headers=bearer(tokens[1]))
    assert r.status_code == 200 and r.json()["legal_actions"] == mine["legal_actions"]
    r = await client.get(f"/api/rooms/{code}/game/legal-actions")
    assert r.status_code == 401


async def test_game_endpoints_before_a_game(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, start=False)
    r = await client.get(f"/api/rooms/{code}/game")
    assert r.status_code == 404 and error_of(r) == "no_game"
    r = await act(client, code, tokens[0], {"type": "discard", "card": "x"}, 0)
    assert r.status_code == 404


async def test_a_whole_game_over_rest_with_a_bot(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, bots=1, seed=5)
    r = await client.get(f"/api/rooms/{code}/game/result")
    assert r.status_code == 409 and error_of(r) == "game_running"
    final = await play_out(client, code, tokens)
    assert final["result"]["winners"] and final["to_act"] == [] and final["legal_actions"] == []
    r = await client.get(f"/api/rooms/{code}/game/result")
    assert r.status_code == 200
    result = r.json()["result"]
    assert [s["seat"] for s in result["scores"]] == [0, 1, 2]
    assert all(s["total"] == sum(s["categories"].values()) for s in result["scores"])
    room = (await client.get(f"/api/rooms/{code}")).json()
    assert room["status"] == "finished" and room["game"]["status"] == "finished"
    # the stored log replays to the same result
    history = (await client.get(f"/api/rooms/{code}/game/history")).json()
    config = GameConfig.model_validate(history["config"])
    game = replay(config, [{"seat": s["seat"], "action": s["action"]} for s in history["steps"]])
    assert game.is_over and game.result() == result
    assert history["seats"][2]["kind"] == "bot"
    # an action for a finished game
    r = await act(client, code, tokens[0], {"type": "discard", "card": "Baths"}, final["version"])
    assert r.status_code == 409 and error_of(r) == "game_over"


async def test_history_of_a_finished_game_shows_any_step(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=8)
    final = await play_out(client, code, tokens, seed=3)
    history = (await client.get(f"/api/rooms/{code}/game/history")).json()
    assert history["status"] == "finished" and history["version"] == final["version"] == len(history["steps"])
    assert [s["seq"] for s in history["steps"]] == list(range(final["version"]))
    config = GameConfig.model_validate(history["config"])
    log = [{"seat": s["seat"], "action": s["action"]} for s in history["steps"]]
    for at in (0, 1, 7, final["version"]):
        for seat in (None, 0, 2):
            query = f"?at={at}" + ("" if seat is None else f"&seat={seat}")
            r = await client.get(f"/api/rooms/{code}/game/history{query}")
            assert r.status_code == 200, r.text
            assert r.json()["view"] == replay(config, log[:at]).view(seat)
    r = await client.get(f"/api/rooms/{code}/game/history?at={final['version'] + 1}")
    assert r.status_code == 422 and error_of(r) == "bad_step"
    for seat in (3, 6):  # a seat the schema allows (up to 7 players) but this 3-player game has not: was a 500
        r = await client.get(f"/api/rooms/{code}/game/history?at=1&seat={seat}")
        assert r.status_code == 422 and error_of(r) == "bad_seat", r.text
        assert "seats 0 to 2" in r.json()["error"]["message"]


async def test_history_of_a_running_game_is_public_only(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=9)
    st = await state(client, code, tokens[0])
    await act(client, code, tokens[0], st["legal_actions"][0], 0)
    st1 = await state(client, code, tokens[1])
    await act(client, code, tokens[1], st1["legal_actions"][-1], 1)
    history = (await client.get(f"/api/rooms/{code}/game/history?at=2")).json()
    assert history["status"] == "running" and "seed" not in history["config"]
    assert [s["seat"] for s in history["steps"]] == [0, 1]
    assert all(s["action"] is None for s in history["steps"])
    assert history["steps"][0]["events"] == [{"type": "chosen", "seat": 0, "changed": False}]
    assert history["view"] == (await state(client, code))["view"]  # the spectator view
    assert st["legal_actions"][0]["card"] not in str(history)
    r = await client.get(f"/api/rooms/{code}/game/history?at=1&seat=0", headers=bearer(tokens[0]))
    assert r.status_code == 403 and error_of(r) == "game_running"


async def test_stale_duplicate_and_changed_picks(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=21)
    s0 = await state(client, code, tokens[0])
    first, second = s0["legal_actions"][0], s0["legal_actions"][-1]
    r = await act(client, code, tokens[0], first, 0, action_id="a-1")
    assert r.status_code == 200 and r.json()["seq"] == 0 and r.json()["version"] == 1
    assert r.json()["events"] == [{"type": "chosen", "seat": 0, "changed": False}]
    # the same action_id again: a duplicate, never applied twice
    r = await act(client, code, tokens[0], second, 1, action_id="a-1")
    assert r.status_code == 409 and error_of(r) == "duplicate" and r.json()["error"]["details"]["seq"] == 0
    # the same action against the same version again (a retried request): a duplicate
    r = await act(client, code, tokens[0], first, 0)
    assert r.status_code == 409 and error_of(r) == "duplicate"
    # another action against the old version: stale
    r = await act(client, code, tokens[0], second, 0)
    assert r.status_code == 409 and error_of(r) == "stale"
    assert "version" in r.json()["error"]["message"]
    # another seat's pick does not make seat 1's version 0 stale: its situation did not change
    s1 = await state(client, code, tokens[1])
    r = await act(client, code, tokens[1], s1["legal_actions"][0], 0)
    assert r.status_code == 200 and r.json()["seq"] == 1
    # seat 0 changes its pick against the current version
    r = await act(client, code, tokens[0], second, 2)
    assert r.status_code == 200
    assert r.json()["events"] == [{"type": "chosen", "seat": 0, "changed": True}]
    assert (await state(client, code, tokens[0]))["view"]["pick"]["card"] == second["card"]
    # a version from the future
    r = await act(client, code, tokens[2], s1["legal_actions"][0], 99)
    assert r.status_code == 422 and error_of(r) == "bad_version"
    db = client.app.state.services.db  # type: ignore[attr-defined]
    async with db.sessions() as session:
        seqs = (await session.execute(select(Action.seq, Action.seat))).all()
    assert sorted(seqs) == [(0, 0), (1, 1), (2, 0)]


async def test_last_pick_reveals_and_old_versions_become_stale(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=22)
    picks = {}
    for seat in (0, 1, 2):
        st = await state(client, code, tokens[seat])
        picks[seat] = st["legal_actions"][0]
        r = await act(client, code, tokens[seat], picks[seat], st["version"])
        assert r.status_code == 200
    events = r.json()["events"]
    assert [e["type"] for e in events][:2] == ["chosen", "reveal"]
    assert len([e for e in events if e["type"] == "reveal"]) == 1
    st = await state(client, code, tokens[0])
    assert st["version"] == 3 and st["to_act"] == [0, 1, 2] and len(st["view"]["hand"]) == 6
    r = await act(client, code, tokens[0], st["legal_actions"][0], 1)
    assert r.status_code == 409 and error_of(r) == "stale"


async def test_bad_actions_change_nothing(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=23)
    token = tokens[0]
    before = await state(client, code, token)
    hand = before["view"]["hand"]
    bad_bodies = [
        {"action": {"type": "build", "card": "Nonexistent Card"}, "version": 0},
        {"action": {"type": "fly"}, "version": 0},
        {"action": {"card": hand[0]}, "version": 0},
        {"action": {"type": "discard", "card": hand[0], "extra": 1}, "version": 0},
    ]
    for body in bad_bodies:
        r = await client.post(f"/api/rooms/{code}/game/actions", json=body, headers=bearer(token))
        assert r.status_code == 422 and error_of(r) == "illegal_action", r.text
    r = await client.post(
        f"/api/rooms/{code}/game/actions", json={"action": {"type": "discard", "card": hand[0]}}, headers=bearer(token)
    )
    assert r.status_code == 422 and error_of(r) == "invalid_request"  # no version
    r = await client.post(
        f"/api/rooms/{code}/game/actions",
        json={"action": "discard", "version": 0},
        headers=bearer(token),
    )
    assert r.status_code == 422
    r = await client.post(
        f"/api/rooms/{code}/game/actions",
        content=b'{"action": {',
        headers={**bearer(token), "content-type": "application/json"},
    )
    assert r.status_code == 400 and error_of(r) == "bad_json"
    r = await act(client, code, "wrong-token", {"type": "discard", "card": hand[0]}, 0)
    assert r.status_code == 401
    after = await state(client, code, token)
    assert after == before


async def test_a_seat_cannot_play_another_seats_action(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=25)
    theirs = (await state(client, code, tokens[1]))["legal_actions"]
    mine = {a["card"] for a in (await state(client, code, tokens[0]))["legal_actions"]}
    foreign = next(a for a in theirs if a["card"] not in mine)
    r = await act(client, code, tokens[0], foreign, 0)
    assert r.status_code == 422 and error_of(r) == "illegal_action"
    assert "not in your hand" in r.json()["error"]["message"]
    assert foreign["card"] not in r.json()["error"]["message"].split("hand holds")[-1]
    assert (await state(client, code))["version"] == 0


async def test_out_of_turn(sqlite_url: str) -> None:
    """In an alternating game (Duel) the seat that is not to act is told so, and nothing changes."""
    async with app_client(make_settings(sqlite_url)) as c:
        code, tokens = await full_room(c, 2, game="duel", seed=3)
        st = await state(c, code)
        (mover,) = st["to_act"]
        waiting = 1 - mover
        legal = (await state(c, code, tokens[mover]))["legal_actions"]
        r = await act(c, code, tokens[waiting], legal[0], 0)
        assert r.status_code == 409 and error_of(r) == "not_your_turn"
        assert r.json()["error"]["details"] == {"to_act": [mover]}
        assert (await state(c, code))["version"] == 0
        r = await act(c, code, tokens[mover], legal[0], 0)
        assert r.status_code == 200


async def test_simultaneous_picks_give_one_reveal(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 4, seed=31)
    for _turn in range(3):
        states = {s: await state(client, code, t) for s, t in tokens.items()}
        version = states[0]["version"]
        responses = await asyncio.gather(
            *(act(client, code, tokens[s], states[s]["legal_actions"][0], version) for s in tokens)
        )
        assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
        reveals = [e for r in responses for e in r.json()["events"] if e["type"] == "reveal"]
        assert len(reveals) == 1
        assert sorted(r.json()["seq"] for r in responses) == list(range(version, version + 4))


async def test_leaving_a_game_hands_the_seat_to_a_bot(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, seed=41)
    r = await client.post(f"/api/rooms/{code}/leave", headers=bearer(tokens[2]))
    seat2 = r.json()["seats"][2]
    assert r.status_code == 200 and seat2["kind"] == "human" and seat2["bot_plays"] and seat2["bot_reason"] == "left"
    r = await client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "bot"
    r = await client.delete(f"/api/rooms/{code}/seats/1", headers=bearer(tokens[0]))
    assert r.status_code == 409 and error_of(r) == "game_started"
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[1]))
    assert r.status_code == 401  # removed by the host: the token is void
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[2]))
    assert r.status_code == 200  # left: the token still works, to come back while the game runs
    final = await play_out(client, code, {0: tokens[0]})
    assert final["status"] == "finished"


async def test_rematch_and_the_games_of_a_room(client: httpx.AsyncClient) -> None:
    code, tokens = await full_room(client, 3, bots=2, seed=51)
    first = await play_out(client, code, {0: tokens[0]})
    r = await client.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["status"] == "playing"
    second = await state(client, code, tokens[0])
    assert second["game_id"] != first["game_id"] and second["status"] == "running"
    games = (await client.get(f"/api/rooms/{code}/games")).json()
    assert [g["id"] for g in games] == [first["game_id"], second["game_id"]]
    assert games[0]["status"] == "finished" and games[0]["winners"] == first["result"]["winners"]
    r = await client.get(f"/api/rooms/{code}/game/result?game={first['game_id']}")
    assert r.status_code == 200 and r.json()["result"] == first["result"]
    r = await client.get(f"/api/rooms/{code}/game/history?game=999999")
    assert r.status_code == 404 and error_of(r) == "game_not_found"
