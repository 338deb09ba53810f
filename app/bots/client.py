"""A bot client for any server: join a room over REST and play one seat over the websocket.

    python -m app.bots.client http://127.0.0.1:8000 EHY8PJU --name Robo --bot heuristic
    python -m app.bots.client http://127.0.0.1:8000 EHY8PJU --token SEAT_TOKEN -v
    python -m app.bots.client http://127.0.0.1:8000 --rejoin-link 'http://127.0.0.1:8000/room.html?code=EHY8PJU&rejoin=...'

It plays the room's running game, or the next one the host starts, to its end: one line per notable
event, the score sheet at the end, exit status 0 when the game finished (1 on an error or an
abandoned game, 2 for bad arguments). A dropped connection (the server restarting, the network
going away) is reconnected with backoff, and an action whose answer was lost is sent again with the
same `action_id` (the server never applies it twice). See docs/BOTS.md.

From Python, with a bot of app.bots or a function of your own:

    from app.bots.client import run_bot

    def choose(view, legal_actions):
        return legal_actions[0]

    outcome = run_bot("http://127.0.0.1:8000", "EHY8PJU", choose, name="First")
    print(outcome.status, outcome.result)

`play(...)` is the same as a coroutine; `BotClient` is the websocket loop itself, for a seat token
you already hold (bench.server_load plays every seat of its rooms with it).
"""

import argparse
import asyncio
import contextlib
import inspect
import json
import random
import secrets
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn
from urllib.parse import parse_qs, urlsplit

import httpx
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from app.bots import BOTS, DEFAULT_BOT, Bot, make_bot
from app.engine import Action

View = dict[str, Any]
Choose = Callable[[View, list[Action]], Action | Awaitable[Action]]
Log = Callable[[str], None]

# errors after which this seat cannot play on: the token, the room or the seat is gone
FATAL_ERRORS = {"bad_token", "missing_token", "room_not_found", "seat_lost", "spectators_off", "spectator"}
# close codes that say the same (4401 bad token, 4403 seat lost, 4404 no room, 1008 refused, 1009 too large)
FATAL_CLOSES = {4401, 4403, 4404, 1008, 1009}
# "try again": the same message, with the same action_id, after a pause
RETRY_ERRORS = {"busy", "database_down", "internal"}
# nothing was applied and the situation moved on: choose again on the next state
WAIT_ERRORS = {"stale", "not_your_turn", "bad_version"}

REPLY_TIMEOUT = 20.0  # no accepted/error for this long: send the same action (same action_id) again
RETRY_PAUSE = 1.0  # after busy, database_down, internal or rate_limited
RESYNC_AFTER = 5.0  # after stale/not_your_turn, ask for the state again if no newer one came
MAX_BACKOFF = 10.0
LAST_ANSWER_WAIT = 2.0  # the game is over: how long to wait for the answer to our last action


class ClientError(Exception):
    """The client cannot go on: one sentence saying why (and the server's error code, if any)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class Seat:
    """A seat token and what it holds: what joining (or a rejoin link) answers."""

    code: str
    token: str
    seat: int | None = None
    name: str | None = None


@dataclass
class Outcome:
    """How the client's game ended."""

    code: str
    seat: int | None
    token: str
    status: str = "running"  # finished, abandoned (the room was closed unused) or closed (no game was played)
    game_id: int | None = None
    result: dict[str, Any] | None = None  # the score sheet of a finished game
    version: int = 0  # the game's last version seen
    seqs: list[int] = field(default_factory=list)  # the step numbers of this seat's own accepted actions
    duplicates: int = 0  # actions sent again after a lost answer, which the server had applied already
    reconnects: int = 0
    timeouts: int = 0  # decisions the server made for this seat when its clock ran out
    names: dict[int, str | None] = field(default_factory=dict)

    @property
    def actions(self) -> int:
        return len(self.seqs)


# ----- URLs and REST ---------------------------------------------------------------------------


def http_url(url: str) -> str:
    """The server's base URL: `http://host:port` (ws:// and wss:// are accepted too; no path)."""
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    scheme, rest = url.split("://", 1)
    scheme = {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme.lower())
    if scheme not in ("http", "https"):
        raise ClientError(f"the server URL must start with http:// or https://, not {url!r}")
    return f"{scheme}://{rest}"


