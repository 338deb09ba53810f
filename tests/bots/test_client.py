"""The bot client (`python -m app.bots.client` and its Python API) against a real uvicorn: a classic
game with the client in one seat, a Duel of two clients (one a user's own function), reconnecting
after a server restart and after a connection lost right after an action (the action is sent again
and applied once), a turn clock running out, bad arguments, and the minimal bot of docs/BOTS.md."""

import asyncio
import contextlib
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.client import BotClient, ClientError, Outcome, as_chooser, main, play, run_bot
from app.client import receive as client_module
from app.engine import GameConfig, new_game, replay
from tests.server.conftest import make_settings
from tests.server.live import LiveServer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(make_settings(f"sqlite:///{tmp_path_factory.mktemp('client') / 'wonders.db'}"))
    live.start()
    try:
        yield live
    finally:
        live.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_room(http: httpx.AsyncClient, **settings: Any) -> tuple[str, str]:
    r = await http.post("/api/rooms", json={"name": "Host", **settings})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


async def seat_taken(http: httpx.AsyncClient, code: str, seat: int, within: float = 30.0) -> None:
    """Until someone holds `seat` and has its websocket open."""
    deadline = time.monotonic() + within
    while not (await http.get(f"/api/rooms/{code}")).json()["seats"][seat]["connected"]:
        assert time.monotonic() < deadline, f"nobody took seat {seat}"
        await asyncio.sleep(0.05)


async def start(http: httpx.AsyncClient, code: str, token: str) -> None:
    r = await http.post(f"/api/rooms/{code}/start", headers=bearer(token))
    assert r.status_code == 200, r.text


