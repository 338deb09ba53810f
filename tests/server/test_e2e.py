"""Whole games over real websockets against a real uvicorn: every seat submits at the same moment,
each turn gives exactly one reveal, and no message to a seat (or a spectator) ever names a card
hidden from it: the test replays the stored log with the engine to know, at every version, which
cards each seat could not see."""

import httpx
import pytest

from tests.server.helpers import full_room
from tests.server.live import LiveServer
from tests.server.play import Truth, check_game, check_secrecy, finished_log, play_lockstep


async def test_three_player_classic_game_over_websockets(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=101)
        clients, spectator, rounds = await play_lockstep(live_server.ws_url, code, tokens, seed=1)
        config, log, history = await finished_log(http, code)
    truth = Truth(config, log, live_server.services.games.factory)
    assert truth.reveals == 18 and truth.game.is_over
    assert history["result"] == truth.game.result()
    check_game(clients, spectator, truth, rounds)
    # simultaneous rounds of all three seats each ended in exactly one reveal, at the round's version
    reveal_versions = {m["version"] for m in clients[0].messages if m["type"] == "reveal"}
    assert {v for v in rounds if v in reveal_versions} == reveal_versions


async def test_secrecy_with_changed_picks_four_players(live_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 4, seed=202)
        clients, spectator, rounds = await play_lockstep(live_server.ws_url, code, tokens, seed=2, change_picks=True)
        config, log, _ = await finished_log(http, code)
    truth = Truth(config, log, live_server.services.games.factory)
    assert len(log) > truth.reveals * 4, "some picks were changed"
    changed = [m for m in clients[1].messages if m["type"] == "chosen" and m["changed"]]
    assert changed
    check_game(clients, spectator, truth, rounds)


async def test_duel_game_over_websockets(live_server: LiveServer) -> None:
    """A whole Duel over websockets: alternating turns, decisions of their own kinds, and no
    face-down, removed or boxed card or token ever sent to anyone."""
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 2, game="duel", seed=303)
        clients, spectator, _rounds = await play_lockstep(live_server.ws_url, code, tokens, seed=3)
        config, log, history = await finished_log(http, code)
    truth = Truth(config, log, live_server.services.games.factory)
    assert truth.game.is_over and history["result"] == truth.game.result()
    assert history["result"]["victory"] in ("military", "science", "civilian")
    for client in [*clients.values(), spectator]:
        assert len([m for m in client.messages if m["type"] == "game_over"]) == 1
        assert all(m["type"] != "reveal" for m in client.messages)
        assert check_secrecy(client, truth) > len(log)


@pytest.mark.postgres
async def test_classic_game_over_websockets_on_postgres(live_pg_server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live_pg_server.url, timeout=30) as http:
        code, tokens = await full_room(http, 3, seed=404)
        clients, spectator, rounds = await play_lockstep(live_pg_server.ws_url, code, tokens, seed=4)
        config, log, _ = await finished_log(http, code)
    truth = Truth(config, log, live_pg_server.services.games.factory)
    check_game(clients, spectator, truth, rounds)
