"""Crash soak: kill the server with SIGKILL again and again while games run, and check that no
acknowledged action is lost and none is applied twice.

    python -m bench.soak                      # 50 kills, SQLite
    python -m bench.soak --kills 5 --rooms 3
    python -m bench.soak --database-url postgresql://postgres@127.0.0.1:5432/test
    python -m bench.soak --signal term        # SIGTERM (a deploy's restart) instead of SIGKILL

It starts `python -m app` on a fresh SQLite file (or --database-url) and keeps --rooms games of
bots running over websockets (app.client's BotClient, which reconnects after a lost
connection and sends an unanswered action again with the same action_id). Each round it lets them
play a moment, waits until some game has a turn half picked (picks made and not yet revealed),
kills the server with SIGKILL and starts it again on the same database. A game that finishes is
replaced by a new room, so every kill falls in running games. After the last kill every game is
played to its end, and each game's log is read back through REST (`/game/history`):

- every action a client was told was stored (`accepted`, or `duplicate` for an action sent again)
  is in the log, at its step, for its seat, as sent;
- no seat has more steps in the log than decisions it sent (none applied twice), and the steps
  are numbered without gaps;
- every game finished.

With --signal term the server is stopped with SIGTERM instead, as a deploy or `docker stop` does:
the same checks, and each stop must end within 10 s (`stop_s_median`, `stop_s_max`; a stop that
needed SIGKILL counts in `stops_forced` and fails the run).

Prints one JSON line (kills, kills with picks pending, games, actions acknowledged, actions lost,
applied twice, ...); exit status 0 when nothing was lost, nothing applied twice and every game
finished.
"""

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.bots import make_bot
from app.client import BotClient, ClientError
from bench.live import AppProcess, free_port, sqlite_url

STOP_LIMIT_S = 10.0  # what `docker stop` grants before its SIGKILL


@dataclass
class SeatLedger:
    """What one seat's client sent and what the server answered, by action_id."""

    sent: dict[str, dict[str, Any]] = field(default_factory=dict)  # action_id -> action
    acked: dict[str, int] = field(default_factory=dict)  # action_id -> seq (accepted, or duplicate of)
    refused: set[str] = field(default_factory=set)  # not applied (stale, not_your_turn, ...)
    welcomed: int = -1  # the server start (AppProcess.starts) of its last welcome
    error: str | None = None  # the client stopped on an error


@dataclass
class SoakRoom:
    code: str
    tokens: dict[int, str]
    ledgers: dict[int, SeatLedger]
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)
    to_act: tuple[int, ...] = ()  # in the newest state any seat of the room received
    version: int = -1

    @property
    def done(self) -> bool:
        return all(task.done() for task in self.tasks)

    def picks_pending(self, players: int) -> bool:
        """A turn is half picked: some seats have chosen, the others not yet."""
        return 0 < len(self.to_act) < players


