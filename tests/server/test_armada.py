"""Armada through the server: whole games over real websockets and over REST, people keeping
islands, bots in seats, and secrecy: no message or response to a seat (or a spectator) ever names
an island that another seat drew and is choosing among, or one still in the decks."""

import asyncio
import contextlib
import logging
import random
from typing import Any

import httpx
import pytest

from app.api.ws_messages import server_message
from app.bots.armada import all_cards
from app.engine.classic.armada.data import armada_data
from tests.server.conftest import app_client, make_settings
from tests.server.helpers import SeatClient, bearer, create_room, error_of, full_room, join, play_reactive
from tests.server.live import LiveServer
from tests.server.play import Truth, check_game, check_secrecy, finished_log, play_lockstep

ARMADA = {"expansions": ["armada"]}
ISLANDS = {island.name for island in armada_data().islands}


def explorer(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    """A scripted player that likes exploring: naval steps on the green track first (its spaces
    explore), then any naval step, then anything; a random island when it must keep one."""
    view, actions = state["view"], state["legal_actions"]
    if view["phase"] == "explore":
        return rng.choice(actions)
    yard = view["players"][view["seat"]]["shipyard"]

    def track(action: dict[str, Any]) -> str | None:
        if action["type"] == "wonder":
            return yard["wonder_track"]
        card = all_cards().get(action.get("card", ""))
        return card.color if card else None

    green = [a for a in actions if a.get("naval") and track(a) == "green"]
    naval = [a for a in actions if a.get("naval")]
    return rng.choice(green or naval or actions)


def offered_in(messages: list[dict[str, Any]]) -> list[tuple[int, list[str]]]:
    """(version, islands) of every state that asked this seat to keep an island."""
    out = []
    for m in messages:
        decision = m.get("view", {}).get("decision") if m["type"] == "state" else None
        if decision and decision["kind"] == "keep_island":
            out.append((m["version"], decision["islands"]))
    return out


async def test_three_people_play_armada_over_websockets(live_server: LiveServer) -> None:
    """Three scripted people play a whole Armada game in lockstep; at least one of them keeps an
    island out of several. Every message is a protocol message, each turn has one reveal, and the
    islands a seat drew are named to that seat only."""
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=505, **ARMADA)
        room = (await http.get(f"/api/rooms/{code}")).json()
        assert room["settings"]["expansions"] == ["armada"]
        assert room["settings"]["notices"] == [armada_data().notice]
        clients, spectator, rounds = await play_lockstep(live_server.ws_url, code, tokens, seed=5, choose=explorer)
        config, log, history = await finished_log(http, code)
    assert config.expansions == ["armada"]
    truth = Truth(config, log, live_server.services.games.factory)
    assert truth.game.is_over and truth.reveals == 21  # 7 turns in each of 3 Ages
    assert history["result"] == truth.game.result()
    check_game(clients, spectator, truth, rounds)
    for client in [*clients.values(), spectator]:
        for message in client.messages:
            server_message.validate_python({k: v for k, v in message.items() if k != "_t"})

    # people kept islands, at least once out of several
    kept = [e for e in log if e["action"]["type"] == "keep_island"]
    assert kept, "nobody kept an island"
    choices = [(seat, v, islands) for seat, c in clients.items() for v, islands in offered_in(c.messages)]
    assert any(len(islands) > 1 for _, _, islands in choices)
    # the check above is not empty-handed: those islands were hidden from everyone else then
    for seat, version, islands in choices:
        assert set(islands) <= ISLANDS
        for other in [*(s for s in clients if s != seat), None]:
            assert set(islands) <= truth.hidden[version][other], (seat, other, version, islands)
    owned = {name for p in truth.game.view(None)["players"] for name in p["shipyard"]["islands"]}
    assert {e["action"]["island"] for e in kept} <= owned  # (one island drawn alone is kept at once)
    for client in clients.values():
        named = {
            m["event"]["island"]
            for m in client.messages
            if m["type"] == "event" and m["event"]["type"] == "island_kept"
        }
        assert named == owned, "every seat hears of every island kept"

    # Armada's events and views reach everyone
    events = [m["event"] for m in spectator.messages if m["type"] == "event"]
    kinds = {e["type"] for e in events}
    assert {"exploration", "island_kept", "naval_conflict", "military"} <= kinds
    assert len([e for e in events if e["type"] == "naval_conflict"]) == 3
    assert all("islands" not in e and "offered" not in e for e in events if e["type"] == "exploration")
    final = spectator.latest_state()
    assert final is not None and final["view"]["armada"]["provisional_notice"] == armada_data().notice
    assert all(set(p["shipyard"]["ships"]) == {"red", "yellow", "blue", "green"} for p in final["view"]["players"])
    assert {"naval", "islands", "shipyard"} <= set(final["result"]["categories"])


