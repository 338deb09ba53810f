"""A finished game's replay data (GET .../game/history) carries each step's time, the game's start,
and the room's chat said while it was played, each message at the step from which a replay shows
it: what was said before the game or in the next one is not there, a deleted message stays deleted,
a running game's history has no chat, and spectators read it when the room lets them watch."""

from datetime import datetime
from typing import Any

import httpx

from tests.server.helpers import bearer, create_room, join


async def say(client: httpx.AsyncClient, code: str, token: str, text: str) -> dict[str, Any]:
    r = await client.post(f"/api/rooms/{code}/chat", json={"text": text}, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()


async def play(client: httpx.AsyncClient, code: str, tokens: list[str], steps: int | None = None) -> int:
    """Make `steps` decisions (None: to the end), each the first legal action of a seat that owes one
    (in 7 Wonders' pick phase, one that has not picked yet); the game's version after."""
    made = 0
    while steps is None or made < steps:
        for token in tokens:
            state = (await client.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            if state["status"] != "running":
                return state["version"]
            if state["seat"] in state["to_act"] and state["legal_actions"]:
                r = await client.post(
                    f"/api/rooms/{code}/game/actions",
                    json={"action": state["legal_actions"][0], "version": state["version"]},
                    headers=bearer(token),
                )
                assert r.status_code == 200, r.text
                made += 1
                break
    return (await client.get(f"/api/rooms/{code}/game", headers=bearer(tokens[0]))).json()["version"]


async def history(client: httpx.AsyncClient, code: str, **params: Any) -> httpx.Response:
    token = params.pop("token", None)
    return await client.get(f"/api/rooms/{code}/game/history", params=params, headers=bearer(token) if token else None)


async def test_a_replay_carries_step_times_and_the_chat_at_its_steps(client: httpx.AsyncClient) -> None:
    code, ada = await create_room(client, game="duel", players=2, spectators="after", seed=3)
    _, bob = await join(client, code, "Bob")
    await say(client, code, ada, "before the game")
    assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(ada))).status_code == 200
    game_id = (await client.get(f"/api/rooms/{code}")).json()["game"]["id"]
    await say(client, code, ada, "good luck")
    assert await play(client, code, [ada, bob], 3) == 3
    await say(client, code, bob, "nice draft")
    oops = await say(client, code, bob, "oops, wrong room")
    assert (await client.delete(f"/api/rooms/{code}/chat/{oops['id']}", headers=bearer(ada))).status_code == 200

    running = await history(client, code, token=ada)
    assert running.status_code == 200 and running.json()["chat"] is None  # the room's chat is GET .../chat
    refused = await history(client, code)  # spectators see the game once it is over (spectators: after)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "spectators_after"

    total = await play(client, code, [ada, bob])
    await say(client, code, bob, "well played")
    assert (await client.post(f"/api/rooms/{code}/start", headers=bearer(ada))).status_code == 200  # a rematch
    await say(client, code, bob, "again!")

    for who in (ada, bob, None):  # both seats and a spectator
        r = await history(client, code, game=game_id, **({"token": who} if who else {}))
        assert r.status_code == 200, r.text
        replay = r.json()
        assert replay["status"] == "finished" and replay["version"] == total == len(replay["steps"])
        times = [datetime.fromisoformat(s["at"]) for s in replay["steps"]]
        started = datetime.fromisoformat(replay["started_at"])
        assert started <= times[0] and times == sorted(times)
        said = [(m["step"], m["name"], m["text"], m["deleted"]) for m in replay["chat"]]
        assert said == [
            (0, "Ada", "good luck", False),
            (3, "Bob", "nice draft", False),
            (3, "Bob", "", True),
            (total, "Bob", "well played", False),
        ]
        for m in replay["chat"]:  # each at its time: after the steps before it, before the ones after
            at = datetime.fromisoformat(m["at"])
            assert all(t <= at for t in times[: m["step"]]) and all(t > at for t in times[m["step"] :])
        assert "oops" not in r.text

    at_step = (await history(client, code, game=game_id, at=3, seat=1, token=ada)).json()
    assert at_step["at"] == 3 and at_step["view"] and len(at_step["chat"]) == 4
