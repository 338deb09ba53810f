"""Turn clocks against a real uvicorn with short clocks: a seat that never acts is decided for on
timeout (and the log says so), turn and bank modes, the bot taking the seat after the set number of
timeouts and giving it back when the person acts, a restart while a clock runs, and two instances
on one PostgreSQL where a deadline fires once; several seats timing out at once are decided
together; a server-side bot is not timed; an abandoned game's clock stays quiet."""

import asyncio
import logging
import sqlite3
import time
from typing import Any

import httpx
import pytest

from tests.server.conftest import make_settings, two_instances
from tests.server.helpers import SeatClient, bearer, create_room, error_of, full_room, until
from tests.server.live import LiveServer


async def seated_room(
    http: httpx.AsyncClient, *, clock: dict[str, Any], players: int = 3, **extra: Any
) -> tuple[str, str]:
    """Ada (a person who will not act unless told to) and bots; started."""
    code, token = await create_room(
        http, players=players, bots=[{"kind": "greedy"}] * (players - 1), clock=clock, seed=7, **extra
    )
    r = await http.post(f"/api/rooms/{code}/start", headers=bearer(token))
    assert r.status_code == 200, r.text
    return code, token


async def history(http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    r = await http.get(f"/api/rooms/{code}/game/history")
    assert r.status_code == 200, r.text
    return r.json()


def timeouts_of(steps: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [s for s in steps if s["seat"] == seat and s["by_timeout"]]


async def a_new_count_of_timeouts(http: httpx.AsyncClient, code: str) -> None:
    """Ada took her seat back after two timeouts: her third does not hand it to the bot, her fourth
    does."""

    async def timeouts(n: int) -> bool:
        return len(timeouts_of((await history(http, code))["steps"], 0)) >= n

    await until(lambda: timeouts(3), within=30)
    await asyncio.sleep(0.5)  # a hand-over follows its timeout at once
    assert not await seat_handed(http, code)
    await until(lambda: seat_handed(http, code), within=30)
    assert len(timeouts_of((await history(http, code))["steps"], 0)) == 4


async def seat_handed(http: httpx.AsyncClient, code: str, seat: int = 0) -> bool:
    """Whether a bot plays the person's seat now."""
    return (await http.get(f"/api/rooms/{code}")).json()["seats"][seat]["bot_plays"] is not None


@pytest.fixture
def server(tmp_path) -> Any:  # type: ignore[no-untyped-def]
    live = LiveServer(make_settings(f"sqlite:///{tmp_path}/clocks.db"))
    live.start()
    try:
        yield live
    finally:
        live.stop()


async def test_bad_clocks_are_refused_with_what_is_wrong(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        for clock, word in (
            ({"mode": "turn", "seconds": 0}, "seconds"),
            ({"mode": "turn"}, "seconds"),
            ({"mode": "bank", "initial_seconds": 10, "increment_seconds": -1}, "increment_seconds"),
            ({"mode": "sundial"}, "mode"),
            # no conversion, as in every body a client sends
            ({"mode": "turn", "seconds": "5"}, "seconds"),
            ({"mode": "turn", "seconds": True}, "seconds"),
            ({"mode": "turn", "seconds": 7.0}, "seconds"),
            ({"mode": "bank", "initial_seconds": "60"}, "initial_seconds"),
            ({"mode": "bank", "initial_seconds": True}, "initial_seconds"),
            ({"mode": "bank", "initial_seconds": 60, "increment_seconds": False}, "increment_seconds"),
        ):
            r = await http.post("/api/rooms", json={"name": "Ada", "clock": clock})
            assert r.status_code == 422, (clock, r.text)
            assert word in r.json()["error"]["message"] or word in str(r.json()["error"].get("details"))
        r = await http.post("/api/rooms", json={"name": "Ada", "timeout_bot": "oracle"})
        assert r.status_code == 422 and "oracle" in r.json()["error"]["message"]
        r = await http.post("/api/rooms", json={"name": "Ada", "timeouts_before_bot": 0})
        assert r.status_code == 422
        code, token = await create_room(http, clock={"mode": "turn", "seconds": 30})
        room = (await http.get(f"/api/rooms/{code}")).json()
        assert room["settings"]["clock"] == {"mode": "turn", "seconds": 30}
        r = await http.patch(
            f"/api/rooms/{code}", json={"clock": {"mode": "bank", "initial_seconds": 0}}, headers=bearer(token)
        )
        assert error_of(r) == "invalid_request" and "initial_seconds" in r.json()["error"]["message"], r.text
        r = await http.patch(
            f"/api/rooms/{code}", json={"clock": {"mode": "turn", "seconds": "5"}}, headers=bearer(token)
        )
        assert error_of(r) == "invalid_request" and "seconds" in r.json()["error"]["message"], r.text
        assert (await http.get(f"/api/rooms/{code}")).json()["settings"]["clock"] == {"mode": "turn", "seconds": 30}


async def test_a_seat_that_never_acts_is_played_on_timeout_and_the_log_says_so(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, token = await seated_room(http, clock={"mode": "turn", "seconds": 1}, timeouts_before_bot=5)
        async with SeatClient(server.ws_url, code, token) as ada, SeatClient(server.ws_url, code, None) as watcher:
            # once the bots have picked (they act at once, but not before Ada's first state), only Ada
            # owes a decision
            first = await ada.wait_for(lambda m: m["type"] == "state" and set(m["clock"]["deadlines"]) == {"0"})
            clock = first["clock"]
            assert clock["mode"] == "turn" and clock["seconds"] == 1
            timeout = await watcher.wait_type("timeout", within=10, seat=0)
            assert timeout["bot"] == "greedy"
            # the step's own messages follow: Ada's pick was made for her, and the turn was revealed
            after = watcher.messages[watcher.messages.index(timeout) + 1 :]
            assert any(m["type"] == "chosen" and m["seat"] == 0 and m["version"] == timeout["version"] for m in after)
            state = await ada.state_at_least(timeout["version"])
            assert state["view"]["turn"] == 2 and "0" in state["clock"]["deadlines"]
        steps = (await history(http, code))["steps"]
        mine = timeouts_of(steps, 0)
        assert mine and mine[0]["seq"] == timeout["version"] - 1
        assert all(not s["by_timeout"] for s in steps if s["seat"] != 0)  # bots act in time


@pytest.fixture
def slow_bots(tmp_path) -> Any:  # type: ignore[no-untyped-def]
    """Bots that think 0.3 s, so the game is still running when Ada comes back."""
    live = LiveServer(make_settings(f"sqlite:///{tmp_path}/slow.db", bot_delay_ms=300))
    live.start()
    try:
        yield live
    finally:
        live.stop()


async def test_after_two_timeouts_the_bot_plays_the_seat_until_its_person_acts(slow_bots: LiveServer) -> None:
    server = slow_bots
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, token = await seated_room(http, clock={"mode": "turn", "seconds": 1})

        async def seat_zero() -> dict[str, Any]:
            return (await http.get(f"/api/rooms/{code}")).json()["seats"][0]

        async def handed() -> bool:
            return (await seat_zero())["bot_plays"] is not None

        await until(handed, within=15)  # two timeouts in a row (about 2 s), then the bot takes over
        seat = await seat_zero()
        assert (seat["bot_plays"], seat["bot_reason"]) == ("greedy", "timeout")
        assert seat["name"] == "Ada" and seat["kind"] == "human"  # still Ada's seat
        assert len(timeouts_of((await history(http, code))["steps"], 0)) == 2

        # the bot plays on at once (no more timeouts), until Ada acts herself
        async def bot_played() -> bool:
            later = (await history(http, code))["steps"]
            return any(s["seat"] == 0 and not s["by_timeout"] for s in later)

        await until(bot_played, within=15)
        assert len(timeouts_of((await history(http, code))["steps"], 0)) == 2

        async def my_legal() -> dict[str, Any] | None:
            got = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            return got if got["legal_actions"] else None

        state = await until(my_legal, within=15)
        r = await http.post(
            f"/api/rooms/{code}/game/actions",
            json={"action": state["legal_actions"][-1], "version": state["version"]},
            headers=bearer(token),
        )
        assert r.status_code in (200, 409), r.text  # 409: the bot was quicker this time; the seat is back anyway
        seat = await seat_zero()
        assert seat["bot_plays"] is None and seat["bot_reason"] is None

        # Ada plays again, on the clock: her next decision waits for her (or for the next timeout)
        state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
        if state["status"] == "running" and 0 in state["to_act"]:
            assert "0" in state["clock"]["deadlines"]


@pytest.mark.parametrize("restart", [False, True], ids=["", "across-a-restart"])
async def test_taking_the_seat_back_starts_a_new_count_of_timeouts(tmp_path, restart: bool) -> None:  # type: ignore[no-untyped-def]
    """Handed to the bot after two timeouts, Ada says she is back before the bot moves: her next
    timeout is the first of a new run, so the bot takes the seat again only after two more (it took
    it at the very next one, the count going on from the log). The seat keeps when she came back, so
    a restart in between changes nothing (it counted the whole run again when only each instance's
    memory kept it)."""
    url = f"sqlite:///{tmp_path}/back.db"
    live = LiveServer(make_settings(url, bot_delay_ms=2500))
    live.start()
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            code, token = await seated_room(http, clock={"mode": "turn", "seconds": 1}, players=3)
            await until(lambda: seat_handed(http, code), within=20)
            assert len(timeouts_of((await history(http, code))["steps"], 0)) == 2
            r = await http.post(f"/api/rooms/{code}/seats/0/back", headers=bearer(token))
            assert r.status_code == 200 and r.json()["seats"][0]["bot_plays"] is None, r.text
        if restart:
            live.stop()
            live = LiveServer(make_settings(url, bot_delay_ms=2500))
            live.start()
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            await a_new_count_of_timeouts(http, code)
    finally:
        live.stop()


async def test_a_hand_over_lost_to_a_crash_is_made_at_the_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The server stored Ada's second timeout and died before handing her seat to the bot (here: the
    hand-over is undone in the database while the server is down). Starting again, it hands the seat
    over at once, from the log: not after a third timeout, which made her wait one more clock."""
    url = f"sqlite:///{tmp_path}/lost.db"
    live = LiveServer(make_settings(url, bot_delay_ms=2500))
    live.start()
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            code, _ = await seated_room(http, clock={"mode": "turn", "seconds": 1}, players=3)
            await until(lambda: seat_handed(http, code), within=20)
    finally:
        live.stop()
    with sqlite3.connect(f"{tmp_path}/lost.db") as db:
        undone = db.execute("UPDATE seats SET bot_plays = NULL, bot_reason = NULL WHERE seat = 0 AND kind = 'human'")
        assert undone.rowcount == 1
    live = LiveServer(make_settings(url, bot_delay_ms=2500))
    live.start()
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            assert len(timeouts_of((await history(http, code))["steps"], 0)) == 2
            await until(lambda: seat_handed(http, code), within=10)
            seat = (await http.get(f"/api/rooms/{code}")).json()["seats"][0]
            assert (seat["bot_plays"], seat["bot_reason"]) == ("greedy", "timeout")
            await asyncio.sleep(1.5)  # her deadline had passed: no timeout came meanwhile
            assert len(timeouts_of((await history(http, code))["steps"], 0)) == 2
    finally:
        live.stop()


async def test_an_action_sent_after_its_timeout_is_stale_even_if_the_bot_chose_the_same(server: LiveServer) -> None:
    """The server's choice on timeout is not the seat's: Ada sending, too late, the very action the
    timeout bot chose is told `stale`, not `duplicate` (which a client counts as its own, accepted)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, token = await seated_room(http, clock={"mode": "turn", "seconds": 1}, timeouts_before_bot=5)
        state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()

        async def decided() -> list[dict[str, Any]]:
            return timeouts_of((await history(http, code))["steps"], 0)

        seq = (await until(decided, within=15))[0]["seq"]
        game_id = (await http.get(f"/api/rooms/{code}")).json()["game"]["id"]
        stored = await server.run(server.services.games.store.steps_since(game_id, seq))  # hidden in a running game
        r = await http.post(
            f"/api/rooms/{code}/game/actions",
            json={"action": stored[0]["action"], "version": state["version"]},
            headers=bearer(token),
        )
        assert error_of(r) == "stale", r.text


async def test_a_seat_taken_back_while_it_owes_is_timed_again(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The bot plays Ada's seat after her timeout; she takes it back while it owes a move and the bot
    still pauses: the seat is a person's again and its clock runs (its deadline has passed, so the
    timeout bot decides at once), instead of nobody moving."""
    live = LiveServer(make_settings(f"sqlite:///{tmp_path}/retimed.db", bot_delay_ms=3000))
    live.start()
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            code, token = await create_room(
                http,
                game="duel",
                bots=[{"kind": "greedy"}],
                clock={"mode": "turn", "seconds": 1},
                timeouts_before_bot=1,
                seed=3,
            )
            assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200

            async def bot_owes_for_ada() -> dict[str, Any] | None:
                room = (await http.get(f"/api/rooms/{code}")).json()
                state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
                handed = room["seats"][0]["bot_plays"] is not None
                return state if handed and state["to_act"] == [0] else None

            state = await until(bot_owes_for_ada, within=30)
            r = await http.post(f"/api/rooms/{code}/seats/0/back", headers=bearer(token))
            assert r.status_code == 200, r.text

            async def decided_on_timeout() -> bool:
                steps = (await history(http, code))["steps"]
                return any(s["seat"] == 0 and s["by_timeout"] and s["seq"] >= state["version"] for s in steps)

            assert await until(decided_on_timeout, within=10)
    finally:
        live.stop()


async def test_a_time_bank_drains_while_the_seat_owes_and_grows_by_its_increment(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, token = await seated_room(
            http, clock={"mode": "bank", "initial_seconds": 4, "increment_seconds": 1}, timeouts_before_bot=9
        )
        async with SeatClient(server.ws_url, code, token) as ada:
            # once the bots have picked, they owe nothing; Ada's bank runs
            state = await ada.wait_for(lambda m: m["type"] == "state" and set(m["clock"]["banks"]) == {"1", "2"})
            assert state["clock"]["mode"] == "bank" and state["clock"]["increment_seconds"] == 1
            banks = state["clock"]["banks"]
            assert all(4 < b <= 5 for b in banks.values())  # 4 s, less their time (well under 1 s), plus 1 s
            await ada.send({"type": "action", "action": state["legal_actions"][0], "version": state["version"]})
            accepted = await ada.wait_type("accepted")
            state = await ada.state_at_least(accepted["version"] + 1)
            while "0" not in state["clock"]["deadlines"]:
                state = await ada.state_at_least(state["version"] + 1)
            # Ada answered within her bank: it is what was left plus the increment, so over 4 s
            left = time.time()
            timeout = await ada.wait_type("timeout", within=10, seat=0)
            assert time.time() - left > 1.5  # (a correctness bound, not a speed one: the bank was > 4 s)
            state = await ada.state_at_least(timeout["version"])
            # after the timeout her bank is empty: she now has only the increment for each decision
            assert "0" in state["clock"]["deadlines"] or state["clock"]["banks"].get("0", 0) <= 1.0
        steps = (await history(http, code))["steps"]
        assert len(timeouts_of(steps, 0)) >= 1


async def test_a_restart_keeps_the_running_clock(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Deadlines come from the stored log: after a restart the same deadline stands, and fires."""
    url = f"sqlite:///{tmp_path}/restart.db"
    first = LiveServer(make_settings(url))
    first.start()
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            # long enough for the restart to come before it, on a busy machine too
            code, token = await seated_room(http, clock={"mode": "turn", "seconds": 8})
            state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            deadline = state["clock"]["deadlines"]["0"]
    finally:
        first.stop()
    second = LiveServer(make_settings(url))
    second.start()
    try:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            again = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            assert again["version"] == state["version"]
            assert again["clock"]["deadlines"]["0"] == deadline  # not a new 8 s from the restart

            async def fired() -> list[dict[str, Any]]:
                return timeouts_of((await history(http, code))["steps"], 0)

            steps = await until(fired, within=30)
            assert steps[0]["seq"] == state["version"]
    finally:
        second.stop()


@pytest.mark.postgres
async def test_two_instances_fire_one_deadline_once(pg_server_url: str, redis_url: str) -> None:
    """Both instances follow the game and both arm Ada's clock; the database lets one store the
    decision, and the other, having lost the race, sees she is no longer overdue."""
    async with two_instances(pg_server_url, redis_url, "c") as (a, b, http, http_b):
        code, _ = await seated_room(http, clock={"mode": "turn", "seconds": 1}, timeouts_before_bot=10)
        await http_b.get(f"/api/rooms/{code}/game")  # B loads the game too: its clock runs as well

        async def four() -> bool:
            return len(timeouts_of((await history(http, code))["steps"], 0)) >= 4

        await until(four, within=30)
        steps = (await history(http, code))["steps"]
        # one decision per turn for Ada: never a second one (a changed pick) made on timeout
        turns = [s for s in steps if s["seat"] == 0]
        assert all(s["by_timeout"] for s in turns[:4])
        reveals = [i for i, s in enumerate(steps) if any(e["type"] == "reveal" for e in s["events"])]
        for start, end in zip([-1, *reveals], reveals, strict=False):  # the steps of one turn
            assert len([s for s in steps[start + 1 : end + 1] if s["seat"] == 0]) == 1

        async def each_timeout_fired_once() -> bool:  # Ada goes on timing out: compare between two
            stored = len(timeouts_of((await history(http, code))["steps"], 0))
            return a.services.clocks.fired + b.services.clocks.fired == stored

        await until(each_timeout_fired_once, within=10)


@pytest.mark.postgres
async def test_a_seat_taken_back_on_another_instance_starts_a_new_count_there(
    pg_server_url: str, redis_url: str
) -> None:
    """Ada's seat is handed to the bot on instance A; she says she is back through instance B,
    which had not loaded the game (it loads it then), and A stops. B times her from then on: her
    next timeout is the first of a new run (B knew nothing of the run's start but the log and the
    seat), and only the one after hands the seat over again."""
    async with two_instances(pg_server_url, redis_url, "t", bot_delay_ms=2500) as (a, _, on_a, on_b):
        code, token = await seated_room(on_a, clock={"mode": "turn", "seconds": 1}, players=3)
        await until(lambda: seat_handed(on_a, code), within=20)
        assert len(timeouts_of((await history(on_a, code))["steps"], 0)) == 2
        r = await on_b.post(f"/api/rooms/{code}/seats/0/back", headers=bearer(token))
        assert r.status_code == 200 and r.json()["seats"][0]["bot_plays"] is None, r.text
        a.stop()
        await a_new_count_of_timeouts(on_b, code)


async def test_seats_timing_out_together_are_decided_together(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Seven people who never pick, a 1-second clock, a timeout bot that thinks for its budget (the
    hard level, 300 ms here): the seven decisions are made at once, each bot in its own thread, as
    seven server-side bots would, not one after another (which made a 2-second turn last 9.7 s)."""
    live = LiveServer(make_settings(f"sqlite:///{tmp_path}/seven.db", bot_hard_budget_ms=300))
    live.start()
    clocks = live.services.clocks
    decide, running, most, twice = clocks._decide, set(), [0], []

    async def counted(rt: Any, seat: int) -> None:
        if seat in running:
            twice.append(seat)  # a second timeout bot for a seat whose first one still chooses
        running.add(seat)
        most[0] = max(most[0], len(running))
        try:
            await decide(rt, seat)
        finally:
            running.discard(seat)

    clocks._decide = counted
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            code, tokens = await full_room(
                http, 7, start=False, clock={"mode": "turn", "seconds": 1}, timeout_bot="hard", timeouts_before_bot=5
            )
            r = await http.post(f"/api/rooms/{code}/start", headers=bearer(tokens[0]))
            assert r.status_code == 200, r.text

            async def first_turn() -> list[dict[str, Any]]:
                steps = (await history(http, code))["steps"]
                return steps if len(steps) >= 7 else []

            steps = await until(first_turn, within=30)
        assert sorted(s["seat"] for s in steps[:7]) == list(range(7)) and all(s["by_timeout"] for s in steps[:7])
        assert most[0] == 7 and twice == []
    finally:
        live.stop()


async def test_a_bot_seat_is_not_timed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A server-side bot owing a move during its pause has no timer armed for it (the clock decides
    for people; a bot moves itself, or another instance plays it): no timer spins past its deadline."""
    live = LiveServer(make_settings(f"sqlite:///{tmp_path}/botclock.db", bot_delay_ms=6000))
    live.start()
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            code, token = await create_room(
                http, game="duel", bots=[{"kind": "greedy"}], clock={"mode": "turn", "seconds": 1}, seed=3
            )
            assert (await http.post(f"/api/rooms/{code}/start", headers=bearer(token))).status_code == 200
            state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            body = {"action": state["legal_actions"][0], "version": state["version"]}
            r = await http.post(f"/api/rooms/{code}/game/actions", headers=bearer(token), json=body)
            assert r.status_code == 200, r.text
            game_id = (await http.get(f"/api/rooms/{code}")).json()["game"]["id"]
            await asyncio.sleep(1.5)  # the bot's deadline has passed; it still pauses (6 s)
            state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
            assert state["to_act"] == [1] and state["version"] == 1
            assert game_id not in live.services.clocks.timers
            moved = await until(lambda: _version_above(http, code, token, 1), within=20)
            assert moved
    finally:
        live.stop()


async def _version_above(http: httpx.AsyncClient, code: str, token: str, version: int) -> bool:
    state = (await http.get(f"/api/rooms/{code}/game", headers=bearer(token))).json()
    return bool(state["version"] > version)


async def test_the_clock_of_an_abandoned_game_stays_quiet(tmp_path, caplog: pytest.LogCaptureFixture) -> None:  # type: ignore[no-untyped-def]
    """A room whose game has a running clock is not closed as unused, however short ROOM_IDLE_HOURS
    (its clock moves it on by itself: a turn-based decision may take days). Once its game is
    abandoned all the same (the database says so: another instance's sweep, whose notice was lost),
    the next sweep here unloads it: at the deadline nothing is decided, the game is not read again,
    and nothing is logged as failed."""
    path = f"{tmp_path}/quiet.db"
    live = LiveServer(make_settings(f"sqlite:///{path}", room_idle_hours=1e-6))
    live.start()
    caplog.set_level(logging.WARNING, logger="wonders")
    try:
        async with httpx.AsyncClient(base_url=live.url, timeout=30) as http:
            code, _ = await seated_room(http, clock={"mode": "turn", "seconds": 3})
            game_id = (await http.get(f"/api/rooms/{code}")).json()["game"]["id"]
            await asyncio.sleep(0.05)  # unused for longer than ROOM_IDLE_HOURS
            assert await live.run(live.services.sweeper.sweep()) == []  # in use: its clock runs
            assert game_id in live.services.games.runtimes
            with sqlite3.connect(path) as db:
                db.execute("UPDATE rooms SET status = 'closed' WHERE code = ?", (code,))
                db.execute(
                    "UPDATE games SET status = 'abandoned', finished_at = CURRENT_TIMESTAMP, wake_at = NULL "
                    "WHERE id = ?",
                    (game_id,),
                )
            await live.run(live.services.sweeper.sweep())
            assert live.services.games.runtimes == {}
            await asyncio.sleep(3.5)  # past Ada's deadline
            steps = (await history(http, code))["steps"]
            assert timeouts_of(steps, 0) == []
            assert live.services.games.runtimes == {}
    finally:
        live.stop()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