def ws_url(url: str, code: str) -> str:
    base = http_url(url)
    return ("wss://" if base.startswith("https://") else "ws://") + base.split("://", 1)[1] + f"/ws/rooms/{code}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _refused(response: httpx.Response, doing: str) -> ClientError:
    try:
        error = response.json()["error"]
        return ClientError(f"{doing}: {error['message']} ({error['code']})", error["code"])
    except (ValueError, KeyError, TypeError):
        return ClientError(f"{doing}: the server answered HTTP {response.status_code}")


async def _request(http: httpx.AsyncClient, method: str, path: str, doing: str, **kwargs: Any) -> Any:
    try:
        response = await http.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        raise ClientError(f"{doing}: cannot reach {http.base_url}: {_reason(exc)}") from None
    if response.status_code >= 400:
        raise _refused(response, doing)
    try:
        return response.json()
    except ValueError:
        raise ClientError(f"{doing}: {http.base_url} does not answer like a Wonders server") from None


def _reason(exc: BaseException) -> str:
    """Why a connection failed, in a few words (httpx and websockets wrap the OS's own error)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        if isinstance(seen, socket.gaierror):
            return "unknown host"
        if isinstance(seen, httpx.TimeoutException | TimeoutError):
            return "timed out"
        seen = seen.__cause__ or seen.__context__
    return str(exc) or type(exc).__name__


async def join(http: httpx.AsyncClient, code: str, name: str, seat: int | None = None) -> Seat:
    """`POST /api/rooms/{code}/join`: a free seat, `seat` if it is free, else the first free one."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    try:
        joined = await _request(http, "POST", f"/api/rooms/{code}/join", f"cannot join room {code}", json=body)
    except ClientError as exc:
        if seat is None or exc.code != "seat_taken":
            raise
        joined = await _request(
            http, "POST", f"/api/rooms/{code}/join", f"cannot join room {code}", json={"name": name}
        )
    return Seat(joined["code"], joined["token"], joined["seat"], name)


def parse_rejoin_link(link: str) -> tuple[str | None, str]:
    """(room code, token) of a rejoin link (`.../room.html?code=ABC&rejoin=TOKEN`), or (None, link)
    when it is the bare token."""
    query = parse_qs(urlsplit(link).query)
    if "rejoin" in query:
        return (query.get("code") or [None])[0], query["rejoin"][0]
    return None, link.strip()


async def rejoin(http: httpx.AsyncClient, code: str, link_token: str) -> Seat:
    """`POST /api/rooms/{code}/rejoin`: the link's seat moves here (its old token stops working)."""
    joined = await _request(
        http, "POST", f"/api/rooms/{code}/rejoin", "cannot use the rejoin link", json={"token": link_token}
    )
    return Seat(joined["code"], joined["token"], joined["seat"])


# ----- bots and what they print ----------------------------------------------------------------


def as_chooser(choose: "Choose | Bot | str | None", seed: int | None = None) -> Choose:
    """A function (view, legal_actions) -> action from a bot kind of app.bots ("heuristic", ...),
    a Bot, or such a function (plain or async)."""
    if choose is None:
        choose = DEFAULT_BOT
    if isinstance(choose, str):
        try:
            return make_bot(choose, seed).choose
        except ValueError as exc:
            raise ClientError(str(exc)) from None
    if isinstance(choose, Bot):
        return choose.choose
    if not callable(choose):
        raise ClientError(f"choose must be a bot kind, a Bot or a function, not {type(choose).__name__}")
    return choose


def describe(action: Action) -> str:
    """A short line for an action: `build Loom (pays 2)`, `wonder stage 1 with Baths`, ..."""
    kind = action.get("type", "?")
    words = [str(kind)]
    if kind == "wonder" and "stage" in action:
        words.append(f"stage {action['stage']}")
    for key in ("wonder", "card", "island", "token", "seat"):
        if key in action and not (kind == "wonder" and key == "card"):
            words.append(str(action[key]))
    if kind == "wonder" and "card" in action:
        words.append(f"with {action['card']}")
    cost = action.get("cost")
    paid = sum(v for v in cost.values() if isinstance(v, int)) if isinstance(cost, dict) else cost
    if isinstance(paid, int) and paid:
        words.append(f"(pays {paid})")
    if action.get("free"):
        words.append(f"(free: {action['free']})")
    if action.get("naval"):
        words.append("+ naval step")
    if action.get("moves"):
        words.append("moving " + ", ".join(action["moves"]))
    if action.get("reward"):
        words.append(f"for the {action['reward']} ship")
    return " ".join(words)


