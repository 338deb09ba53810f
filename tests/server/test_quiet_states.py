"""A seat's state that only tells of other seats' secret picks is held back for the rest of the turn
(WS_QUIET_STATE_MS)."""

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import live_sqlite_server
from tests.server.helpers import SeatClient, full_room
from tests.server.live import LiveServer


@pytest.fixture(scope="module")
def holding_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that holds a quiet state for a minute: longer than any test here runs."""
    with live_sqlite_server(tmp_path_factory, "holding", ws_quiet_state_ms=60_000) as server:
        yield server


@pytest.fixture
async def http(holding_server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=holding_server.url, timeout=30) as client:
        yield client


async def pick(seat: SeatClient, state: dict[str, Any], action_id: str) -> dict[str, Any]:
    start = len(seat.messages)
    await seat.send(
        {"type": "action", "action": state["legal_actions"][0], "version": state["version"], "action_id": action_id}
    )
    return await seat.wait_for(lambda m: m.get("action_id") == action_id, start=start)


async def test_other_seats_picks_send_chosen_but_no_state_until_the_reveal(
    holding_server: LiveServer, http: httpx.AsyncClient
) -> None:
    code, tokens = await full_room(http, 3, seed=21)
    url = holding_server.ws_url
    async with (
        SeatClient(url, code, tokens[0]) as s0,
        SeatClient(url, code, tokens[1]) as s1,
        SeatClient(url, code, tokens[2]) as s2,
    ):
        st0, st1, st2 = [await s.wait_type("state") for s in (s0, s1, s2)]
        assert (await pick(s1, st1, "p1"))["type"] == "accepted"
        mine = await s1.wait_for(lambda m: m["type"] == "state" and m["version"] == 1)
        assert mine["to_act"] == [0, 2]  # a seat's own pick is followed by its state
        assert (await pick(s2, st2, "p2"))["type"] == "accepted"
        await s0.wait_type("chosen", version=2, seat=2)
        # seat 0's situation has not changed: it acts on its first state, which is still good
        assert (await pick(s0, st0, "p0"))["type"] == "accepted"
        reveal = await s0.wait_type("reveal")
        after = await s0.wait_for(lambda m: m["type"] == "state" and m["version"] == reveal["version"])
        assert after["to_act"] == [0, 1, 2]
        states = [m["version"] for m in s0.messages if m["type"] == "state"]
        assert states == [0, reveal["version"]]
        chosen = [(m["version"], m["seat"]) for m in s0.messages if m["type"] == "chosen"]
        assert chosen == [(1, 1), (2, 2), (3, 0)]


async def seat_1_picks(s0: SeatClient, s1: SeatClient) -> None:
    """Seat 1 picks on its first state; seat 0, which has its first state, hears of it."""
    await s0.wait_type("state")
    assert (await pick(s1, await s1.wait_type("state"), "p1"))["type"] == "accepted"
    await s0.wait_type("chosen", version=1, seat=1)


async def test_a_held_state_is_sent_again_on_sync(holding_server: LiveServer, http: httpx.AsyncClient) -> None:
    code, tokens = await full_room(http, 3, seed=22)
    url = holding_server.ws_url
    async with SeatClient(url, code, tokens[0]) as s0, SeatClient(url, code, tokens[1]) as s1:
        await seat_1_picks(s0, s1)
        start = len(s0.messages)
        await s0.send({"type": "sync"})
        state = await s0.wait_type("state", start=start)
        assert state["version"] == 1 and state["to_act"] == [0, 2]


async def test_a_held_state_goes_out_when_its_hold_is_over(live_server: LiveServer) -> None:
    """With the default hold, a seat hears of another seat's pick by `chosen`, then by its state."""
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:
        code, tokens = await full_room(client, 3, seed=23)
    url = live_server.ws_url
    async with SeatClient(url, code, tokens[0]) as s0, SeatClient(url, code, tokens[1]) as s1:
        await seat_1_picks(s0, s1)
        state = await s0.wait_for(lambda m: m["type"] == "state" and m["version"] == 1)
        assert state["to_act"] == [0, 2]