async def test_people_and_bots_play_armada(live_server: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    """Two people over websockets with a heuristic and a greedy bot: the bots play every Armada
    decision themselves (none falls back to a default action), and nothing hidden reaches the
    people or a spectator."""
    caplog.set_level(logging.WARNING, logger="wonders")
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, host = await create_room(
            http,
            "Ada",
            players=4,
            seed=606,
            bots=[{"kind": "heuristic", "seat": 2}, {"kind": "greedy", "seat": 3}],
            **ARMADA,
        )
        _, bob = await join(http, code, "Bob")
        async with contextlib.AsyncExitStack() as stack:
            clients = {
                0: await stack.enter_async_context(SeatClient(live_server.ws_url, code, host)),
                1: await stack.enter_async_context(SeatClient(live_server.ws_url, code, bob)),
            }
            spectator = await stack.enter_async_context(SeatClient(live_server.ws_url, code, None))
            await asyncio.gather(*(c.wait_type("welcome") for c in [*clients.values(), spectator]))
            r = await http.post(f"/api/rooms/{code}/start", headers=bearer(host))
            assert r.status_code == 200, r.text
            final = await play_reactive(clients, random.Random(6), choose=explorer)
            for c in [*clients.values(), spectator]:
                await c.wait_type("game_over", within=60)
        config, log, history = await finished_log(http, code)
    assert final["status"] == "finished" and final["result"] == history["result"]
    assert [s["kind"] for s in history["seats"]] == ["human", "human", "bot", "bot"]
    truth = Truth(config, log, live_server.services.games.factory)
    assert truth.game.result() == history["result"]
    for client in [*clients.values(), spectator]:
        assert check_secrecy(client, truth) > 0
    bot_moves = [e["action"] for e in log if e["seat"] in (2, 3)]
    assert any(a.get("naval") for a in bot_moves), "the bots took naval steps"
    assert not [r for r in caplog.records if "failed" in r.getMessage()], "a bot failed and fell back"


async def rest_state(client: httpx.AsyncClient, code: str, token: str | None = None) -> dict[str, Any]:
    r = await client.get(f"/api/rooms/{code}/game", headers=bearer(token) if token else None)
    assert r.status_code == 200, r.text
    return r.json()


async def test_armada_over_rest_keeps_drawn_islands_secret(client: httpx.AsyncClient) -> None:
    """Three people over REST. When someone explores, only they see the islands drawn, in their view
    and legal actions; the others, a spectator and the running game's history see none of them; a
    wrong island is refused and changes nothing. The game then plays out and replays to its result."""
    code, tokens = await full_room(client, 3, seed=707, **ARMADA)
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        states = {seat: await rest_state(client, code, token) for seat, token in tokens.items()}
        first = states[0]
        if first["status"] == "finished":
            break
        if first["view"]["phase"] == "explore":
            checked += await check_exploration(client, code, tokens, states)
        for seat in first["to_act"]:
            action = explorer(rng, states[seat])
            r = await client.post(
                f"/api/rooms/{code}/game/actions",
                json={"action": action, "version": states[seat]["version"]},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200 or error_of(r) == "stale", r.text
    else:
        raise AssertionError("the game did not end")
    assert checked > 0, "nobody explored"
    history = (await client.get(f"/api/rooms/{code}/game/history")).json()
    assert history["result"]["winners"] and {"naval", "islands", "shipyard"} <= set(history["result"]["categories"])


async def check_exploration(
    client: httpx.AsyncClient, code: str, tokens: dict[int, str], states: dict[int, dict[str, Any]]
) -> int:
    version = states[0]["version"]
    drawn: dict[int, set[str]] = {}
    for seat, st in states.items():
        decision = st["view"]["decision"]
        if seat in st["to_act"]:
            assert decision["kind"] == "keep_island"
            drawn[seat] = set(decision["islands"])
            assert {a["island"] for a in st["legal_actions"]} == drawn[seat]
            assert all(a["type"] == "keep_island" for a in st["legal_actions"])
        else:
            assert st["legal_actions"] == []
    assert drawn
    spectator = await rest_state(client, code)
    running = await client.get(f"/api/rooms/{code}/game/history?at={version}")
    assert running.status_code == 200
    for seat, islands in drawn.items():
        for other, st in states.items():
            if other != seat:
                assert not any(name in str(st) for name in islands), f"seat {other} saw seat {seat}'s islands"
        assert not any(name in str(spectator) for name in islands)
        assert not any(name in running.text for name in islands)
        # an island this seat did not draw is refused, and the message names only its own
        others = sorted(ISLANDS - islands)
        r = await client.post(
            f"/api/rooms/{code}/game/actions",
            json={"action": {"type": "keep_island", "island": others[0]}, "version": version},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 422 and error_of(r) == "illegal_action", r.text
        assert not any(name in r.text for name in ISLANDS - islands - {others[0]})
    assert (await rest_state(client, code, tokens[0]))["version"] == version  # nothing changed
    return len(drawn)


async def test_the_catalog_names_colours_islands_and_the_provisional_notice(sqlite_url: str) -> None:
    async with app_client(make_settings(sqlite_url)) as c:
        catalog = (await c.get("/api/catalog")).json()
    assert catalog["expansions"]["armada"] == {"game": "classic", "enabled": True, "notices": [armada_data().notice]}
    barracks = catalog["classic"]["cards"]["Barracks"]
    assert (barracks["color"], barracks["age"], barracks["expansion"], barracks["text"]) == (
        "red",
        1,
        None,
        "1 shield.",
    )
    dry_hold = catalog["armada"]["cards"]["Dry Hold"]
    assert (dry_hold["expansion"], dry_hold["color"], dry_hold["provisional"]) == ("armada", "blue", True)
    assert "Dry Hold" not in catalog["classic"]["cards"]
    armada = catalog["armada"]
    assert armada["notice"] == armada_data().notice
    assert set(armada["islands"]) == ISLANDS
    royal = armada["islands"]["Royal Archipelago"]
    assert (royal["level"], royal["text"], royal["provisional"]) == (3, "7 points.", True)
    assert armada["ship_tracks"] == ["red", "yellow", "blue", "green"]
    assert all([s["space"] for s in spaces] == [1, 2, 3, 4, 5, 6] for spaces in armada["ship_spaces"].values())
    assert armada["ship_spaces"]["red"][0]["text"] == "+1 naval strength."
    async with app_client(make_settings(sqlite_url, enabled_expansions=[])) as c:
        assert (await c.get("/api/catalog")).json()["expansions"]["armada"]["enabled"] is False