def score_sheet(result: dict[str, Any], names: dict[int, str | None]) -> list[str]:
    """The score sheet as lines of a table: one per seat, by category, and the winners."""
    categories = list(result.get("categories") or [])
    scores = result.get("scores") or []

    def who(seat: int) -> str:
        return f"{names.get(seat) or 'seat ' + str(seat)} (seat {seat})"

    header = ["seat", "name", *categories, "total"]
    rows = [
        [
            str(s.get("seat")),
            str(names.get(s.get("seat")) or ""),
            *(str(s.get("categories", {}).get(c, "")) for c in categories),
            str(s.get("total", "")),
        ]
        for s in scores
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths, strict=True)))
        for r in [header, *rows]
    ]
    winners = result.get("winners") or []
    victory = f" ({result['victory']} victory)" if result.get("victory") else ""
    lines.append(("winner: " if len(winners) == 1 else "winners: ") + ", ".join(who(w) for w in winners) + victory)
    return lines


# ----- the websocket loop ----------------------------------------------------------------------


class _Reconnect(Exception):
    """The connection is unusable: drop it and connect again."""


async def received(ws: Any) -> Any | None:
    """A message already here, or None: no waiting."""
    try:
        async with asyncio.timeout(0):
            return await ws.recv()
    except TimeoutError:
        return None