async def history(http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    r = await http.get(f"/api/rooms/{code}/game/history")
    assert r.status_code == 200, r.text
    return r.json()


def check_history(hist: dict[str, Any], seed: int, outcome: Outcome) -> None:
    """The game finished; its steps are numbered 0.. with no gap; replaying every stored action
    from the seed gives the same result (so every step was valid); and this seat's steps are
    exactly the actions the client saw accepted, each once."""
    assert hist["status"] == "finished"
    steps = hist["steps"]
    assert [s["seq"] for s in steps] == list(range(len(steps))) == list(range(hist["version"]))
    config = {"seed": seed, **hist["config"]}  # a finished game shows its seed
    assert config["seed"] == seed
    game = replay(GameConfig(**config), [{"seat": s["seat"], "action": s["action"]} for s in steps])
    assert game.is_over and game.result() == hist["result"] == outcome.result
    mine = [s["seq"] for s in steps if s["seat"] == outcome.seat and not s["by_timeout"]]
    assert sorted(outcome.seqs) == mine and len(set(outcome.seqs)) == len(outcome.seqs)


def stored_forms(hist: dict[str, Any], seed: int, seat: int, chosen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log keeps the engine's canonical form of each action: the forms of the actions `seat`
    chose, in order, replaying the others' stored steps between them."""
    game = new_game(GameConfig(**{"seed": seed, **hist["config"]}))
    choices = iter(chosen)
    forms = []
    for step in hist["steps"]:
        game.apply(step["seat"], next(choices) if step["seat"] == seat else step["action"])
        if step["seat"] == seat:
            forms.append(game.log[-1]["action"])
    return forms


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.bots.client", *args],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ----- (a) the command line plays a classic seat ------------------------------------------------


async def test_the_command_line_plays_a_classic_seat_to_the_end(server: LiveServer) -> None:
    """Server bots in seats 0 (the host's, handed over) and 2; the client joins seat 1 as a subprocess."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(http, players=3, seed=11, bots=[{"kind": "greedy", "seat": 2}])
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "app.bots.client",
            server.url,
            code,
            "--name",
            "Robo",
            "--bot",
            "heuristic",
            "--seat",
            "1",
            "-v",
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await seat_taken(http, code, 1)
            await start(http, code, host)
            r = await http.post(f"/api/rooms/{code}/seats/0/bot", json={"kind": "random"}, headers=bearer(host))
            assert r.status_code == 200, r.text
            out, err = await asyncio.wait_for(proc.communicate(), 120)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        hist = await history(http, code)
    text = out.decode()
    assert proc.returncode == 0, text + err.decode()
    assert err.decode() == ""
    lines = text.splitlines()
    assert lines[0] == f"joined room {code} as seat 1 (Robo)"
    assert any(line.startswith("game ") and " started: classic, 3 players" in line for line in lines)
    assert any(re.match(r"step \d+: (build|wonder|discard)", line) for line in lines), "-v shows decisions"
    over = f"game {hist['game_id']} is over after {hist['version']} steps (18 actions of seat 1, 0 reconnections)"
    assert over in lines
    header = next(line for line in lines if line.startswith("seat "))
    assert header.split() == ["seat", "name", *hist["result"]["categories"], "total"]
    assert any(line.startswith("1 ") and "Robo" in line for line in lines)
    assert lines[-1].startswith(("winner: ", "winners: "))
    assert hist["status"] == "finished"
    ours = [s for s in hist["steps"] if s["seat"] == 1]
    assert len(ours) == 18 and not any(s["by_timeout"] for s in ours)  # 3 Ages of 6 turns, all its own


# ----- (b) a Duel of two clients through the Python API ------------------------------------------


async def test_a_duel_of_two_clients_one_a_users_function(server: LiveServer) -> None:
    chosen: list[dict[str, Any]] = []

    def cheapest_build(view: dict[str, Any], legal_actions: list[dict[str, Any]]) -> dict[str, Any]:
        """A user's own bot: a build if there is one (the cheapest), else the first legal action."""
        assert view["game"] == "duel" and legal_actions
        builds = [a for a in legal_actions if a["type"] == "build"]
        action = min(builds, key=lambda a: a.get("cost", 0)) if builds else legal_actions[0]
        chosen.append(action)
        return action

    lines: list[str] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(http, game="duel", seed=5)
        ours = asyncio.create_task(play(server.url, code, cheapest_build, token=host, log=lines.append))
        theirs = asyncio.create_task(
            asyncio.to_thread(run_bot, server.url, code, "greedy", name="Greta", seed=1, log=None)
        )
        await seat_taken(http, code, 1)
        await start(http, code, host)
        mine, other = await asyncio.wait_for(asyncio.gather(ours, theirs), 120)
        hist = await history(http, code)
    assert mine.status == other.status == "finished"
    assert (mine.seat, other.seat) == (0, 1)
    assert mine.result == other.result == hist["result"] and mine.result["winners"]
    check_history(hist, 5, mine)
    check_history(hist, 5, other)
    assert stored_forms(hist, 5, 0, chosen) == [s["action"] for s in hist["steps"] if s["seat"] == 0], (
        "every choice of the function, once"
    )
    assert lines[0] == f"connected to room {code} as seat 0 (Host)"
    assert lines[-1].startswith(("winner: ", "winners: "))


# ----- (c) reconnecting ------------------------------------------------------------------------------


async def until_version(http: httpx.AsyncClient, code: str, version: int, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while (await http.get(f"/api/rooms/{code}/game")).json()["version"] < version:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.02)


async def test_the_client_carries_on_after_a_server_restart(tmp_path: Path) -> None:
    """The server stops mid-game and starts again on the same SQLite file and port: the client
    reconnects and finishes the game, no action lost or applied twice."""
    database = make_settings(f"sqlite:///{tmp_path}/restart.db")
    first = LiveServer(database)
    first.start()
    lines: list[str] = []
    second = None
    try:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            code, host = await new_room(http, players=3, seed=21, bots=[{"kind": "random"}, {"kind": "greedy"}])

            restarted = asyncio.Event()

            async def slow(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
                await asyncio.sleep(0.05)
                if view["version"] >= 12:  # the restart lands mid-game, not after it
                    await restarted.wait()
                return as_chooser("greedy", 3)(view, actions)  # type: ignore[return-value]

            client = BotClient(first.url, code, host, slow, log=lines.append)
            task = asyncio.create_task(client.run())
            await start(http, code, host)
            await until_version(http, code, 12)
        await asyncio.to_thread(first.stop)
        await asyncio.sleep(0.5)
        second = LiveServer(database)
        second.server.config.port = first.port  # the same address: the client knows only that one
        second.start()
        restarted.set()
        outcome = await asyncio.wait_for(task, 120)
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            hist = await history(http, code)
    finally:
        if second is not None:
            second.stop()
        first.stop()
    assert outcome.status == "finished" and outcome.reconnects >= 1, lines
    assert any(line.startswith("connection lost") for line in lines)
    assert f"reconnected to room {code} as seat 0" in lines
    check_history(hist, 21, outcome)


class CuttingProxy:
    """A TCP proxy in front of the server that drops the first websocket connection the moment the
    client's `after`-th frame has gone through to the server: the server gets that action, but its
    answers never come back (as when the network goes away)."""

    def __init__(self, target_port: int, after: int) -> None:
        self.target_port = target_port
        self.after = after
        self.cuts = 0

    async def __aenter__(self) -> "CuttingProxy":
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        first = await reader.read(65536)
        up_writer.write(first)
        cut = b"/ws/rooms/" in first and self.cuts == 0
        if cut:
            self.cuts += 1
        held, answered = asyncio.Event(), asyncio.Event()

        async def upstream() -> None:
            frames = 0
            while data := await reader.read(65536):
                up_writer.write(data)
                await up_writer.drain()
                frames += 1
                if cut and frames == self.after:
                    held.set()  # no more answers to the client
                    # until the server has applied the action (a cut before it read the action would
                    # lose it: a reset connection's unread data is dropped)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(answered.wait(), 30)
                    return

        async def downstream() -> None:
            while data := await up_reader.read(65536):
                if held.is_set():
                    if b'"accepted"' in data:  # the server's frames are plain text (no compression)
                        answered.set()
                    continue
                writer.write(data)
                await writer.drain()

        tasks = [asyncio.create_task(upstream()), asyncio.create_task(downstream())]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for w in (writer, up_writer):
            w.transport.abort()


async def test_an_action_whose_answer_was_lost_is_sent_again_and_applied_once(server: LiveServer) -> None:
    lines: list[str] = []
    async with CuttingProxy(server.port, after=3) as proxy, httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(http, players=3, seed=8, bots=[{"kind": "greedy"}, {"kind": "random"}])
        task = asyncio.create_task(play(proxy.url, code, "heuristic", token=host, log=lines.append, verbose=True))
        await seat_taken(http, code, 0)
        await start(http, code, host)
        outcome = await asyncio.wait_for(task, 120)
        hist = await history(http, code)
    assert proxy.cuts == 1
    assert outcome.status == "finished" and outcome.reconnects == 1, lines
    assert outcome.duplicates == 1, lines  # the third action, sent again with its action_id
    assert any("had already been applied as step" in line for line in lines)
    check_history(hist, 8, outcome)


# ----- turn clocks -----------------------------------------------------------------------------------


def steps_of(url: str, code: str) -> list[dict[str, Any]]:
    r = httpx.get(f"{url}/api/rooms/{code}/game/history", timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["steps"]


async def test_a_timeout_the_server_decided_and_the_seat_taken_back(server: LiveServer) -> None:
    """A 3 s turn clock, the seat handed to the bot after one timeout: the client's bot thinks too
    long once, the server decides for it, and the client takes its seat back and plays on. Seat 1 is
    another client that thinks 0.3 s a decision, so the game does not race to its end meanwhile."""
    calls, code = 0, ""

    def slow_once(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 2:  # thinks until the server has decided for it (in the client's thread: the
            # connection lives on meanwhile)
            deadline = time.monotonic() + 30
            while not any(s["seat"] == 0 and s["by_timeout"] for s in steps_of(server.url, code)):
                assert time.monotonic() < deadline, "the clock never ran out"
                time.sleep(0.1)
        return actions[0]

    async def pace(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        await asyncio.sleep(0.3)
        return actions[-1]

    lines: list[str] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(
            http,
            players=3,
            seed=3,
            bots=[{"kind": "greedy", "seat": 2}],
            clock={"mode": "turn", "seconds": 3},
            timeouts_before_bot=1,
        )
        ours = asyncio.create_task(play(server.url, code, slow_once, token=host, log=lines.append))
        other = asyncio.create_task(play(server.url, code, pace, name="Pace", log=None))
        await seat_taken(http, code, 1)
        await seat_taken(http, code, 0)
        await start(http, code, host)
        outcome, _ = await asyncio.wait_for(asyncio.gather(ours, other), 120)
        hist = await history(http, code)
        room = (await http.get(f"/api/rooms/{code}")).json()
    assert outcome.status == "finished" and outcome.timeouts == 1, lines
    assert any(line.startswith("the clock ran out: the server's greedy bot decided for seat 0") for line in lines)
    assert any("for us (timeout): taking it back" in line for line in lines), lines
    steps = [s for s in hist["steps"] if s["seat"] == 0]
    assert len([s for s in steps if s["by_timeout"]]) == 1
    assert room["seats"][0]["bot_plays"] is None  # the seat is the client's again
    assert steps[-1]["seq"] in outcome.seqs, lines  # and the client played it to the end
    assert len(steps) == 18 and len(outcome.seqs) >= 10


async def test_a_seat_the_host_hands_to_a_bot_is_left_to_it_until_given_back(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host hands the client's seat to a bot while the client's bot is thinking: the client
    does not send that choice (it would take the seat back) and leaves the seat to the bot until the
    host gives it back. Seat 1 is a client thinking 0.3 s a decision, so the game takes a while."""
    thinking, release = asyncio.Event(), asyncio.Event()

    async def wait_once(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        if not release.is_set():
            thinking.set()
            await release.wait()
        return actions[0]

    async def pace(view: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        await asyncio.sleep(0.3)
        return actions[-1]

    # What the client does once the room message saying so is in its socket. When it arrives is up
    # to the network, so until then the host's client, looking at what came while it thought, waits
    # for it (the other client, in this process too, reads as usual).
    handed_over, host_header = asyncio.Event(), {}
    received = client_module.received

    async def received_once_handed_over(ws: Any) -> Any | None:
        if not handed_over.is_set() or ws.request.headers.get("Authorization") != host_header.get("Authorization"):
            return await received(ws)
        raw = await asyncio.wait_for(ws.recv(), 30)
        message = json.loads(raw)
        if message["type"] == "room" and message["room"]["seats"][0]["bot_plays"]:
            handed_over.clear()
        return raw

    monkeypatch.setattr(client_module, "received", received_once_handed_over)
    lines: list[str] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(http, players=3, seed=6, bots=[{"kind": "greedy", "seat": 2}])
        host_header.update(bearer(host))
        ours = asyncio.create_task(play(server.url, code, wait_once, token=host, log=lines.append))
        other = asyncio.create_task(play(server.url, code, pace, name="Pace", log=None))
        await seat_taken(http, code, 1)
        await seat_taken(http, code, 0)
        await start(http, code, host)
        await asyncio.wait_for(thinking.wait(), 20)
        r = await http.post(f"/api/rooms/{code}/seats/0/bot", json={"kind": "random"}, headers=bearer(host))
        assert r.status_code == 200, r.text
        handed_over.set()
        release.set()
        deadline = time.monotonic() + 30
        while len([s for s in (await history(http, code))["steps"] if s["seat"] == 0]) < 3:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        r = await http.delete(f"/api/rooms/{code}/seats/0/bot", headers=bearer(host))
        assert r.status_code == 200, r.text
        outcome, _ = await asyncio.wait_for(asyncio.gather(ours, other), 120)
        hist = await history(http, code)
    assert outcome.status == "finished", lines
    assert any("to a random bot: leaving it to that bot until the host gives it back" in x for x in lines), lines
    assert any(line.startswith("not sending the choice for step") for line in lines), lines
    assert "the host gave seat 0 back: playing it again" in lines
    steps = [s["seq"] for s in hist["steps"] if s["seat"] == 0]
    assert len(steps) == 18 and hist["status"] == "finished"
    first = min(outcome.seqs)
    assert first > steps[2], "the bot played the seat's first steps"
    assert sorted(outcome.seqs) == [s for s in steps if s >= first], "and the client every step once given back"


# ----- (d) bad arguments -----------------------------------------------------------------------------


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_an_unknown_bot_is_one_error_line_and_exit_2() -> None:
    done = cli("http://127.0.0.1:9", "ABCDEFG", "--bot", "clever")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: unknown bot 'clever'; bots: random, greedy, heuristic, ismcts (see --help)",
    ]


def test_an_unreachable_server_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    assert main([f"http://127.0.0.1:{port}", "ABCDEFG", "--name", "X"]) == 1
    assert one_error_line(capsys) == (
        f"error: cannot join room ABCDEFG: cannot reach http://127.0.0.1:{port}: connection refused"
    )


def test_a_full_room_an_unknown_room_and_a_wrong_token(server: LiveServer, capsys: pytest.CaptureFixture[str]) -> None:
    r = httpx.post(f"{server.url}/api/rooms", json={"name": "Host", "players": 3, "bots": [{}, {}]})
    code = r.json()["code"]
    assert main([server.url, code, "--name", "Late"]) == 1
    assert one_error_line(capsys) == f"error: cannot join room {code}: room {code} is full (room_full)"
    assert main([server.url, "ZZZZZZZ", "--name", "Lost"]) == 1
    assert "there is no room" in one_error_line(capsys)
    assert main([server.url, code, "--token", "not-a-token"]) == 1
    assert "that token holds no seat" in one_error_line(capsys)
    assert main([server.url, code, "--rejoin-link", f"{server.url}/room.html?code={code}&rejoin=nope"]) == 1
    assert one_error_line(capsys).startswith("error: cannot use the rejoin link: ")


def test_arguments_that_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["http://127.0.0.1:9"],  # no room
        ["http://127.0.0.1:9", "ABCDEFG", "--token", "t", "--seat", "1"],
        ["http://127.0.0.1:9", "ABCDEFG", "--token", "t", "--rejoin-link", "x"],
        ["ftp://127.0.0.1:9", "ABCDEFG"],
    ):
        code = None
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        assert code in (1, 2), argv
        one_error_line(capsys)


def test_the_python_api_raises_client_errors() -> None:
    with pytest.raises(ClientError, match="unknown bot 'clever'"):
        run_bot("http://127.0.0.1:9", "ABCDEFG", "clever")


# ----- the rejoin link --------------------------------------------------------------------------------


async def test_a_rejoin_link_moves_the_seat_to_the_client(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(http, players=3, seed=4, bots=[{"kind": "random"}, {"kind": "random"}])
        r = await http.post(f"/api/rooms/{code}/seats/0/rejoin-link", headers=bearer(host))
        assert r.status_code == 201, r.text
        link = server.url + r.json()["url"]
        lines: list[str] = []
        task = asyncio.create_task(play(server.url, None, "random", rejoin_link=link, log=lines.append))
        deadline = time.monotonic() + 20
        while (await http.get(f"/api/rooms/{code}", headers=bearer(host))).json()["seats"][0]["connected"] is False:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        r = await http.post(f"/api/rooms/{code}/start", headers=bearer(host))
        assert r.status_code == 401, "the old token no longer holds the seat"
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert lines[0] == f"took seat 0 of room {code} with the rejoin link"


# ----- the minimal bot of docs/BOTS.md ---------------------------------------------------------------


async def test_the_minimal_bot_of_the_docs_plays_a_game(server: LiveServer, tmp_path: Path) -> None:
    text = (ROOT / "docs" / "BOTS.md").read_text()
    source = re.search(r"## A minimal bot.*?```python\n(.*?)```", text, re.S)
    assert source, "docs/BOTS.md has a minimal bot"
    assert len(source.group(1).splitlines()) <= 50
    script = tmp_path / "minimal_bot.py"
    script.write_text(source.group(1))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        code, host = await new_room(http, players=3, seed=9, bots=[{"kind": "greedy", "seat": 1}])
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            server.url,
            code,
            "Minnie",
            cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await seat_taken(http, code, 2)
            await start(http, code, host)
            r = await http.post(f"/api/rooms/{code}/seats/0/bot", json={"kind": "greedy"}, headers=bearer(host))
            assert r.status_code == 200, r.text
            out, err = await asyncio.wait_for(proc.communicate(), 120)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        hist = await history(http, code)
    assert proc.returncode == 0, out.decode() + err.decode()
    assert hist["status"] == "finished"
    assert f"winners: {hist['result']['winners']}" in out.decode()