def seat_client(server: AppProcess, room: SoakRoom, seat: int, bot_kind: str) -> BotClient:
    bot = make_bot(bot_kind, seed=hash((room.code, seat)) & 0xFFFF)
    ledger = room.ledgers[seat]

    def on_send(message: dict[str, Any]) -> None:
        ledger.sent[message["action_id"]] = message["action"]

    def on_message(message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            ledger.welcomed = server.starts
        elif kind == "state" and message["version"] > room.version:
            room.version, room.to_act = message["version"], tuple(message["to_act"])
        elif kind == "accepted" and message.get("action_id") in ledger.sent:
            ledger.acked[message["action_id"]] = message["seq"]
        elif kind == "error" and message.get("action_id") in ledger.sent:
            seq = (message.get("details") or {}).get("seq")
            if message["code"] == "duplicate" and isinstance(seq, int):
                ledger.acked[message["action_id"]] = seq
            elif message["code"] not in ("busy", "database_down", "internal", "rate_limited"):
                ledger.refused.add(message["action_id"])

    return BotClient(
        server.url,
        room.code,
        room.tokens[seat],
        bot.choose,
        reconnect=True,
        retry_for=120,
        open_timeout=30,
        think_in_thread=False,
        on_message=on_message,
        on_send=on_send,
    )


async def play_seat(client: BotClient, ledger: SeatLedger) -> None:
    try:
        await client.run()
    except ClientError as exc:
        ledger.error = exc.message


async def open_room(http: httpx.AsyncClient, server: AppProcess, index: int, args: argparse.Namespace) -> SoakRoom:
    r = await http.post("/api/rooms", json={"name": f"s{index}-0", "players": args.players})
    r.raise_for_status()
    code, tokens = r.json()["code"], {0: r.json()["token"]}
    for seat in range(1, args.players):
        j = await http.post(f"/api/rooms/{code}/join", json={"name": f"s{index}-{seat}"})
        j.raise_for_status()
        tokens[j.json()["seat"]] = j.json()["token"]
    room = SoakRoom(code, tokens, {seat: SeatLedger() for seat in tokens})
    clients = {seat: seat_client(server, room, seat, args.bot) for seat in tokens}
    room.tasks = [asyncio.create_task(play_seat(clients[s], room.ledgers[s])) for s in tokens]
    r = await http.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
    r.raise_for_status()
    return room


async def top_up(http: httpx.AsyncClient, server: AppProcess, rooms: list[SoakRoom], args: argparse.Namespace) -> None:
    """Keep --rooms games running: open a new room for each one that finished."""
    live = sum(1 for room in rooms if not room.done)
    for _ in range(args.rooms - live):
        rooms.append(await open_room(http, server, len(rooms), args))


async def wait_for_reconnections(rooms: list[SoakRoom], server: AppProcess, limit: float) -> bool:
    """Every client of a running game is connected to the server as started last (welcomed)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(
            task.done() or ledger.welcomed == server.starts
            for room in rooms
            for task, ledger in zip(room.tasks, room.ledgers.values(), strict=True)
        ):
            return True
        await asyncio.sleep(0.05)
    return False


async def wait_for_pending_picks(rooms: list[SoakRoom], players: int, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if any(not room.done and room.picks_pending(players) for room in rooms):
            return True
        await asyncio.sleep(0.002)
    return False


@dataclass
class Check:
    games_finished: int = 0
    acknowledged: int = 0
    lost: int = 0
    applied_twice: int = 0
    unacknowledged_steps: int = 0  # stored, but the client never heard (only a game's very last step may be so)
    gaps: int = 0
    problems: list[str] = field(default_factory=list)


async def check_room(http: httpx.AsyncClient, room: SoakRoom, check: Check) -> None:
    """The room's game, read back through REST, against what its clients were told (the actions
    themselves are compared once the game is over: only then does the history show them)."""
    history = (await http.get(f"/api/rooms/{room.code}/game/history")).json()
    if history.get("status") != "finished" or not history.get("result"):
        check.problems.append(f"room {room.code}: the game is {history.get('status')}, not finished")
    else:
        check.games_finished += 1
    steps = history.get("steps", [])
    if [s["seq"] for s in steps] != list(range(len(steps))):
        check.gaps += 1
        check.problems.append(f"room {room.code}: the steps are not numbered 0..{len(steps) - 1}")
    by_seq = {s["seq"]: s for s in steps}
    for seat, ledger in room.ledgers.items():
        if ledger.error:
            check.problems.append(f"room {room.code} seat {seat}: the client stopped: {ledger.error}")
        acked_seqs = set()
        for action_id, seq in ledger.acked.items():
            check.acknowledged += 1
            acked_seqs.add(seq)
            step = by_seq.get(seq)
            if step is None or step["seat"] != seat:
                check.lost += 1
                check.problems.append(f"room {room.code} seat {seat}: acknowledged step {seq} is not in the log")
            elif step.get("action") is not None and not same_decision(step["action"], ledger.sent[action_id]):
                check.lost += 1
                check.problems.append(f"room {room.code} seat {seat}: step {seq} is not the acknowledged action")
        mine = [s for s in steps if s["seat"] == seat]
        decisions = len(set(ledger.sent) - ledger.refused)
        if len(mine) > decisions:
            check.applied_twice += len(mine) - decisions
            check.problems.append(
                f"room {room.code} seat {seat}: {len(mine)} steps in the log from {decisions} decisions"
            )
        check.unacknowledged_steps += sum(1 for s in mine if s["seq"] not in acked_seqs)


DERIVED = {"cost", "free"}  # what a listed legal action says of itself that its stored form leaves out


def same_decision(stored: dict[str, Any], sent: dict[str, Any]) -> bool:
    """The log keeps the engine's canonical form of an action: the sent action without what the
    engine derives (its `cost`, why it is `free`, a trade with nobody). Every stored field must be
    the one sent."""
    extra = set(sent) - set(stored)
    if any(sent[k] != v for k, v in stored.items()):
        return False
    return all(k in DERIVED or (k == "trade" and not any(sent[k].values())) for k in extra)


async def soak(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        database_url = args.database_url or sqlite_url(Path(tmp) / "soak.db")
        server = AppProcess(database_url, free_port(), Path(args.server_log), start_timeout=300)
        await asyncio.to_thread(server.start)
        rooms: list[SoakRoom] = []
        kills = pending_at_kill = not_back = stops_forced = 0
        stop_times: list[float] = []
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                for _ in range(args.kills):
                    await top_up(http, server, rooms, args)
                    # a client whose very first handshake fails takes the server for a wrong URL and
                    # stops: the clients of new rooms connect before anything is killed
                    if not await wait_for_reconnections(rooms, server, 120):
                        not_back += 1
                    await asyncio.sleep(rng.uniform(args.min_play_s, args.max_play_s))
                    for _attempt in range(10):  # games may end meanwhile: new ones replace them
                        await top_up(http, server, rooms, args)
                        await wait_for_reconnections(rooms, server, 120)
                        if await wait_for_pending_picks(rooms, args.players, 2):
                            pending_at_kill += 1
                            break
                    if args.signal == "term":
                        stop_s = await asyncio.to_thread(server.terminate, STOP_LIMIT_S)
                        if stop_s is None:
                            stops_forced += 1
                        else:
                            stop_times.append(stop_s)
                    else:
                        await asyncio.to_thread(server.kill)
                    kills += 1
                    await asyncio.sleep(rng.uniform(0, args.max_down_s))
                    t0 = time.perf_counter()
                    await asyncio.to_thread(server.start)
                    restarted = time.perf_counter() - t0
                    # the next kill falls on a full house: every client back (they reconnect with backoff)
                    if not await wait_for_reconnections(rooms, server, 120):
                        not_back += 1
                    if args.verbose:
                        print(
                            f"kill {kills}: restarted in {restarted:.2f} s, clients back after"
                            f" {time.perf_counter() - t0:.2f} s",
                            file=sys.stderr,
                        )
                tasks = [task for room in rooms for task in room.tasks]
                _done, not_done = await asyncio.wait(tasks, timeout=args.timeout) if tasks else (set(), set())
                for task in not_done:
                    task.cancel()
                check = Check()
                for room in rooms:
                    await check_room(http, room, check)
                if not_back:
                    check.problems.append(f"{not_back} time(s) some clients were not connected within 120 s")
                if not_done:
                    check.problems.append(f"{len(not_done)} seat(s) had not finished after {args.timeout:g} s")
                if stops_forced:
                    forced = f"{stops_forced} SIGTERM(s) did not stop the server within {STOP_LIMIT_S:g} s"
                    check.problems.append(forced)
        finally:
            for room in rooms:
                for task in room.tasks:
                    task.cancel()
            await asyncio.gather(*(t for room in rooms for t in room.tasks), return_exceptions=True)
            await asyncio.to_thread(server.stop)
    result: dict[str, Any] = {
        "signal": args.signal,
        "kills": kills,
        "kills_with_picks_pending": pending_at_kill,
        "games": len(rooms),
        "games_finished": check.games_finished,
        "actions_acknowledged": check.acknowledged,
        "actions_lost": check.lost,
        "applied_twice": check.applied_twice,
        "steps_with_gaps": check.gaps,
        "unacknowledged_steps": check.unacknowledged_steps,
        "server_starts": server.starts,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "problems": check.problems[:20],
    }
    if args.signal == "term":
        result["stops_forced"] = stops_forced
        result["stop_s_median"] = round(statistics.median(stop_times), 2) if stop_times else None
        result["stop_s_max"] = round(max(stop_times), 2) if stop_times else None
    return result


def ok(result: dict[str, Any]) -> bool:
    return (
        result["actions_lost"] == 0
        and result["applied_twice"] == 0
        and result["steps_with_gaps"] == 0
        and result["games_finished"] == result["games"]
        and not result["problems"]
    )


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument(
        "--signal",
        choices=["kill", "term"],
        default="kill",
        help="kill: SIGKILL, a crash; term: SIGTERM, a deploy's stop (the server shuts down on its own; "
        f"killed if it takes over {STOP_LIMIT_S:g} s, counted in stops_forced)",
    )
    parser.add_argument("--rooms", type=int, default=4, help="games kept running at once")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="greedy", help="random, greedy or heuristic")
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--min-play-s", type=float, default=0.1, help="least play between a restart and the next kill")
    parser.add_argument("--max-play-s", type=float, default=1.0, help="most play between a restart and the next kill")
    parser.add_argument("--max-down-s", type=float, default=0.5, help="most time the server stays down")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the games to finish after the kills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print each kill to stderr")
    parser.add_argument("--server-log", default=str(Path(tempfile.gettempdir()) / "wonders-soak-server.log"))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    result = asyncio.run(soak(args))
    print(json.dumps(result))
    return 0 if ok(result) else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