class Alarm:
    """`receive`: the next message, or None if none came within the timeout. Like an
    `asyncio.timeout` around each receive, but with one timer for as long as the deadline does not
    come nearer (a timer set and cancelled for each message was a fifth of a bot client's time)."""

    def __init__(self) -> None:
        self.due: float | None = None  # the deadline of the receive in progress (event loop time)
        self.timer: asyncio.TimerHandle | None = None
        self.timer_at = 0.0
        self.task: asyncio.Task[Any] | None = None
        self.rang = False

    async def receive(self, ws: Any, within: float | None) -> Any | None:
        if within is None:
            return await ws.recv()
        if within <= 0:
            return await received(ws)
        loop = asyncio.get_running_loop()
        self.due = loop.time() + within
        if self.timer is None or self.timer_at > self.due:
            self._set(loop, self.due)
        self.task = asyncio.current_task()
        try:
            return await ws.recv()
        except asyncio.CancelledError:
            rang, self.rang = self.rang, False
            assert self.task is not None
            if not rang or self.task.uncancel() > 0:  # cancelled by someone else (too)
                raise
            return None
        finally:
            self.due = self.task = None

    def _set(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer, self.timer_at = loop.call_at(when, self._ring), when

    def _ring(self) -> None:
        self.timer = None
        if self.due is None or self.task is None:  # no receive with a deadline in progress
            return
        loop = asyncio.get_running_loop()
        if self.due > loop.time():  # the deadline moved on since the timer was set
            self._set(loop, self.due)
            return
        self.rang = True
        self.task.cancel()


class BotClient:
    """Plays one seat (its token) of room `code` on the server at `url` until its game ends.

    `choose(view, legal_actions)` returns one of the legal actions (it may be `async`); a plain
    function runs in a thread (`think_in_thread`) so a slow bot does not stall the connection.
    `log` gets one line per notable event (`verbose`: every decision too). `on_message(message)` sees
    every message from the server and `on_send(message)` every action sent (bench.server_load measures
    with them). With `reconnect`, a lost connection is opened again (backoff up to 10 s) for up to
    `retry_for` seconds; without, it is a ClientError.
    """

    def __init__(
        self,
        url: str,
        code: str,
        token: str,
        choose: Choose,
        *,
        log: Log | None = None,
        verbose: bool = False,
        reconnect: bool = True,
        retry_for: float = 300.0,
        open_timeout: float = 30.0,
        think_in_thread: bool = True,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        on_send: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.url = http_url(url)
        self.code = code
        self.token = token
        self.choose = choose
        self.log = log or (lambda _line: None)
        self.verbose = verbose
        self.reconnect = reconnect
        self.retry_for = retry_for
        self.open_timeout = open_timeout
        self.think_in_thread = think_in_thread
        self.on_message = on_message
        self.on_send = on_send
        self.outcome = Outcome(code=code, seat=None, token=token)
        self._id_prefix = secrets.token_hex(6)  # action ids unique across restarts of the client too
        self._ids = 0
        self._http: httpx.AsyncClient | None = None
        # the game this client plays: the one running when it connects, or the next one started
        self.game_id: int | None = None
        self.latest: dict[str, Any] | None = None  # the newest state of that game
        self.floor = 0  # states older than the version right after our last accepted action are out of date
        self.acted_on = -1  # the newest version we chose an action on (never twice on one version)
        self.pending: dict[str, Any] | None = None  # the action sent and not yet answered
        self.pending_at = 0.0
        self.retry_at: float | None = None  # when to send `pending` again (retry errors, rate limits)
        self.fallback_used = -1  # the version we fell back to a legal action on after a refusal
        self.waiting_since: float | None = None  # a stale answer: when we began waiting for a newer state
        self.host_bot = False  # the host handed our seat to a bot: we leave it to them
        self.taking_back = False
        self.told_waiting = False
        self.connections = 0
        self.welcomed = False  # the current connection got its `welcome`
        self.room: dict[str, Any] | None = None

    # ----- connections ---------------------------------------------------------------------------

    async def run(self) -> Outcome:
        down_since: float | None = None
        attempt = 0
        try:
            while True:
                reason = "closed"
                self.welcomed = False
                try:
                    async with websockets.connect(
                        ws_url(self.url, self.code),
                        additional_headers=bearer(self.token),
                        max_size=2**24,
                        max_queue=None,  # keep reading while the bot thinks (pings are answered meanwhile)
                        open_timeout=self.open_timeout,
                    ) as ws:
                        done = await self._session(ws)
                        if done is not None:
                            self._report(done)
                            return done
                except ConnectionClosed as exc:
                    close = exc.rcvd
                    if close is not None and close.code in FATAL_CLOSES:
                        raise ClientError(
                            f"the server closed the connection: {close.reason or 'refused'} (code {close.code})",
                            close.reason or None,
                        ) from None
                    reason = f"code {close.code}" if close is not None else "no close frame"
                except _Reconnect as exc:
                    reason = str(exc)
                except InvalidHandshake as exc:
                    if not self.connections:  # not a Wonders websocket at all (a wrong URL)
                        raise ClientError(f"{ws_url(self.url, self.code)} refused the websocket: {exc}") from None
                    reason = _reason(exc)
                except (OSError, TimeoutError) as exc:
                    reason = _reason(exc)
                if self.welcomed:  # that connection worked: start the backoff afresh
                    attempt, down_since = 0, None
                if not self.reconnect:
                    raise ClientError(f"the connection to {self.url} was lost ({reason})")
                now = time.monotonic()
                down_since = down_since or now
                if now - down_since > self.retry_for:
                    raise ClientError(f"gave up: no connection to {self.url} for {self.retry_for:g} s (last: {reason})")
                delay = min(MAX_BACKOFF, 0.5 * 2**attempt) * random.uniform(0.8, 1.2)
                attempt += 1
                self.log(f"connection lost ({reason}); reconnecting in {delay:.1f} s")
                await asyncio.sleep(delay)
        finally:
            if self._http is not None:
                await self._http.aclose()

    async def _session(self, ws: Any) -> Outcome | None:
        self.ws = ws
        self.resend = self.pending is not None  # its answer may be lost: send it again on the first state
        alarm = Alarm()
        while True:
            raw = await alarm.receive(ws, self._quiet_timeout())
            if raw is None:
                await self._on_quiet()
                continue
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if self.on_message is not None:
                self.on_message(message)
            done = await self._handle(message) or await self._maybe_act()
            if done is not None:
                if self.pending is not None and not self.resend:  # sent on this connection
                    await self._last_answer(ws)
                return done

    async def _last_answer(self, ws: Any) -> None:
        """The game ended on our own action, whose `accepted` may come after the end: wait for it a moment."""
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout(LAST_ANSWER_WAIT):
                while self.pending is not None:
                    message = json.loads(await ws.recv())
                    if self.on_message is not None:
                        self.on_message(message)
                    if message.get("action_id") == self.pending["action_id"]:
                        seq = message["seq"] if "seq" in message else (message.get("details") or {}).get("seq")
                        applied = message["type"] == "accepted" or message.get("code") == "duplicate"
                        if applied and isinstance(seq, int):
                            self._applied(seq)
                        else:
                            self.pending = None

    def _quiet_timeout(self) -> float | None:
        """How long to wait for a message before doing something about the silence."""
        now = time.monotonic()
        if self.pending is not None:
            due = self.retry_at if self.retry_at is not None else self.pending_at + REPLY_TIMEOUT
            return due - now
        if self.waiting_since is not None:
            return self.waiting_since + RESYNC_AFTER - now
        return None

    async def _on_quiet(self) -> None:
        if self.pending is not None:  # no answer (or a retry is due): the same action, the same action_id
            self.retry_at = None
            await self._send(self.pending)
        elif self.waiting_since is not None:
            self.waiting_since = None
            await self.ws.send(json.dumps({"type": "sync"}))

    # ----- messages -------------------------------------------------------------------------------

    async def _handle(self, message: dict[str, Any]) -> Outcome | None:
        kind = message.get("type")
        if kind == "welcome":
            return await self._welcome(message)
        if kind == "room":
            return await self._room(message["room"])
        if kind == "state":
            return await self._state(message)
        if kind == "game_over":
            if message["game_id"] == self.game_id:
                return self._finish("finished", message["result"], message["version"])
        elif kind == "accepted":
            if self.pending is not None and message.get("action_id") == self.pending["action_id"]:
                self._applied(message["seq"])
        elif kind == "error":
            return await self._error(message)
        elif kind == "timeout" and message["game_id"] == self.game_id and message["seat"] == self.outcome.seat:
            self.outcome.timeouts += 1
            self.log(
                f"the clock ran out: the server's {message['bot']} bot decided for seat {message['seat']} "
                f"(step {message['version'] - 1})"
            )
        return None

    async def _welcome(self, message: dict[str, Any]) -> Outcome | None:
        seat = message["seat"]
        if seat is None:
            raise ClientError("the token holds no seat in this room: the server took it as a spectator")
        self.outcome.seat = seat
        self.connections += 1
        self.welcomed = True
        room = message["room"]
        name = next((s["name"] for s in room["seats"] if s["seat"] == seat), None)
        if self.connections == 1:
            self.log(f"connected to room {room['code']} as seat {seat} ({name})")
        else:
            self.outcome.reconnects += 1
            self.log(f"reconnected to room {room['code']} as seat {seat}")
        return await self._room(room)

    async def _room(self, room: dict[str, Any]) -> Outcome | None:
        self.room = room
        self.outcome.names = {s["seat"]: s["name"] for s in room["seats"]}
        if room["status"] == "closed":
            if self.game_id is not None:
                return self._finish("abandoned", None, self.outcome.version)
            self.log(f"room {room['code']} is closed: no game to play")
            return self._finish("closed", None, 0)
        game = room.get("game")
        if self.game_id is None and not self.told_waiting and (game is None or game["status"] != "running"):
            self.told_waiting = True
            taken = sum(s["kind"] != "free" for s in room["seats"])
            self.log(f"waiting for the host to start the game ({taken} of {len(room['seats'])} seats taken)")
        me = next((s for s in room["seats"] if s["seat"] == self.outcome.seat), None)
        plays = me.get("bot_plays") if me is not None and room["status"] == "playing" else None
        if plays is None:
            if self.host_bot:
                self.log(f"the host gave seat {self.outcome.seat} back: playing it again")
            self.host_bot = self.taking_back = False
        elif me is not None and me.get("bot_reason") == "host":
            if not self.host_bot:
                self.log(
                    f"the host handed seat {self.outcome.seat} to a {plays} bot: "
                    "leaving it to that bot until the host gives it back"
                )
            self.host_bot = True
        elif not self.taking_back:
            self.taking_back = True
            self.log(
                f"a {plays} bot plays seat {self.outcome.seat} for us ({me and me.get('bot_reason')}): taking it back"
            )
            await self._come_back()
        return None

    async def _come_back(self) -> None:
        """`POST /api/rooms/{code}/seats/{seat}/back`: "I'm back" (acting on the seat would do too)."""
        if self._http is None:
            self._http = httpx.AsyncClient(base_url=self.url, timeout=30)
        try:
            await _request(
                self._http,
                "POST",
                f"/api/rooms/{self.code}/seats/{self.outcome.seat}/back",
                "cannot take the seat back",
                headers=bearer(self.token),
            )
        except ClientError as exc:  # our next action takes it back anyway
            self.log(f"{exc.message}; the next action will")

    async def _state(self, state: dict[str, Any]) -> Outcome | None:
        if state["game_id"] != self.game_id:
            if self.game_id is not None:  # ours ended while we were away, and another one began
                return self._finish("finished", await self._result_of(self.game_id), self.outcome.version)
            if state["status"] != "running":
                return None  # an earlier game of the room: wait for the next one
            self.game_id = state["game_id"]
            self.outcome.game_id = self.game_id
            settings = (self.room or {}).get("settings", {})
            what = settings.get("game", "game")
            if settings.get("expansions"):
                what += " with " + ", ".join(settings["expansions"])
            where = "started" if self.told_waiting or not state["version"] else f"running, at step {state['version']}"
            players = settings.get("players", len(state["view"].get("players") or []))
            self.log(f"game {self.game_id} {where}: {what}, {players} players, playing seat {self.outcome.seat}")
        self.latest = state
        self.outcome.version = state["version"]
        if state["status"] == "finished":
            return self._finish("finished", state.get("result"), state["version"])
        if state["status"] == "abandoned":
            return self._finish("abandoned", None, state["version"])
        if self.waiting_since is not None and self.pending is None and state["version"] > self.acted_on:
            self.waiting_since = None
        if self.resend and self.pending is not None:
            self.resend = False
            if self.verbose:
                self.log(f"sending action {self.pending['action_id']} again: its answer was lost")
            await self._send(self.pending)
        self.resend = False
        return None

    async def _result_of(self, game_id: int) -> dict[str, Any] | None:
        if self._http is None:
            self._http = httpx.AsyncClient(base_url=self.url, timeout=30)
        try:
            body = await _request(
                self._http,
                "GET",
                f"/api/rooms/{self.code}/game/result",
                "cannot read the result",
                params={"game": game_id},
                headers=bearer(self.token),
            )
        except ClientError:
            return None
        return body.get("result")

    async def _error(self, message: dict[str, Any]) -> Outcome | None:
        code = message.get("code")
        text = message.get("message", "")
        if code in FATAL_ERRORS:
            raise ClientError(f"{text} ({code})", code)
        pending = self.pending
        if pending is None or message.get("action_id") != pending["action_id"]:
            if code == "rate_limited" and pending is not None:  # our action may have been dropped
                self.retry_at = time.monotonic() + RETRY_PAUSE
            elif code in ("too_many_connections", "room_busy"):
                raise _Reconnect(text)
            elif code not in ("stale", "duplicate"):  # a late answer to an action sent twice is no news
                self.log(f"server error: {text} ({code})")
            return None
        if code == "duplicate":  # it had been applied (the answer was lost): it counts once
            details = message.get("details") or {}
            seq = details.get("seq")
            self.outcome.duplicates += 1
            if isinstance(seq, int):
                self._applied(seq)
            else:
                self.pending = None
            if self.verbose:
                self.log(f"action {pending['action_id']} had already been applied as step {seq}")
        elif code in WAIT_ERRORS:
            self.pending = None
            self.waiting_since = time.monotonic()
            if self.verbose:
                self.log(f"{code}: waiting for the next state")
        elif code in RETRY_ERRORS:
            self.retry_at = time.monotonic() + RETRY_PAUSE
            self.log(f"the server is busy ({code}); sending the action again")
        elif code == "game_over":
            self.pending = None
            await self.ws.send(json.dumps({"type": "sync"}))  # the final state, with the score sheet
        elif code == "game_abandoned":
            return self._finish("abandoned", None, self.outcome.version)
        else:  # illegal_action, bad_message, no_game, ...: the bot chose badly; fall back to a legal action
            self.pending = None
            self.log(f"the action was refused: {text} ({code})")
            state = self.latest
            if (
                state is not None
                and state["version"] == pending["version"]
                and state["legal_actions"]
                and self.fallback_used != state["version"]
            ):
                self.fallback_used = state["version"]
                action = state["legal_actions"][0]
                self.log(f"playing a legal action instead: {describe(action)}")
                await self._send(self._action_message(action, state["version"]))
            else:
                self.waiting_since = time.monotonic()
        return None

    def _applied(self, seq: int) -> None:
        self.pending = None
        self.retry_at = None
        self.floor = max(self.floor, seq + 1)  # `accepted.version` is always seq + 1
        if seq not in self.outcome.seqs:
            self.outcome.seqs.append(seq)

    def _finish(self, status: str, result: dict[str, Any] | None, version: int) -> Outcome:
        outcome = self.outcome
        outcome.status, outcome.result, outcome.version = status, result, version
        return outcome

    def _report(self, outcome: Outcome) -> None:
        status, result, version = outcome.status, outcome.result, outcome.version
        if status == "finished":
            self.log(
                f"game {self.game_id} is over after {version} steps "
                f"({outcome.actions} actions of seat {outcome.seat}, {outcome.reconnects} reconnections)"
            )
            if result:
                for line in score_sheet(result, outcome.names):
                    self.log(line)
        elif status == "abandoned":
            self.log(f"game {self.game_id} was abandoned: the room was closed unused")

    # ----- acting ---------------------------------------------------------------------------------

    async def _maybe_act(self) -> Outcome | None:
        state = self.latest
        if state is None or self.pending is not None or self.host_bot or state["status"] != "running":
            return None
        version = state["version"]
        if self.outcome.seat not in state["to_act"] or not state["legal_actions"]:
            return None
        if version < self.floor or version <= self.acted_on:
            return None
        action = await self._think(state["view"], state["legal_actions"])
        # what came while the bot thought: the game may be over, or the host handed the seat to a bot
        done = await self._drain()
        if done is not None:
            return done
        if self.host_bot:
            self.log(f"not sending the choice for step {version}: the host handed the seat to a bot meanwhile")
            return None
        self.acted_on = version
        self.waiting_since = None
        if self.verbose:
            self.log(f"step {version}: {describe(action)}")
        await self._send(self._action_message(action, version))
        return None

    async def _drain(self) -> Outcome | None:
        """Handle the messages already here, without waiting for more."""
        while True:
            raw = await received(self.ws)
            if raw is None:
                return None
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if self.on_message is not None:
                self.on_message(message)
            done = await self._handle(message)
            if done is not None:
                return done

    async def _think(self, view: View, legal_actions: list[Action]) -> Action:
        if inspect.iscoroutinefunction(self.choose):
            return await self.choose(view, legal_actions)
        if self.think_in_thread:
            action = await asyncio.to_thread(self.choose, view, legal_actions)
        else:
            action = self.choose(view, legal_actions)
        if inspect.isawaitable(action):
            action = await action
        return action  # type: ignore[return-value]

    def _action_message(self, action: Action, version: int) -> dict[str, Any]:
        self._ids += 1
        return {"type": "action", "action": action, "version": version, "action_id": f"{self._id_prefix}-{self._ids}"}

    async def _send(self, message: dict[str, Any]) -> None:
        self.pending = message
        self.pending_at = time.monotonic()
        if self.on_send is not None:
            self.on_send(message)
        await self.ws.send(json.dumps(message))


# ----- the Python API ----------------------------------------------------------------------------


async def play(
    url: str,
    code: str | None = None,
    choose: "Choose | Bot | str | None" = None,
    *,
    name: str | None = None,
    seat: int | None = None,
    token: str | None = None,
    rejoin_link: str | None = None,
    seed: int | None = None,
    log: Log | None = print,
    verbose: bool = False,
    retry_for: float = 300.0,
) -> Outcome:
    """Take a seat of room `code` and play it to the game's end with `choose`: a bot kind of app.bots
    (the default: heuristic), a Bot, or a function (view, legal_actions) -> action (plain or async).

    The seat: join with `name` (and a preferred free `seat`), or play the one `token` holds, or
    the one a `rejoin_link` (the link's URL or its token) moves here. Raises ClientError when it
    cannot (the message says why)."""
    chooser = as_chooser(choose, seed)
    base = http_url(url)
    if rejoin_link is not None:
        link_code, link_token = parse_rejoin_link(rejoin_link)
        code = code or link_code
    if not code:
        raise ClientError("which room? give its code")
    say = log or (lambda _line: None)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        if rejoin_link is not None:
            held = await rejoin(http, code, link_token)
            say(f"took seat {held.seat} of room {held.code} with the rejoin link")
        elif token is not None:
            await _request(http, "GET", f"/api/rooms/{code}", f"cannot read room {code}")
            held = Seat(code, token)
        else:
            held = await join(http, code, name or "Bot client", seat)
            if seat is not None and held.seat != seat:
                say(f"seat {seat} is taken")
            say(f"joined room {held.code} as seat {held.seat} ({held.name})")
    client = BotClient(base, held.code, held.token, chooser, log=log, verbose=verbose, retry_for=retry_for)
    return await client.run()


def run_bot(
    url: str,
    code: str | None = None,
    choose: "Choose | Bot | str | None" = None,
    **options: Any,
) -> Outcome:
    """`play(...)` for code that is not async: runs it to the end in a new event loop."""
    return asyncio.run(play(url, code, choose, **options))


# ----- the command line ----------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not the usage block
        self.exit(2, f"error: {message} (see --help)\n")


def _arguments() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m app.bots.client",
        description="Join a room of a Wonders server and play one seat with a bot until the game ends.",
        epilog="Exit status: 0 when the game finished, 1 on an error or an abandoned game, 2 for bad arguments.",
    )
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("code", nargs="?", help="the room code (not needed with a --rejoin-link URL)")
    parser.add_argument("--name", help="the seat's name when joining (default: '<Bot> client')")
    parser.add_argument(
        "--bot", default=DEFAULT_BOT, help=f"the bot that plays: {', '.join(BOTS)} (default {DEFAULT_BOT})"
    )
    parser.add_argument("--seed", type=int, help="the bot's own random seed")
    parser.add_argument("--seat", type=int, help="a preferred free seat (else the first free one)")
    held = parser.add_mutually_exclusive_group()
    held.add_argument("--token", help="play the seat this token holds instead of joining")
    held.add_argument("--rejoin-link", help="take a seat with the server's rejoin link (its URL, or its token)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every decision")
    parser.add_argument(
        "--retry-for", type=float, default=300.0, help="seconds to keep reconnecting after a lost connection (300)"
    )
    parser.add_argument("--json", action="store_true", help="print the outcome as one JSON line at the end")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _arguments()
    args = parser.parse_args(argv)
    if args.bot not in BOTS:
        parser.error(f"unknown bot {args.bot!r}; bots: {', '.join(BOTS)}")
    if args.seat is not None and (args.token or args.rejoin_link):
        parser.error("--seat is for joining, not with --token or --rejoin-link")
    if not args.code and not (args.rejoin_link and parse_rejoin_link(args.rejoin_link)[0]):
        parser.error("give the room code")

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        outcome = asyncio.run(
            play(
                args.url,
                args.code,
                args.bot,
                name=args.name or f"{args.bot.capitalize()} client",
                seat=args.seat,
                token=args.token,
                rejoin_link=args.rejoin_link,
                seed=args.seed,
                log=say,
                verbose=args.verbose,
                retry_for=args.retry_for,
            )
        )
    except ClientError as exc:
        print(f"error: {exc.message}", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        return 130
    if args.json:
        say(
            json.dumps(
                {
                    "code": outcome.code,
                    "seat": outcome.seat,
                    "game_id": outcome.game_id,
                    "status": outcome.status,
                    "version": outcome.version,
                    "actions": outcome.actions,
                    "reconnects": outcome.reconnects,
                    "timeouts": outcome.timeouts,
                    "result": outcome.result,
                }
            )
        )
    return 0 if outcome.status == "finished" else 1


if __name__ == "__main__":
    sys.exit(main())
